/**
 * An md5mesh's joints as three.js bones: one `Bone` per joint, parented as the file says, at rest in the mesh's bind
 * pose (parent-relative translation and rotation, from the object-space joints as the glTF exporter turns them,
 * `pose/md5-bind.ts` bindJoints, as the glTF exporter's), and a `Skeleton` whose inverse bind matrices are the inverses of the object-space
 * bind joints. Object space is the model's Z-up group (`space.ts`); a skinned mesh sits there at identity and is
 * bound with an identity bind matrix, so three's skinning, bone matrix × inverse bind, is exactly the joint's motion
 * from its bind pose.
 */
import { Bone, Matrix4, Quaternion, Skeleton, Vector3 } from 'three';
import type { Md5Mesh } from '../base/model.js';
import { bindJoints } from '../pose/md5-bind.js';
import { uniqueNames } from './names.js';

export interface Md5Bones {
  /** One per joint, in the file's joint order. */
  bones: Bone[];
  /** The bones without a parent joint (to add under the model's Z-up group). */
  roots: Bone[];
  skeleton: Skeleton;
}

/** Bones named after the joints (sanitised, unique, none in `taken`: see names.ts), at the bind pose. */
export function md5Bones(mesh: Md5Mesh, taken: Set<string> = new Set()): Md5Bones {
  const { world, local } = bindJoints(mesh);
  const names = uniqueNames(mesh.joints.names, 'joint', taken);
  const bones = names.map((name, j) => {
    const b = new Bone();
    b.name = name;
    b.position.fromArray(local[j].t);
    b.quaternion.fromArray(local[j].q);
    return b;
  });
  const roots: Bone[] = [];
  mesh.joints.parents.forEach((p, j) => (p < 0 ? roots.push(bones[j]) : bones[p].add(bones[j])));
  const one = new Vector3(1, 1, 1);
  const inverses = world.map(({ t, q }) => new Matrix4().compose(new Vector3().fromArray(t), new Quaternion().fromArray(q), one).invert());
  return { bones, roots, skeleton: new Skeleton(bones, inverses) };
}

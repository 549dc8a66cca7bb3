/**
 * A skinned view's joints (`formats/model-view.ts`) as three.js bones: one `Bone` per joint, parented as the view
 * says, at rest in the bind pose (parent-relative translation, rotation and, where the format has one, scale), and a
 * `Skeleton` whose inverse bind matrices are the view's. Object space is the model's Z-up group (`space.ts`); a
 * skinned mesh sits there at identity and is bound with an identity bind matrix, so three's skinning, bone matrix ×
 * inverse bind, is exactly the joint's motion from its bind pose.
 */
import { Bone, Matrix4, Skeleton } from 'three';
import type { SkinnedModelView } from '../formats/model-view.js';
import { uniqueNames } from './names.js';

export interface ViewBones {
  /** One per joint, in the view's joint order. */
  bones: Bone[];
  /** The bones without a parent joint (to add under the model's Z-up group). */
  roots: Bone[];
  skeleton: Skeleton;
}

/** Bones named after the joints (sanitised, unique, none in `taken`: see names.ts), at the bind pose. */
export function viewBones(joints: SkinnedModelView['joints'], taken: Set<string> = new Set()): ViewBones {
  const names = uniqueNames(joints.names, 'joint', taken);
  const bones = names.map((name, j) => {
    const b = new Bone();
    b.name = name;
    b.userData.idtech = { joint: joints.names[j] }; // the name as the file has it (IdTechModel.joint looks it up)
    b.position.fromArray(joints.translations, j * 3);
    b.quaternion.fromArray(joints.rotations, j * 4);
    if (joints.scales) b.scale.fromArray(joints.scales, j * 3);
    return b;
  });
  const roots: Bone[] = [];
  bones.forEach((b, j) => {
    const p = joints.parents[j];
    if (p < 0 || p >= bones.length) roots.push(b);
    else bones[p].add(b);
  });
  const inverses = bones.map((_, j) => new Matrix4().fromArray(joints.inverseBind, j * 16));
  return { bones, roots, skeleton: new Skeleton(bones, inverses) };
}

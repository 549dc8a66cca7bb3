/**
 * An IQM (with animation files played on it) as three.js objects: one `Bone` per joint at the file's local TRS, a
 * `Skeleton` whose inverse bind matrices are the kernels' (`iqmBind`, ioquake3's R_LoadIQM), one mesh holding the
 * file's vertices as stored (IQM vertices are the bind pose) with a geometry group and a material per IQM mesh, and
 * one `AnimationClip` per anim (the model's own, then each animation file's: `iqm-clips.ts`). Two ways to skin:
 *
 * - `'gpu'` (default): a `SkinnedMesh`; skinIndex / skinWeight are the file's four blend indexes and weights as the
 *   glTF exporter writes them (`iqmInfluences`: RB_IQMSurfaceAnim's weights renormalised);
 * - `'exact'`: an `IqmPoserMesh`, skinned by our LBS kernel from the same bones (ioquake3's formula, cofactor normals).
 *
 * The mesh's bounding box covers the bind pose and every frame of every clip (skinned once per frame at load), so
 * frustum culling never drops a model animated out of its bind pose's sphere. Called by the loader; draws nothing.
 */
import { Bone, Box3, BufferAttribute, BufferGeometry, Matrix4, Skeleton, SkinnedMesh, Sphere, Uint16BufferAttribute, Vector3, type AnimationClip, type Group, type Material } from 'three';
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import type { IqmModel } from '../base/model.js';
import { iqmInfluences } from '../export/gltf-iqm.js';
import { iqmAcceptsCompanion } from '../formats/iqm/pairing.js';
import type { PoseBackend } from '../kernels/backend.js';
import { IQM_BIND_STRIDE } from '../kernels/layout.js';
import { iqmBindMatrices } from '../kernels/ts-iqm-kernels.js';
import { IqmPoser } from '../pose/iqm-poser.js';
import { iqmClip } from './iqm-clips.js';
import { IqmPoserMesh } from './iqm-poser-mesh.js';
import { distinct, reservedNames, uniqueNames } from './names.js';
import { indexAttribute, uvAttribute, zUpGroup } from './space.js';

export type IqmSkinning = 'gpu' | 'exact';

export interface IqmThreeInput {
  name: string;
  model: IqmModel;
  /** Animation files played on the model (each anim a clip), with the label that names a one-anim file's clip. */
  animations: readonly { name: string; anim: IqmModel }[];
  backend: PoseBackend;
  skinning: IqmSkinning;
  /** One per IQM mesh (file order). */
  materials: Material[];
}

export interface IqmThree {
  /** The Z-up group: bones and mesh, in the file's axes. */
  root: Group;
  mesh: SkinnedMesh | IqmPoserMesh;
  skeleton: Skeleton | null;
  bones: Bone[];
  clips: AnimationClip[];
  warnings: ParseWarning[];
}

/** Bones at the joints' local TRS, and the skeleton with the kernels' inverse bind matrices. */
export function iqmBones(model: IqmModel, taken: Set<string>): { bones: Bone[]; roots: Bone[]; skeleton: Skeleton; inverses: Matrix4[] } {
  const jt = model.joints, J = jt.count;
  const names = uniqueNames(jt.names, 'joint', taken);
  const bones = names.map((name, j) => {
    const b = new Bone();
    b.name = name;
    b.position.fromArray(jt.translate, j * 3);
    b.quaternion.fromArray(jt.rotate, j * 4).normalize();
    b.scale.fromArray(jt.scale, j * 3);
    return b;
  });
  const roots: Bone[] = [];
  jt.parents.forEach((p, j) => (p < 0 ? roots.push(bones[j]) : bones[p].add(bones[j])));
  const bind = new Float32Array(J * IQM_BIND_STRIDE), inv = new Float32Array(J * IQM_BIND_STRIDE);
  iqmBindMatrices(jt.parents, jt.translate, jt.rotate, jt.scale, bind, inv);
  const inverses = bones.map((_, j) => {
    const r = inv.subarray(j * IQM_BIND_STRIDE);
    return new Matrix4().set(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], 0, 0, 0, 1);
  });
  return { bones, roots, skeleton: new Skeleton(bones, inverses), inverses };
}

export function iqmToThree(input: IqmThreeInput): IqmThree {
  const { model, backend } = input;
  const warnings: ParseWarning[] = [];
  for (const a of input.animations) {
    const why = iqmAcceptsCompanion(model, a.anim, 'iqm', warnings);
    if (why) throw new ModelParseError(ErrorCode.AnimMeshMismatch, `${a.name}: ${why}`, { offset: 0 });
  }
  const poser = new IqmPoser(backend, model);
  try {
    const taken = reservedNames(input.name);
    const [meshName] = uniqueNames([`${input.name}_mesh`], 'mesh', taken);
    const J = model.joints.count;
    const rig = J > 0 ? iqmBones(model, taken) : null;
    const boneNames = rig ? rig.bones.map((b) => b.name) : [];

    // clips: the model's own anims, then each animation file's
    const sources: { file: IqmModel; anim: IqmModel['anims'][number]; label: string }[] = [];
    if (J > 0 && model.frameCount > 0 && model.poses.count === J) for (const a of model.anims) sources.push({ file: model, anim: a, label: a.name });
    for (const { name, anim } of input.animations) for (const a of anim.anims) sources.push({ file: anim, anim: a, label: anim.anims.length === 1 ? name : `${name}/${a.name}` });
    const clipNames = distinct(sources.map((s) => s.label), 'anim');
    const clips = rig ? sources.map((s, i) => iqmClip(s.file, s.anim, clipNames[i], boneNames)) : [];

    const box = new Box3();
    const point = new Vector3();
    const grow = (p: Float32Array) => {
      for (let i = 0; i + 2 < p.length; i += 3) box.expandByPoint(point.set(p[i], p[i + 1], p[i + 2]));
    };
    grow(poser.bindPose().positions);
    if (poser.skinned) {
      for (const file of new Set(sources.map((s) => s.file))) {
        poser.setAnimation(file);
        for (let f = 0; f < file.frameCount; f++) grow(poser.poseFrame(f).positions);
      }
      poser.setAnimation(null);
    }
    poser.bindPose();

    const V = poser.vertexCount;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(poser.positions.slice(), 3));
    if (model.normals) geometry.setAttribute('normal', new BufferAttribute(poser.normals.slice(), 3));
    geometry.setAttribute('uv', uvAttribute(model.texcoords ?? new Float32Array(V * 2)));
    geometry.setIndex(indexAttribute(model.triangles, V));
    model.meshes.forEach((m, i) => {
      if (m.triangleCount > 0) geometry.addGroup(m.firstTriangle * 3, m.triangleCount * 3, i);
    });
    const sphere = box.getBoundingSphere(new Sphere());

    let object: SkinnedMesh | IqmPoserMesh;
    if (input.skinning === 'exact' && rig && poser.skinned) {
      geometry.boundingBox = box;
      geometry.boundingSphere = sphere;
      object = new IqmPoserMesh(geometry, input.materials, poser, rig.bones, rig.inverses);
    } else {
      const skinned = new SkinnedMesh(geometry, input.materials);
      if (rig && model.blendIndexes && model.blendWeights) {
        const inf = iqmInfluences(model, 0, V);
        geometry.setAttribute('skinIndex', new Uint16BufferAttribute(Uint16Array.from(inf.joints), 4));
        geometry.setAttribute('skinWeight', new BufferAttribute(inf.weights, 4));
        if (inf.unskinned) warnings.push({ code: 'NO_POSITIVE_WEIGHT', message: `${inf.unskinned} vertices have no positive first weight (ioquake3 leaves them unskinned): bound to joint 0`, offset: 0 });
        skinned.bind(rig.skeleton, new Matrix4());
      }
      skinned.boundingBox = box;
      skinned.boundingSphere = sphere;
      object = skinned;
      poser.dispose();
    }
    object.name = meshName;
    const root = zUpGroup(input.name);
    root.add(...(rig?.roots ?? []), object);
    return { root, mesh: object, skeleton: rig?.skeleton ?? null, bones: rig?.bones ?? [], clips, warnings };
  } catch (e) {
    poser.dispose();
    throw e;
  }
}

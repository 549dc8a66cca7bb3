/**
 * An md5mesh with its md5anims as a skinned view (`model-view.ts`), everything posed by an `Md5Poser` on the
 * backend given:
 * - joints at rest in the mesh's bind pose, parent-relative (the object-space joints as the glTF exporter turns them,
 *   `bindJoints`), and inverse bind matrices inverting the object-space joints;
 * - the bind pose's positions and normals as the poser skins them, every `mesh { }` block back to back (a group
 *   each, file order: the order the poser writes its outputs in);
 * - one clip per md5anim, named after its file: each key frame f at f / frameRate, holding frame f's
 *   parent-relative joint poses as the kernels compose them (`Md5Poser.meshLocalPose`, normalised: an anim whose
 *   parents differ from the mesh's, which Daemon plays, re-expressed under the mesh's); a clip lasts
 *   (frameCount − 1) / frameRate, its last frame closing the cycle as `frameAtTime` plays it; one frame is a still
 *   pose of two equal keys. Every joint gets its keys (an anim's baseframe may differ from the mesh's bind pose);
 * - bounds over the bind pose and every frame of every anim (positions skinned once per frame, nothing kept);
 * - four influences per vertex chosen as the glTF exporter chooses them (`vertexInfluences`: weights on one joint
 *   merged, the four largest kept and renormalised, Doom 3 BFG's rule for its GPU format);
 * - a joint `<name>_md5scale` after the mesh's own for each joint an anim's `.md5scale` scales (q2pro, a Quake II
 *   replacement's: docs/md5-replacements.md), at rest under its joint and bound as it, holding that joint's
 *   influences; each clip keys its scale per frame, held to the next (the glTF export's `_md5scale` nodes);
 * - `exact`: the poser itself skinning every weight (each weight its own position in its joint's space: the
 *   engine's formula, which one bind position under four influences only approximates), from the mesh's own joints
 *   (`JointSkinner.joints`), each scale joint's scale read off its bone by the caller (`scaleJoints`) and applied as
 *   `Md5Poser.skinWithScales` applies it — q2pro's `calc_skel_vert`, the same kernel as the loader's poses.
 */
import type { Md5Anim, Md5Mesh } from '../../base/model.js';
import { quatConjugate, quatNormalize, quatRotate, type Quat } from '../../base/quat.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { MATRIX_STRIDE, POSE_STRIDE } from '../../kernels/layout.js';
import type { ModelSet } from '../../load/model-set.js';
import { bindJoints, vertexInfluences, type InfluenceStats } from './bind.js';
import { Md5Poser } from '../../pose/md5-poser.js';
import { md5SetAnims, scaledJoints } from './set-anims.js';
import { growBounds, type SkinnedClipView, type SkinnedModelView, type ViewBounds, type ViewGroup } from '../model-view.js';

/** Column-major 4×4 inverse of the rigid transform (R(q), t): [Rᵀ | −Rᵀt], Rᵀ's columns the axes turned back by q*. */
function inverseRigid(t: ArrayLike<number>, q: Quat, out: Float64Array, o: number): void {
  const back = quatConjugate(q);
  for (let c = 0; c < 3; c++) out.set(quatRotate(back, [c === 0 ? 1 : 0, c === 1 ? 1 : 0, c === 2 ? 1 : 0]), o + c * 4);
  const tr = quatRotate(back, t);
  out.set([-tr[0], -tr[1], -tr[2], 1], o + 12);
}

/**
 * The clip of `anim`: every joint's local pose at every frame, composed by `poser` (the anim attached for the call);
 * then each scale joint (`scaled[k]`'s, see md5View) at rest, its scale the frame's (`scales`, 1 without), held to
 * the next frame as the glTF export keys it (STEP).
 */
function md5Clip(poser: Md5Poser, anim: Md5Anim, name: string, scaled: readonly number[], scales: Float32Array | undefined): SkinnedClipView {
  poser.setAnim(anim);
  try {
    const keys = Math.max(2, anim.frameCount);
    const times = Float32Array.from({ length: keys }, (_, k) => k / anim.frameRate);
    const joints: SkinnedClipView['joints'][number][] = Array.from({ length: anim.jointCount }, () => ({ translation: new Float32Array(keys * 3), rotation: new Float32Array(keys * 4) }));
    for (let k = 0; k < keys; k++) {
      const local = poser.meshLocalPose(Math.min(k, anim.frameCount - 1));
      joints.forEach((j, i) => {
        const o = i * POSE_STRIDE;
        j.translation.set(local.subarray(o, o + 3), k * 3);
        j.rotation.set(quatNormalize(local.subarray(o + 4, o + 8)), k * 4);
      });
    }
    const n = anim.jointCount;
    for (const j of scaled) {
      const rotation = new Float32Array(keys * 4);
      for (let k = 0; k < keys; k++) rotation[k * 4 + 3] = 1;
      const scale = new Float32Array(keys * 3).fill(1);
      if (scales) for (let k = 0; k < keys; k++) scale.fill(scales[Math.min(k, anim.frameCount - 1) * n + j], k * 3, k * 3 + 3);
      joints.push({ translation: new Float32Array(keys * 3), rotation, scale, scaleStep: true });
    }
    return { name, frameRate: anim.frameRate, frameCount: anim.frameCount, times, joints, loop: 'repeat' };
  } finally {
    poser.setAnim(null);
  }
}

/** The bind pose and every frame of every anim, skinned by `poser` (positions only); the anims detached after. */
function allFrameBounds(poser: Md5Poser, anims: readonly { anim: Md5Anim; scales?: Float32Array }[]): ViewBounds | null {
  let box = growBounds(null, poser.poseBind(false).positions);
  for (const { anim, scales } of anims) {
    poser.setAnim(anim).setScales(scales ?? null);
    for (let f = 0; f < anim.frameCount; f++) box = growBounds(box, poser.poseFrame(f, false).positions);
  }
  poser.setAnim(null);
  return box;
}

export function md5View(set: ModelSet<Md5Mesh>, backend: PoseBackend): SkinnedModelView {
  const mesh = set.data;
  const anims = md5SetAnims(set);
  const poser = new Md5Poser(backend, mesh);
  let owned = true;
  try {
    const { local, world } = bindJoints(mesh);
    const n = mesh.joints.count;
    // joints whose weights an anim scales (q2pro's .md5scale): a joint `<name>_md5scale` each, child of its joint at
    // rest and bound as it, holding its weights (the glTF export's way, formats/md5/gltf.ts): scaling it scales the
    // weights' offsets about the joint, and not the joint's children
    const scaled = scaledJoints(n, anims);
    const total = n + scaled.length;
    const translations = new Float64Array(total * 3), rotations = new Float64Array(total * 4), inverseBind = new Float64Array(total * 16);
    for (let j = 0; j < n; j++) {
      translations.set(local[j].t, j * 3);
      rotations.set(local[j].q, j * 4);
      inverseRigid(world[j].t, world[j].q, inverseBind, j * 16);
    }
    scaled.forEach((j, k) => {
      rotations[(n + k) * 4 + 3] = 1;
      inverseBind.copyWithin((n + k) * 16, j * 16, j * 16 + 16);
    });
    const scaleJoint = new Map(scaled.map((j, k) => [j, n + k]));
    const clips = anims.map((a) => md5Clip(poser, a.anim, a.name, scaled, a.scales));
    const bounds = allFrameBounds(poser, anims);
    poser.poseBind();
    const starts = poser.stream.meshVertexStart;
    const st = new Float32Array(poser.vertexCount * 2);
    mesh.meshes.forEach((m, i) => st.set(m.uvs, starts[i] * 2));
    const triangles = new Uint32Array(mesh.meshes.reduce((k, m) => k + m.triangles.length, 0));
    const groups: ViewGroup[] = [];
    let at = 0;
    mesh.meshes.forEach((m, i) => {
      for (let k = 0; k < m.triangles.length; k++) triangles[at + k] = starts[i] + m.triangles[k];
      groups.push({ name: m.name, material: m.shader || m.name, start: at, count: m.triangles.length });
      at += m.triangles.length;
    });
    return {
      kind: 'skinned',
      joints: {
        names: scaled.length ? [...mesh.joints.names, ...scaled.map((j) => `${mesh.joints.names[j]}_md5scale`)] : mesh.joints.names,
        parents: scaled.length ? [...Array.from(mesh.joints.parents), ...scaled] : mesh.joints.parents,
        translations,
        rotations,
        inverseBind,
      },
      vertexCount: poser.vertexCount,
      positions: poser.positions.slice(),
      normals: poser.normals.slice(),
      st,
      triangles,
      groups,
      bounds,
      clips,
      influences() {
        const stats: InfluenceStats = { verticesLostWeight: 0, maxLostWeight: 0, jointsPerVertex: [] };
        const joints = new Uint16Array(poser.vertexCount * 4), weights = new Float32Array(poser.vertexCount * 4);
        let unweighted = 0;
        mesh.meshes.forEach((m, i) => {
          const inf = vertexInfluences(m, stats, true);
          joints.set(inf.joints, starts[i] * 4);
          weights.set(inf.weights, starts[i] * 4);
          unweighted += inf.nonPositive;
        });
        for (let i = 0; i < joints.length; i++) joints[i] = scaleJoint.get(joints[i]) ?? joints[i];
        return { joints, weights, dropped: { vertices: stats.verticesLostWeight, maxWeight: stats.maxLostWeight }, unweighted };
      },
      exact() {
        owned = false;
        return {
          get jointMatrices() {
            return poser.jointMatrices;
          },
          stride: MATRIX_STRIDE,
          joints: n,
          ...(scaled.length ? { scaleJoints: scaled } : {}),
          skin(scales?: Float32Array) {
            if (scales) poser.skinWithScales(scales, true);
            else poser.skin(true);
            return { positions: poser.positions, normals: poser.normals };
          },
          dispose: () => poser.dispose(),
        };
      },
      dispose() {
        if (owned) poser.dispose();
        owned = false;
      },
      warnings: [],
    };
  } catch (e) {
    poser.dispose();
    throw e;
  }
}

/**
 * A studio model as a skinned view (`model-view.ts`), what `IdTechLoader` draws:
 * - joints at the bones' default values (parent-relative translation, AngleQuaternion rotation), inverse bind
 *   matrices the inverse of each bone's default object transform (composed by the kernels: poser.ts);
 * - the draw vertices of the submodels body 0 shows in that bind pose, one group per studio mesh (its material slot);
 * - one clip per sequence that plays: key k at k / fps holding frame k's decoded channels (anim.ts), the keys bounded
 *   by maxAnimationKeys before any is made;
 * - bounds over the bind pose and every frame of every clip (posed by the kernels, nothing kept);
 * - one influence per vertex, weight 1: Half-Life's rigid skinning.
 */
import { overLimit, resourceLimits } from '../../base/resource-limits.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { POSE_STRIDE } from '../../kernels/layout.js';
import type { ModelSet } from '../../load/model-set.js';
import { growBounds, type SkinnedClipView, type SkinnedModelView } from '../model-view.js';
import { angleQuaternion, channelsToLocal, SequenceDecoder, type SequenceSource } from './anim.js';
import { goldsrcParts } from './companions.js';
import { goldsrcDraw } from './geometry.js';
import type { GoldsrcModel } from './model.js';
import { goldsrcClips } from './playable.js';
import { GoldsrcPoser } from './poser.js';
import { goldsrcMaterials, textureSource } from './textures.js';
import { drawUvs } from './uvs.js';

function clipOf(model: GoldsrcModel, s: SequenceSource, name: string, fps: number, loop: boolean): SkinnedClipView {
  const J = model.bones.length;
  const F = s.sequence.frameCount;
  const keys = Math.max(2, F);
  const times = Float32Array.from({ length: keys }, (_, k) => k / fps);
  const joints = Array.from({ length: J }, () => ({ translation: new Float32Array(keys * 3), rotation: new Float32Array(keys * 4) }));
  const channels = new Float32Array(J * 6), local = new Float32Array(J * POSE_STRIDE);
  const decoder = new SequenceDecoder(model.bones, s);
  for (let k = 0; k < keys; k++) {
    channelsToLocal(decoder.channels(Math.min(k, F - 1), channels), local);
    for (let j = 0; j < J; j++) {
      joints[j].translation.set(local.subarray(j * POSE_STRIDE, j * POSE_STRIDE + 3), k * 3);
      joints[j].rotation.set(local.subarray(j * POSE_STRIDE + 4, j * POSE_STRIDE + 8), k * 4);
    }
  }
  return { name, frameRate: fps, frameCount: F, times, joints, loop: loop ? 'repeat' : 'once' };
}

export function goldsrcView(set: ModelSet<GoldsrcModel>, backend: PoseBackend): SkinnedModelView {
  const model = set.data;
  const J = model.bones.length;
  const draw = goldsrcDraw(model);
  const shown = textureSource(model, goldsrcParts(model, set.companions, set.path).textures);
  const { clips, sources } = goldsrcClips(set);
  const keys = sources.reduce((n, s) => n + Math.max(2, s.sequence.frameCount) * J, 0);
  const max = resourceLimits().maxAnimationKeys;
  if (keys > max) throw overLimit(`${sources.length} sequence(s) of ${keys / Math.max(1, J)} keys in all × ${J} bones are ${keys} bone poses`, 'maxAnimationKeys', max);
  const poser = new GoldsrcPoser(backend, model, draw);
  try {
    let bounds = null;
    for (const s of sources) for (let f = 0; f < s.sequence.frameCount; f++) bounds = growBounds(bounds, poser.poseSequence(s, f).positions);
    poser.bindPose();
    bounds = growBounds(bounds, poser.positions);
    const inverseBind = new Float64Array(J * 16);
    const obj = poser.bonePoses;
    for (let j = 0; j < J; j++) {
      const [tx, ty, tz, , x, y, z, w] = Array.from(obj.subarray(j * POSE_STRIDE, j * POSE_STRIDE + 8));
      const r = [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
      const m = j * 16;
      // column-major Rᵀ, then −Rᵀ·t
      for (let row = 0; row < 3; row++) for (let c = 0; c < 3; c++) inverseBind[m + c * 4 + row] = r[c * 3 + row];
      inverseBind[m + 12] = -(r[0] * tx + r[3] * ty + r[6] * tz);
      inverseBind[m + 13] = -(r[1] * tx + r[4] * ty + r[7] * tz);
      inverseBind[m + 14] = -(r[2] * tx + r[5] * ty + r[8] * tz);
      inverseBind[m + 15] = 1;
    }
    const translations = new Float32Array(J * 3), rotations = new Float32Array(J * 4);
    model.bones.forEach((b, j) => {
      translations.set(b.value.subarray(0, 3), j * 3);
      angleQuaternion(b.value[3], b.value[4], b.value[5], rotations, j * 4);
    });
    const materials = goldsrcMaterials(model, shown, set.path).materials;
    const V = draw.vertexCount;
    const view: SkinnedModelView = {
      kind: 'skinned',
      joints: { names: model.bones.map((b, j) => b.name || `bone${j}`), parents: model.bones.map((b) => b.parent), translations, rotations, inverseBind },
      vertexCount: V,
      positions: poser.positions.slice(),
      normals: poser.normals.slice(),
      st: drawUvs(draw, shown),
      triangles: draw.indices.slice(),
      groups: draw.meshes.map((m, i) => ({ name: m.name, material: materials[i]?.shaderName ?? m.name, start: m.firstIndex, count: m.indexCount })),
      bounds,
      clips: sources.map((s, i) => clipOf(model, s, clips[i].name, clips[i].frameRate, clips[i].closesOnLastFrame)),
      influences() {
        const joints = new Uint16Array(V * 4), weights = new Float32Array(V * 4);
        for (let v = 0; v < V; v++) {
          joints[v * 4] = draw.vertexBones[v];
          weights[v * 4] = 1;
        }
        return { joints, weights, dropped: { vertices: 0, maxWeight: 0 }, unweighted: 0 };
      },
      dispose: () => undefined,
      warnings: [],
    };
    return view;
  } finally {
    poser.dispose();
  }
}

/**
 * A studio model as a skinned view (`model-view.ts`), what `IdTechLoader` draws:
 * - joints at the bones' default values (parent-relative translation, AngleQuaternion rotation), inverse bind
 *   matrices the inverse of each bone's default object transform (composed by the kernels: poser.ts);
 * - the draw vertices of the submodels the body value (`settings.body`, 0 by default) shows in that bind pose, one group per studio mesh (its material slot);
 * - one clip per sequence that plays: key k at k / fps holding frame k's local pose as the poser makes it (anim.ts's
 *   decoded channels, with the controls given — bone controllers and blending, controls.ts — mixed by the kernels),
 *   the keys bounded by maxAnimationKeys before any is made;
 * - `extras.controls`: the controllers (their ranges) and the blend axes a UI may offer, to bake the clips again with;
 * - bounds over the bind pose and every frame of every clip (posed by the kernels, nothing kept);
 * - one influence per vertex, weight 1: Half-Life's rigid skinning.
 */
import { overLimit, resourceLimits } from '../../base/resource-limits.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { POSE_STRIDE } from '../../kernels/layout.js';
import type { ModelSet } from '../../load/model-set.js';
import { growBounds, type SkinnedClipView, type SkinnedModelView } from '../model-view.js';
import type { ViewControl, ViewSettings } from '../model-view.js';
import { angleQuaternion, type SequenceSource } from './anim.js';
import { STUDIO_RLOOP } from './controls.js';
import { goldsrcParts } from './companions.js';
import { goldsrcDraw } from './geometry.js';
import type { GoldsrcModel } from './model.js';
import { goldsrcClips } from './playable.js';
import { GoldsrcPoser } from './poser.js';
import { familyNames, goldsrcMaterials, textureSource } from './textures.js';
import { drawUvs } from './uvs.js';

/** Sequence `s` as a clip: every frame posed by `poser` (its controls set), its bones' local poses kept. */
function clipOf(poser: GoldsrcPoser, J: number, s: SequenceSource, name: string, fps: number, loop: boolean): SkinnedClipView {
  const F = s.sequence.frameCount;
  const keys = Math.max(2, F);
  const times = Float32Array.from({ length: keys }, (_, k) => k / fps);
  const joints = Array.from({ length: J }, () => ({ translation: new Float32Array(keys * 3), rotation: new Float32Array(keys * 4) }));
  for (let k = 0; k < keys; k++) {
    const local = poser.poseSequence(s, Math.min(k, F - 1)).localPoses;
    for (let j = 0; j < J; j++) {
      joints[j].translation.set(local.subarray(j * POSE_STRIDE, j * POSE_STRIDE + 3), k * 3);
      joints[j].rotation.set(local.subarray(j * POSE_STRIDE + 4, j * POSE_STRIDE + 8), k * 4);
    }
  }
  return { name, frameRate: fps, frameCount: F, times, joints, loop: loop ? 'repeat' : 'once' };
}

const CONTROLLER_AXES: Record<number, string> = { 1: 'X', 2: 'Y', 4: 'Z', 8: 'XR', 16: 'YR', 32: 'ZR' };

/** The controllers (one per index, the mouth as 4), the blend axes of the model's sequences and its body parts' submodel choices, for a UI. */
function viewControls(model: GoldsrcModel): ViewControl[] {
  const out: ViewControl[] = [];
  const seen = new Set<number>();
  for (const c of model.controllers) {
    const index = c.index > 3 ? 4 : c.index;
    if (c.index < 0 || seen.has(index)) continue;
    seen.add(index);
    const axis = CONTROLLER_AXES[c.type & 0x7fff] ?? `type 0x${(c.type & 0xffff).toString(16)}`;
    const loops = index <= 3 && (c.type & STUDIO_RLOOP) !== 0;
    const bone = model.bones[c.bone]?.name ?? `bone ${c.bone}`;
    out.push({
      kind: 'controller', index, label: `${index === 4 ? 'mouth' : `controller ${index}`} (${JSON.stringify(bone)} ${axis}${loops ? ', loops' : ''})`,
      min: loops ? c.start : Math.min(c.start, c.end), max: loops ? c.start + 360 : Math.max(c.start, c.end), unit: /R$/.test(axis) ? 'degrees' : 'units',
      rest: 0,
    });
  }
  // the submodel of each body part that has more than one (StudioSetupModel: body = Σ submodel × base)
  model.bodyParts.forEach((p, i) => {
    if (p.models.length > 1) out.push({ kind: 'submodel', index: i, label: `body part ${JSON.stringify(p.name || `part ${i}`)} (${p.models.length} submodels)`, min: 0, max: p.models.length - 1, unit: 'submodel', rest: 0, weight: Math.max(1, p.base) });
  });
  const blends = Math.max(0, ...model.sequences.map((s) => s.blendCount));
  if (blends > 1) out.push({ kind: 'blend', index: 0, label: 'blend X (blending[0])', min: 0, max: 255, unit: 'byte', rest: 0 });
  if (blends === 4 || blends === 9 || model.sequences.some((s) => s.blendCount === 4 || s.blendCount === 9)) out.push({ kind: 'blend', index: 1, label: 'blend Y (blending[1])', min: 0, max: 255, unit: 'byte', rest: 0 });
  return out;
}

export function goldsrcView(set: ModelSet<GoldsrcModel>, backend: PoseBackend, settings: ViewSettings = {}): SkinnedModelView {
  const { body = 0, ...controls } = settings;
  const model = set.data;
  const J = model.bones.length;
  const draw = goldsrcDraw(model, body);
  const shown = textureSource(model, goldsrcParts(model, set.companions, set.path).textures);
  const { clips, sources } = goldsrcClips(set);
  const keys = sources.reduce((n, s) => n + Math.max(2, s.sequence.frameCount) * J, 0);
  const max = resourceLimits().maxAnimationKeys;
  if (keys > max) throw overLimit(`${sources.length} sequence(s) of ${keys / Math.max(1, J)} keys in all × ${J} bones are ${keys} bone poses`, 'maxAnimationKeys', max);
  const poser = new GoldsrcPoser(backend, model, draw).setControls(controls);
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
    const materials = goldsrcMaterials(model, shown, set.path, 0, body).materials;
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
      clips: sources.map((s, i) => clipOf(poser, J, s, clips[i].name, clips[i].frameRate, clips[i].closesOnLastFrame)),
      influences() {
        const joints = new Uint16Array(V * 4), weights = new Float32Array(V * 4);
        for (let v = 0; v < V; v++) {
          joints[v * 4] = draw.vertexBones[v];
          weights[v * 4] = 1;
        }
        return { joints, weights, dropped: { vertices: 0, maxWeight: 0 }, unweighted: 0 };
      },
      dispose: () => undefined,
      ...(() => {
        // the skin families (of the texture file when the model has none) as skins to choose from, and the controls
        const offered = viewControls(model), skins = familyNames(shown);
        return offered.length || skins.length ? { extras: { ...(offered.length ? { controls: offered } : {}), ...(skins.length ? { skins } : {}) } } : {};
      })(),
      warnings: [],
    };
    return view;
  } finally {
    poser.dispose();
  }
}

/**
 * A Quake MDL as a morph view (`model-view.ts`): its poses stay quantised in an `MdlPoser` (MD2's kernels with the
 * model's one scale and origin), which decodes the two a pose blends. The view's vertices are the GL renderer's
 * (`mdlDrawVertices`: a back-facing triangle's onseam vertex takes the skin's back half), each taking its position
 * and normal from the poser's per-vertex output.
 *
 * Frames are the stored poses, frame groups expanded. Clips are the pose-name groups (`stand1…` → `stand`) at
 * Quake's 10 fps, looping with the last pose blending back into the first; a clip that is exactly one frame group
 * plays at the group's own intervals (`times`: each pose's key where the previous one ends). The grid is one lattice
 * over the box of every pose (`gridOver`): the file's own grid is per axis, which one int16 step cannot be.
 */
import type { MdlModel } from '../../base/model.js';
import { clipGroupIntervals } from './clips.js';
import { mdlDrawVertices } from './geometry.js';
import { mdlEffects } from './limits.js';
import { mdlSkinNames } from './materials.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { MdlPoser } from './poser.js';
import { MDL_DEFAULT_FPS } from '../../pose/timing.js';
import { gatheringPoser, gridOver, loopingFrames, type MorphClipView, type MorphModelView, type ViewBounds, type ViewExtras } from '../model-view.js';

/** The box of every pose, from the quantised bytes: the extreme bytes scaled (the scale may be negative: both ends). */
function mdlBounds(model: MdlModel): ViewBounds | null {
  const v = model.frameVertices;
  if (model.vertexCount === 0 || model.poseCount === 0) return null;
  const lo = [255, 255, 255], hi = [0, 0, 0];
  for (let i = 0; i < model.vertexCount * model.poseCount * 4; i += 4) {
    for (let k = 0; k < 3; k++) {
      if (v[i + k] < lo[k]) lo[k] = v[i + k];
      if (v[i + k] > hi[k]) hi[k] = v[i + k];
    }
  }
  const ends = [lo, hi].map((q) => [0, 1, 2].map((k) => Math.fround(q[k] * model.scale[k] + model.origin[k])));
  const min = [0, 1, 2].map((k) => Math.min(ends[0][k], ends[1][k])), max = [0, 1, 2].map((k) => Math.max(ends[0][k], ends[1][k]));
  return { min: [min[0], min[1], min[2]], max: [max[0], max[1], max[2]] };
}

function mdlClipViews(model: MdlModel): MorphClipView[] {
  if (model.poseCount < 2) return [];
  return model.clips.map((c) => {
    const iv = clipGroupIntervals(model.frames, c.firstFrame, c.frameCount);
    const frames = loopingFrames(c.firstFrame, c.frameCount);
    return iv
      ? { name: c.name, frames, step: iv[0], times: [0, ...iv], loop: 'repeat' as const }
      : { name: c.name, frames, step: 1 / MDL_DEFAULT_FPS, loop: 'repeat' as const };
  });
}

/** Quake's EF_ROTATE: the client turns the model 100° a second (QuakeSpasm CL_RelinkEntities, `anglemod(100 * cl.time)`). */
const EF_ROTATE = 8;
const ROTATE_DEGREES_PER_SECOND = 100;

/** What the engine does with the model beyond its frames: the spin EF_ROTATE gives it, its flags, its skin records. */
function mdlExtras(model: MdlModel): ViewExtras {
  return {
    ...((model.flags & EF_ROTATE) !== 0 ? { spin: ROTATE_DEGREES_PER_SECOND } : {}),
    flags: mdlEffects(model.flags),
    skins: mdlSkinNames(model),
  };
}

/** `name` names the skin group's material (what an untextured material is called; default `skin0`). */
export function mdlView(model: MdlModel, backend: PoseBackend, name = 'skin0'): MorphModelView {
  const drawn = mdlDrawVertices(model);
  const n = drawn.sourceVertex.length;
  const bounds = mdlBounds(model);
  const poser = new MdlPoser(backend, model);
  return {
    kind: 'morph',
    vertexCount: n,
    frameCount: model.poseCount,
    frameNames: model.poseNames,
    triangles: drawn.indices,
    st: drawn.uvs,
    groups: [{ name, material: name, start: 0, count: drawn.indices.length }],
    bounds,
    grid: gridOver(bounds),
    clips: mdlClipViews(model),
    poser: gatheringPoser(poser, drawn.sourceVertex),
    warnings: [],
    extras: mdlExtras(model),
  };
}

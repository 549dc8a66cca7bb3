/**
 * An MD2 as a morph view (`model-view.ts`): its frames stay quantised in an `Md2Poser`, which decodes the two a pose
 * blends. MD2 triangles index positions and texture coordinates separately, so the view's vertices are the distinct
 * (xyz, st) pairs (`md2Unwelded`), each taking its position and normal from the poser's per-xyz output.
 *
 * Positions are bytes × a per-frame scale + translate, which no single int16 attribute holds: the grid is one
 * lattice over the box of all frames (`gridOver`). Clips are the frame-name groups (`stand01…` → `stand`) at Quake
 * 2's 10 fps, looping with the last frame blending back into the first.
 */
import type { Md2Model } from '../../base/model.js';
import { md2Unwelded } from './geometry.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { Md2Poser } from '../../pose/md2-poser.js';
import { MD2_DEFAULT_FPS } from '../../pose/timing.js';
import { gatheringPoser, gridOver, loopingFrames, type MorphModelView, type ViewBounds } from '../model-view.js';

/** The box of every frame, from the quantised bytes: each frame's extreme bytes scaled (the scale may be negative: both ends). */
function md2Bounds(model: Md2Model): ViewBounds | null {
  let box: ViewBounds | null = null;
  const v = model.frameVertices;
  if (model.vertexCount === 0) return null;
  for (let f = 0; f < model.frameCount; f++) {
    const lo = [255, 255, 255], hi = [0, 0, 0];
    for (let i = f * model.vertexCount * 4, end = i + model.vertexCount * 4; i < end; i += 4) {
      for (let k = 0; k < 3; k++) {
        if (v[i + k] < lo[k]) lo[k] = v[i + k];
        if (v[i + k] > hi[k]) hi[k] = v[i + k];
      }
    }
    const s = model.frameScales.subarray(f * 3, f * 3 + 3), tr = model.frameTranslates.subarray(f * 3, f * 3 + 3);
    for (const q of [lo, hi]) {
      const p = [0, 1, 2].map((k) => Math.fround(q[k] * s[k] + tr[k]));
      if (!box) box = { min: [p[0], p[1], p[2]], max: [p[0], p[1], p[2]] };
      for (let k = 0; k < 3; k++) {
        box.min[k] = Math.min(box.min[k], p[k]);
        box.max[k] = Math.max(box.max[k], p[k]);
      }
    }
  }
  return box;
}

export function md2View(model: Md2Model, backend: PoseBackend): MorphModelView {
  const un = md2Unwelded(model);
  const n = un.sourceVertex.length;
  const bounds = md2Bounds(model);
  const poser = new Md2Poser(backend, model);
  const skin = model.skins[0]?.name ?? '';
  return {
    kind: 'morph',
    vertexCount: n,
    frameCount: model.frameCount,
    frameNames: model.frameNames,
    triangles: un.indices,
    st: un.uvs,
    groups: [{ name: skin, material: skin, start: 0, count: un.indices.length }],
    bounds,
    grid: gridOver(bounds),
    clips: model.frameCount > 1 ? model.clips.map((c) => ({ name: c.name, frames: loopingFrames(c.firstFrame, c.frameCount), step: 1 / MD2_DEFAULT_FPS, loop: 'repeat' as const })) : [],
    poser: gatheringPoser(poser, un.sourceVertex),
    warnings: [],
  };
}

/**
 * (A top-level file of the formats floor: the view of any model in MD3's data shape, shared by the md3/ and mdc/ rooms.)
 * An MD3 as a morph view (`model-view.ts`): its frames stay quantised in an `Md3Poser` (surfaces back to back, the
 * two frames a pose blends decoded by the MD3 kernels), its tags placed as ioquake3's R_LerpTag places them
 * (`lerpTag`). Positions are int16 in 1/64 units in the file: the grid is that one, exactly (nothing rounded). A
 * lone MD3 has no clip table (Quake 3 keeps it in a player's animation.cfg): its clips are the frame-name groups at
 * 15 fps, looping; a player part takes its clips from the player (`player-view.ts`).
 */
import type { Md3Model } from '../base/model.js';
import { groupClips } from '../base/frame-clips.js';
import type { PoseBackend } from '../kernels/backend.js';
import { lerpTag } from '../pose/md3-tag.js';
import { Md3Poser } from '../pose/md3-poser.js';
import { MD3_DEFAULT_FPS } from '../pose/timing.js';
import { loopingFrames, type MorphClipView, type MorphModelView, type ViewBounds } from './model-view.js';

/** The box of every frame's positions, from the stored int16 records (1/64 units). */
function md3Bounds(model: Md3Model): ViewBounds | null {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (const s of model.surfaces) {
    const r = s.xyzNormals;
    for (let i = 0; i < r.length; i += 4) {
      for (let k = 0; k < 3; k++) {
        if (r[i + k] < lo[k]) lo[k] = r[i + k];
        if (r[i + k] > hi[k]) hi[k] = r[i + k];
      }
    }
  }
  return lo[0] <= hi[0] ? { min: [lo[0] / 64, lo[1] / 64, lo[2] / 64], max: [hi[0] / 64, hi[1] / 64, hi[2] / 64] } : null;
}

/** The frame-name groups of a lone MD3, at Quake 3's 15 fps. */
export function md3Clips(model: Md3Model): MorphClipView[] {
  if (model.frameCount <= 1) return [];
  return groupClips(model.frameNames).map((c) => ({ name: c.name, frames: loopingFrames(c.firstFrame, c.frameCount), step: 1 / MD3_DEFAULT_FPS, loop: 'repeat' as const }));
}

/** `model` as a morph view whose clips are `clips` (a lone MD3's: `md3Clips`; a player part's: none of its own). */
export function md3View(model: Md3Model, backend: PoseBackend, clips: readonly MorphClipView[]): MorphModelView {
  const poser = new Md3Poser(backend, model);
  const groups: MorphModelView['groups'][number][] = [];
  let at = 0;
  for (const s of model.surfaces) {
    groups.push({ name: s.name, material: s.shaders[0]?.name || s.name, start: at, count: s.triangles.length });
    at += s.triangles.length;
  }
  const st = new Float32Array(poser.vertexCount * 2);
  model.surfaces.forEach((s, i) => st.set(s.st, poser.surfaceVertexStart[i] * 2));
  return {
    kind: 'morph',
    vertexCount: poser.vertexCount,
    frameCount: model.frameCount,
    frameNames: model.frameNames,
    triangles: poser.indices,
    st,
    groups,
    bounds: md3Bounds(model),
    grid: { step: 1 / 64, offset: [0, 0, 0] },
    clips,
    tags: { names: model.tagNames, place: (k, a, b, t, out, orthonormal) => lerpTag(model, k, a, b, t, out, { orthonormalize: orthonormal }) },
    poser: {
      pose(frame1, frame2, t) {
        poser.poseBlend(frame1, frame2, t);
        return { positions: poser.positions, normals: poser.normals };
      },
      dispose: () => poser.dispose(),
    },
    warnings: [],
  };
}

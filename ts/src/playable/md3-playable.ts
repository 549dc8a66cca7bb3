/**
 * A single MD3 (or a model in its data shape: an MDC once decoded, formats/mdc) as a playable model: one part per surface, all frames as one clip at 15 fps (a single .md3 carries no
 * clip table; Quake 3 keeps that in a player's animation.cfg).
 */
import type { Md3Model } from '../base/model.js';
import type { PoseBackend } from '../kernels/backend.js';
import { MD3_DEFAULT_FPS } from '../pose/timing.js';
import { Md3Poser } from '../pose/md3-poser.js';
import { morphPlayer, type RangeClip } from './morph-playable.js';
import { concatUvs, partsBackToBack, type PlayableModel } from './playable.js';

/** An MD3: one part per surface, all frames one clip. */
export function md3Playable(model: Md3Model): PlayableModel {
  const clips: RangeClip[] = [{ name: model.frameCount > 1 ? 'all frames' : 'static', firstFrame: 0, frameCount: model.frameCount, frameRate: MD3_DEFAULT_FPS, closesOnLastFrame: false }];
  // Surfaces back to back, as Md3Poser lays out its outputs.
  const { indices, parts, vertexCount } = partsBackToBack(model.surfaces);
  const triangles = indices.length / 3;
  return {
    format: 'md3',
    vertexCount,
    indices,
    parts,
    clips,
    summary: `MD3: ${model.frameCount} frames, ${model.surfaces.length} surfaces, ${vertexCount} vertices, ${triangles} triangles, ${model.tagCount} tags`,
    uvs: concatUvs(model.surfaces.map((s) => s.st)),
    materials: [],
    textureWarnings: [],
    model,
    createPlayer: (backend: PoseBackend) => morphPlayer(new Md3Poser(backend, model), clips),
  };
}

/**
 * An MD2 as a playable model: one part, its frame-name clips (`stand`, `run`, …) at Quake 2's 10 fps, blending the
 * last frame of a clip back into its first, as the posers' `clipBlend` does.
 */
import type { Md2Model } from '../../base/model.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { MD2_DEFAULT_FPS } from '../../pose/timing.js';
import { Md2Poser } from '../../pose/md2-poser.js';
import { morphPlayer, unweldedPlayer, type RangeClip } from '../../playable/morph-playable.js';
import type { PlayableModel, PlayablePart } from '../../playable/playable.js';
import { md2Unwelded } from './geometry.js';

/** An MD2 with its frame-name clips; `name` names its one part (the file's name). */
export function md2Playable(model: Md2Model, name: string): PlayableModel {
  const clips: RangeClip[] = model.clips.map((c) => ({
    name: c.name || `frames ${c.firstFrame}–${c.firstFrame + c.frameCount - 1}`,
    firstFrame: c.firstFrame,
    frameCount: c.frameCount,
    frameRate: MD2_DEFAULT_FPS,
    closesOnLastFrame: false,
  }));
  const welded = md2Unwelded(model);
  const indices = Uint32Array.from(welded.indices);
  const parts: PlayablePart[] = [{ name, firstIndex: 0, indexCount: indices.length }];
  return {
    format: 'md2',
    vertexCount: welded.sourceVertex.length,
    indices,
    parts,
    clips,
    summary: `MD2: ${model.frameCount} frames, ${model.vertexCount} vertices, ${model.triangleCount} triangles, ${clips.length} clips`,
    uvs: welded.uvs,
    materials: [],
    textureWarnings: [],
    model,
    createPlayer: (backend: PoseBackend) => unweldedPlayer(morphPlayer(new Md2Poser(backend, model), clips), welded.sourceVertex),
  };
}

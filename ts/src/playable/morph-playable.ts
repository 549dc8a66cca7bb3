/**
 * The vertex-animated formats as playable models. MD2: one part, its frame-name clips (`stand`, `run`, …) at
 * Quake 2's 10 fps. MD3: one part per surface, all frames as one clip at 15 fps (a single .md3 carries no
 * clip table; Quake 3 keeps that in a player's animation.cfg). Both blend the last frame of a clip back into
 * its first, as the posers' `clipBlend` does.
 */
import { parseMd2Stream } from '../formats/md2/stream.js';
import { parseMd3Stream } from '../formats/md3/stream.js';
import type { PoseBackend } from '../kernels/backend.js';
import { MD2_DEFAULT_FPS, MD3_DEFAULT_FPS } from '../pose/timing.js';
import { Md2Poser } from '../pose/md2-poser.js';
import { Md3Poser } from '../pose/md3-poser.js';
import { partsBackToBack, poserPlayer, type Clip, type FormatOpener, type ModelPlayer, type PlayablePart } from './playable.js';

/** A frame-range clip as the player sees it, with where its frames start in the model. */
interface RangeClip extends Clip {
  firstFrame: number;
}

/** A player over a poser that blends absolute frame numbers; clip-local frames are offset by the clip's first. */
function morphPlayer(poser: Md2Poser | Md3Poser, clips: RangeClip[]): ModelPlayer {
  let first = clips[0]?.firstFrame ?? 0;
  return poserPlayer(poser, {
    setClip(index: number) {
      first = clips[index]?.firstFrame ?? 0;
    },
    poseBlend(frame1: number, frame2: number, t: number) {
      poser.poseBlend(first + frame1, first + frame2, t);
    },
  });
}

export const openMd2: FormatOpener = async ([file], stream) => {
  const model = await parseMd2Stream(stream(file));
  const clips: RangeClip[] = model.clips.map((c) => ({
    name: c.name || `frames ${c.firstFrame}–${c.firstFrame + c.frameCount - 1}`,
    firstFrame: c.firstFrame,
    frameCount: c.frameCount,
    frameRate: MD2_DEFAULT_FPS,
    closesOnLastFrame: false,
  }));
  const indices = Uint32Array.from(model.trianglePositionIndices);
  const parts: PlayablePart[] = [{ name: file.name, firstIndex: 0, indexCount: indices.length }];
  return {
    format: 'md2',
    vertexCount: model.vertexCount,
    indices,
    parts,
    clips,
    summary: `MD2: ${model.frameCount} frames, ${model.vertexCount} vertices, ${model.triangleCount} triangles, ${clips.length} clips`,
    createPlayer: (backend: PoseBackend) => morphPlayer(new Md2Poser(backend, model), clips),
  };
};

export const openMd3: FormatOpener = async ([file], stream) => {
  const model = await parseMd3Stream(stream(file));
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
    createPlayer: (backend: PoseBackend) => morphPlayer(new Md3Poser(backend, model), clips),
  };
};

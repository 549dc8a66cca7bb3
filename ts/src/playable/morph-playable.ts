/**
 * The vertex-animated formats as playable models. MD2: one part, its frame-name clips (`stand`, `run`, …) at
 * Quake 2's 10 fps. MD3: one part per surface, all frames as one clip at 15 fps (a single .md3 carries no
 * clip table; Quake 3 keeps that in a player's animation.cfg). Both blend the last frame of a clip back into
 * its first, as the posers' `clipBlend` does.
 */
import { md2Unwelded } from '../formats/md2/geometry.js';
import type { Md2Model, Md3Model } from '../base/model.js';
import type { PoseBackend } from '../kernels/backend.js';
import { MD2_DEFAULT_FPS, MD3_DEFAULT_FPS } from '../pose/timing.js';
import { Md2Poser } from '../pose/md2-poser.js';
import { Md3Poser } from '../pose/md3-poser.js';
import { concatUvs, partsBackToBack, poserPlayer, type Clip, type ModelPlayer, type PlayableModel, type PlayablePart } from './playable.js';

/** A frame-range clip as the player sees it, with where its frames start in the model. */
export interface RangeClip extends Clip {
  firstFrame: number;
}

/** A player over a poser that blends absolute frame numbers; clip-local frames are offset by the clip's first. */
export function morphPlayer(poser: Md2Poser | Md3Poser, clips: RangeClip[]): ModelPlayer {
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

/**
 * An MD2 player over its (position, texture coordinate) vertices: MD2 stores texture coordinates per triangle corner,
 * so the drawn vertices are the file's corners welded (md2Unwelded), each taking its position and normal from the
 * posed vertex `source[i]`. The poser still decodes num_xyz vertices; the gather after each pose is one copy.
 */
export function unweldedPlayer(player: ModelPlayer, source: Uint16Array): ModelPlayer {
  const positions = new Float32Array(source.length * 3);
  const normals = new Float32Array(source.length * 3);
  const gather = () => {
    const p = player.positions, n = player.normals;
    for (let i = 0; i < source.length; i++) {
      const s = source[i] * 3, d = i * 3;
      positions[d] = p[s]; positions[d + 1] = p[s + 1]; positions[d + 2] = p[s + 2];
      normals[d] = n[s]; normals[d + 1] = n[s + 1]; normals[d + 2] = n[s + 2];
    }
  };
  return {
    backend: player.backend,
    setClip: (index) => player.setClip(index),
    poseBlend(frame1, frame2, t) {
      player.poseBlend(frame1, frame2, t);
      gather();
    },
    positions,
    normals,
    dispose: () => player.dispose(),
  };
}

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

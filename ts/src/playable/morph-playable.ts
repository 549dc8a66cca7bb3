/**
 * What the vertex-animated formats' playable forms share (`formats/md2/playable.ts`, `formats/md3/playable.ts`, MDL's):
 * a player over a poser of absolute frame numbers, clips as frame ranges, and the gather of welded corners.
 */
import type { Md2Poser } from '../pose/md2-poser.js';
import type { Md3Poser } from '../pose/md3-poser.js';
import { poserPlayer, type Clip, type ModelPlayer } from './playable.js';

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


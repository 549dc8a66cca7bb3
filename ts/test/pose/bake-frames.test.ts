/**
 * `Md5Poser.bakeFrames` poses up to 16 frames together and skins them block by block over the stream (the stream
 * read once per 16 frames, not once per frame): on a generated model of 20,000 vertices (more than one 8,192-vertex
 * block), every backend and both output orders, a 40-frame bake (three batches of poses, frames out of order and
 * repeated) writes exactly the floats `poseFrame` writes frame by frame. `bakeFramesInto` writes the same into the
 * caller's array at an offset, and refuses one too short.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Md5Anim, Md5Mesh } from '../../src/base/model.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { syntheticModel } from '../../../bench/synthetic.mjs';

const { mesh, anim } = syntheticModel({ vertices: 20_000, joints: 30, frames: 12, seed: 11 }) as { mesh: Md5Mesh; anim: Md5Anim };
const frames = Array.from({ length: 40 }, (_, i) => (i * 5 + 3) % anim.frameCount);

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [await createWasmBackend('simd'), await createWasmBackend('scalar'), createTsBackend()];
});

/** Index of the first float whose bits differ, −1 when none does. */
function firstDifference(a: Float32Array, b: Float32Array): number {
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length), ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  if (ua.length !== ub.length) return Math.min(ua.length, ub.length);
  for (let i = 0; i < ua.length; i++) if (ua[i] !== ub[i]) return i;
  return -1;
}

describe('bakeFrames: frames posed together, skinned block by block', () => {
  for (const order of ['file', 'grouped'] as const) {
    it(`every backend, ${order} order: a 40-frame bake equals poseFrame frame by frame, bit for bit`, () => {
      for (const backend of backends) {
        const p = new Md5Poser(backend, mesh, { order });
        try {
          p.setAnim(anim);
          const span = p.vertexCount * 3;
          const expected = new Float32Array(frames.length * span);
          frames.forEach((f, i) => expected.set(p.poseFrame(f, false).positions, i * span));
          expect(firstDifference(p.bakeFrames(frames), expected), `${backend.name} bakeFrames`).toBe(-1);
          const into = new Float32Array(7 + frames.length * span).fill(-1);
          expect(p.bakeFramesInto(frames, into, 7)).toBe(into);
          expect(firstDifference(into.subarray(7), expected), `${backend.name} bakeFramesInto`).toBe(-1);
          expect(into.subarray(0, 7).every((x) => x === -1)).toBe(true);
          expect(() => p.bakeFramesInto(frames, into, 8)).toThrow(RangeError);
          expect(() => p.bakeFramesInto([anim.frameCount], into)).toThrow(RangeError);
        } finally {
          p.dispose();
        }
      }
    });
  }
});

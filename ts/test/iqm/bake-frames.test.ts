/**
 * `IqmPoser.bakeFrames` (one `iqmSkinFrames` call for a run of frames) writes, on every backend, exactly the positions
 * `poseFrame` gives frame by frame — on Red Eclipse's actors (a mesh with its own frames, a mesh playing an
 * animation-only file) and on random generated models (fast-check, a fixed number of runs, byte and float weights);
 * WASM SIMD and scalar bake the same floats, TS within float32 rounding (as kernel-parity.test.ts); bad frames and a
 * short output are refused, the output untouched.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IqmModel } from '../../src/base/model.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { IqmPoser } from '../../src/pose/iqm-poser.js';
import { syntheticIqmModel } from '../../../bench/synthetic-iqm.mjs';
import { animationPairs, iqmFile } from './_corpus.js';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [await createWasmBackend('simd'), await createWasmBackend('scalar'), createTsBackend()];
});
afterAll(() => backends.forEach((b) => b.dispose()));

/** `poseFrame` frame after frame, each copied out: the reference. */
function oneByOne(p: IqmPoser, frames: number[]): Float32Array {
  const span = p.vertexCount * 3, out = new Float32Array(frames.length * span);
  frames.forEach((f, i) => out.set(p.poseFrame(f).positions, i * span));
  return out;
}

/** Baked and one-by-one positions of `frames` on `backend` (positions only for the bake, as the pool's workers). */
function bakeAndReference(backend: PoseBackend, mesh: IqmModel, animation: IqmModel, frames: number[]) {
  const baker = new IqmPoser(backend, mesh, { normals: false });
  const poser = new IqmPoser(backend, mesh);
  try {
    baker.setAnimation(animation);
    poser.setAnimation(animation);
    return { baked: baker.bakeFrames(frames).slice(), ref: oneByOne(poser, frames) };
  } finally {
    baker.dispose();
    poser.dispose();
  }
}

function relDiff(a: Float32Array, b: Float32Array): number {
  let scale = 1, worst = 0;
  for (let i = 0; i < b.length; i++) scale = Math.max(scale, Math.abs(b[i]));
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / scale);
  return worst;
}

const shuffled = (n: number) => Array.from({ length: Math.min(2 * n, 24) }, (_, i) => (i * 7 + 3) % n).concat([0, n - 1]);

describe('IqmPoser.bakeFrames on Red Eclipse actors', () => {
  // A mesh playing an animation-only file (Red Eclipse's player) and the first actor with frames of its own.
  const own = animationPairs().find((p) => p.mesh === p.anim);
  const pairs = [['player/male/RE_Player_male.iqm', 'player/runcycle0.iqm'], ...(own ? [[own.mesh.path, own.anim.path]] : [])];
  it('the corpus has an actor with frames of its own', () => expect(own).toBeDefined());
  for (const [meshPath, animPath] of pairs) {
    it(`${meshPath} playing ${animPath}: every backend bakes what poseFrame poses, bit for bit; WASM == WASM, TS close`, () => {
      const mesh = iqmFile(meshPath).model, anim = iqmFile(animPath).model;
      const frames = shuffled(anim.frameCount);
      const results = backends.map((b) => bakeAndReference(b, mesh, anim, frames));
      for (const { baked, ref } of results) {
        expect(baked.length).toBe(frames.length * mesh.vertexCount * 3);
        expect(baked).toEqual(ref);
      }
      expect(results[0].baked).toEqual(results[1].baked);
      expect(relDiff(results[0].baked, results[2].baked)).toBeLessThan(1e-4);
      // The run cycle moves the player off its bind pose.
      if (animPath.includes('runcycle')) expect(relDiff(results[0].baked.subarray(0, mesh.vertexCount * 3), mesh.positions!)).toBeGreaterThan(1e-3);
    });
  }
});

describe('IqmPoser.bakeFrames on random models', () => {
  it('equals poseFrame frame by frame on every backend; WASM SIMD == scalar, TS within float32 rounding', () => {
    const arb = fc
      .record({ vertices: fc.integer({ min: 1, max: 300 }), joints: fc.integer({ min: 1, max: 30 }), frames: fc.integer({ min: 1, max: 6 }), seed: fc.integer({ min: 1, max: 1 << 30 }), floatWeights: fc.boolean() })
      .chain((shape) => fc.record({ shape: fc.constant(shape), order: fc.array(fc.nat(shape.frames - 1), { minLength: 0, maxLength: 12 }) }));
    fc.assert(
      fc.property(arb, ({ shape, order }) => {
        const model = syntheticIqmModel(shape) as IqmModel;
        const results = backends.map((b) => bakeAndReference(b, model, model, order));
        for (const { baked, ref } of results) expect(baked).toEqual(ref);
        expect(results[0].baked).toEqual(results[1].baked);
        expect(relDiff(results[0].baked, results[2].baked)).toBeLessThan(1e-4);
      }),
      { numRuns: 40, seed: 31 },
    );
  });
});

describe('IqmPoser.bakeFramesInto', () => {
  it('bakes into memory the caller owns at an offset, and refuses bad frames and a short output', () => {
    const model = syntheticIqmModel({ vertices: 50, joints: 6, frames: 4, seed: 5 }) as IqmModel;
    for (const backend of backends) {
      const p = new IqmPoser(backend, model);
      try {
        const span = p.vertexCount * 3, frames = [3, 1, 1, 0];
        const into = new Float32Array(7 + frames.length * span).fill(-7);
        expect(p.bakeFramesInto(frames, into, 7)).toBe(into);
        expect(into.subarray(0, 7).every((x) => x === -7)).toBe(true);
        expect(into.subarray(7)).toEqual(oneByOne(p, frames));
        const before = into.slice();
        expect(() => p.bakeFramesInto([0, 4], into)).toThrow(RangeError);
        expect(() => p.bakeFramesInto([0.5], into)).toThrow(RangeError);
        expect(() => p.bakeFramesInto(frames, into, 8)).toThrow(/need/);
        expect(into).toEqual(before);
        p.setAnimation(null);
        expect(() => p.bakeFrames([0])).toThrow(/setAnimation/);
      } finally {
        p.dispose();
      }
    }
  });
});

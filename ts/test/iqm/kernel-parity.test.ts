/**
 * Randomised skeletons, channel masks, frames and vertices (fast-check, a fixed number of runs): the IQM kernels —
 * bind matrices, ComputePoseMats, linear blend skinning with byte or float weights — give the same results on WASM
 * SIMD, WASM scalar (bit for bit: the SIMD form computes the scalar form's floats) and TS (float64 arithmetic: within
 * a tolerance). And every backend refuses the same bad jobs.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { IQM_BIND_STRIDE, IQM_CHANNELS, LBS_MATRIX_STRIDE } from '../../src/kernels/layout.js';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [await createWasmBackend('simd'), await createWasmBackend('scalar'), createTsBackend()];
});
afterAll(() => backends.forEach((b) => b.dispose()));

const f32 = (lo: number, hi: number) => fc.float({ min: Math.fround(lo), max: Math.fround(hi), noNaN: true, noDefaultInfinity: true });

/** A unit vector (a zero draw becomes +z). */
const unit = fc.tuple(f32(-1, 1), f32(-1, 1), f32(-1, 1)).map(([x, y, z]) => {
  const n = Math.hypot(x, y, z);
  return n > 1e-3 ? [x / n, y / n, z / n] : [0, 0, 1];
});

const caseArb = fc
  .record({ joints: fc.integer({ min: 1, max: 20 }), vertices: fc.integer({ min: 1, max: 70 }), frames: fc.integer({ min: 1, max: 4 }), floatWeights: fc.boolean() })
  .chain(({ joints, vertices, frames, floatWeights }) =>
    fc.record({
      joints: fc.constant(joints),
      frames: fc.constant(frames),
      floatWeights: fc.constant(floatWeights),
      parents: fc.tuple(...Array.from({ length: joints }, (_, j) => fc.integer({ min: -1, max: j - 1 }))),
      translate: fc.array(f32(-20, 20), { minLength: joints * 3, maxLength: joints * 3 }),
      rotate: fc.array(f32(-1, 1), { minLength: joints * 4, maxLength: joints * 4 }),
      scale: fc.array(f32(0.5, 2), { minLength: joints * 3, maxLength: joints * 3 }),
      masks: fc.array(fc.integer({ min: 0, max: 0x3ff }), { minLength: joints, maxLength: joints }),
      // translate and rotate channels anywhere, scale channels away from 0
      offsets: fc.array(fc.tuple(f32(-2, 2), f32(-2, 2), f32(-2, 2), f32(-1, 1), f32(-1, 1), f32(-1, 1), f32(-1, 1), f32(0.5, 2), f32(0.5, 2), f32(0.5, 2)), { minLength: joints, maxLength: joints }).map((a) => a.flat()),
      scales: fc.array(f32(-1e-4, 1e-4), { minLength: joints * 10, maxLength: joints * 10 }),
      seed: fc.integer({ min: 1, max: 1 << 30 }),
      positions: fc.array(f32(-30, 30), { minLength: vertices * 3, maxLength: vertices * 3 }),
      normals: fc.array(unit, { minLength: vertices, maxLength: vertices }).map((a) => a.flat()),
      tangents: fc.array(fc.tuple(unit, fc.constantFrom(-1, 1)), { minLength: vertices, maxLength: vertices }).map((a) => a.flatMap(([v, w]) => [...v, w])),
      indices: fc.array(fc.integer({ min: 0, max: joints + 2 }), { minLength: vertices * 4, maxLength: vertices * 4 }),
      weights: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: vertices * 4, maxLength: vertices * 4 }),
      a: fc.nat(frames - 1),
      b: fc.nat(frames - 1),
      t: f32(0, 1),
    }),
  );
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

/** Runs the three kernels of `c` on `backend`: skinning matrices and skinned outputs. */
function run(backend: PoseBackend, c: Case) {
  const m = backend.memory, k = backend.kernels;
  const J = c.joints, V = c.positions.length / 3;
  const channels = c.masks.reduce((n, mask) => n + [...Array(10).keys()].filter((b) => mask & (1 << b)).length, 0);
  let s = c.seed;
  const frames = m.u16(c.frames * channels);
  const fill = <T extends { view: ArrayLike<number> & { set(a: ArrayLike<number>): void } }>(b: T, a: ArrayLike<number>) => (b.view.set(a), b);
  const parents = fill(m.i32(J), c.parents), translate = fill(m.f32(J * 3), c.translate), rotate = fill(m.f32(J * 4), c.rotate), scale = fill(m.f32(J * 3), c.scale);
  const bind = m.f32(J * IQM_BIND_STRIDE), invBind = m.f32(J * IQM_BIND_STRIDE);
  const masks = fill(m.u32(J), c.masks), offsets = fill(m.f32(J * 10), c.offsets), scales = fill(m.f32(J * 10), c.scales);
  frames.view.set(Array.from({ length: c.frames * channels }, () => ((s = (s * 1103515245 + 12345) >>> 0) >>> 16)));
  const scratch = m.f32(2 * J * IQM_CHANNELS), out = m.f32(J * LBS_MATRIX_STRIDE);
  const positions = fill(m.f32(V * 3), c.positions), normals = fill(m.f32(V * 3), c.normals), tangents = fill(m.f32(V * 4), c.tangents);
  const indices = fill(m.u8(V * 4), c.indices);
  const weightsU8 = c.floatWeights ? null : fill(m.u8(V * 4), c.weights);
  const weightsF32 = c.floatWeights ? fill(m.f32(V * 4), c.weights.map((w) => w / 300)) : null;
  const outPositions = m.f32(V * 3), outNormals = m.f32(V * 3), outTangents = m.f32(V * 4);
  k.iqmBind({ parents, translate, rotate, scale, bind, invBind });
  k.iqmPose({ parents, masks, offsets, scales, frames, frameCount: c.frames, frameChannels: channels, bind, invBind, scratch, out, frameA: c.a, frameB: c.b, t: c.t });
  k.lbsSkin({ matrices: out, positions, normals, tangents, indices, weightsU8, weightsF32, outPositions, outNormals, outTangents });
  const result = { bind: bind.view.slice(), matrices: out.view.slice(), positions: outPositions.view.slice(), normals: outNormals.view.slice(), tangents: outTangents.view.slice() };
  for (const b of [frames, parents, translate, rotate, scale, bind, invBind, masks, offsets, scales, scratch, out, positions, normals, tangents, indices, outPositions, outNormals, outTangents]) m.release(b);
  if (weightsU8) m.release(weightsU8);
  if (weightsF32) m.release(weightsF32);
  return result;
}

function relDiff(a: Float32Array, b: Float32Array, scale: number): number {
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]) / scale);
  return worst;
}

describe('IQM kernels on random inputs', () => {
  it('WASM SIMD and scalar write the same floats, and TS agrees within float32 rounding', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const [simd, scalar, ts] = backends.map((b) => run(b, c));
        expect(simd).toEqual(scalar);
        const mScale = Math.max(1, ...Array.from(ts.matrices, Math.abs));
        expect(relDiff(simd.bind, ts.bind, mScale)).toBeLessThan(1e-4);
        expect(relDiff(simd.matrices, ts.matrices, mScale)).toBeLessThan(1e-4);
        const pScale = Math.max(1, ...Array.from(ts.positions, Math.abs));
        expect(relDiff(simd.positions, ts.positions, pScale)).toBeLessThan(1e-4);
        // unit vectors, compared where both came out unit length: blending opposed joints can make the matrix
        // near-singular, where float32 cofactors underflow to a zero vector that float64 still normalises
        let compared = 0, total = 0;
        for (const key of ['normals', 'tangents'] as const) {
          const stride = key === 'normals' ? 3 : 4;
          for (let v = 0; v < ts[key].length / stride; v++) {
            const [a, b] = [simd[key], ts[key]].map((x) => [x[v * stride], x[v * stride + 1], x[v * stride + 2]]);
            total++;
            if (Math.hypot(...a) < 0.99 || Math.hypot(...b) < 0.99) continue;
            compared++;
            expect(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]).toBeGreaterThan(1 - 1e-3);
          }
        }
        expect(compared).toBeGreaterThan(total * 0.5);
      }),
      { numRuns: 150, seed: 31 },
    );
  });

  it('byte weights b and float weights b / 255 (stored float32) skin to the same floats, for every byte value', () => {
    for (const backend of backends) {
      const m = backend.memory;
      const bytes = m.u8(256 * 4), floats = m.f32(256 * 4), positions = m.f32(256 * 3), indices = m.u8(256 * 4), mats = m.f32(32), a = m.f32(256 * 3), b = m.f32(256 * 3);
      mats.view.set([1.3, 0.2, -0.4, 0, 0.1, 0.7, 0.1, 0, 0.3, -0.2, 1.9, 0, 3, 4, 5, 1, 0.9, 0, 0, 0, 0, 1.1, 0, 0, 0, 0, 0.8, 0, -2, 1, 0.5, 1]);
      for (let v = 0; v < 256; v++) {
        bytes.view.set([v, 255 - v, 0, 0], v * 4);
        floats.view.set([v / 255, (255 - v) / 255, 0, 0], v * 4);
        indices.view.set([0, 1, 0, 0], v * 4);
        positions.view.set([1.7, -0.3, 2.9], v * 3);
      }
      const job = { matrices: mats, positions, normals: null, tangents: null, indices, outNormals: null, outTangents: null };
      backend.kernels.lbsSkin({ ...job, weightsU8: bytes, weightsF32: null, outPositions: a });
      backend.kernels.lbsSkin({ ...job, weightsU8: null, weightsF32: floats, outPositions: b });
      expect(Array.from(a.view), backend.name).toEqual(Array.from(b.view));
    }
  });

  it('every backend refuses a frame past the frames, a short output and names a weighted index past the joints', () => {
    for (const backend of backends) {
      const m = backend.memory, k = backend.kernels;
      const parents = m.i32(2), masks = m.u32(2), offsets = m.f32(20), scales = m.f32(20), frames = m.u16(4), bind = m.f32(24), invBind = m.f32(24), scratch = m.f32(40), out = m.f32(32);
      masks.view.set([3, 0]);
      parents.view.set([-1, 0]);
      const job = { parents, masks, offsets, scales, frames, frameCount: 2, frameChannels: 2, bind, invBind, scratch, out, frameA: 0, frameB: 1, t: 0.5 };
      expect(() => k.iqmPose(job)).not.toThrow();
      expect(() => k.iqmPose({ ...job, frameB: 2 }), backend.name).toThrow(RangeError);
      expect(() => k.iqmPose({ ...job, out: m.f32(31) }), backend.name).toThrow(RangeError);
      expect(() => k.iqmPose({ ...job, frameChannels: 1 }), backend.name).toThrow(RangeError); // masks take 2 a frame
      const indices = m.u8(8), w = m.u8(8);
      indices.view.set([0, 1, 7, 0, 1, 0, 0, 0]);
      w.view.set([200, 55, 0, 0, 255, 0, 0, 0]);
      expect(k.validateLbs({ jointCount: 2, indices, weightsU8: w, weightsF32: null }), backend.name).toBe(-1);
      w.view.set([200, 50, 5, 0, 255, 0, 0, 0]);
      expect(k.validateLbs({ jointCount: 2, indices, weightsU8: w, weightsF32: null }), backend.name).toBe(2);
      const positions = m.f32(6), outPositions = m.f32(6);
      expect(() => k.lbsSkin({ matrices: out, positions, normals: null, tangents: null, indices, weightsU8: m.u8(7), weightsF32: null, outPositions, outNormals: null, outTangents: null }), backend.name).toThrow(RangeError);
      expect(() => k.lbsSkin({ matrices: m.f32(15), positions, normals: null, tangents: null, indices, weightsU8: w, weightsF32: null, outPositions, outNormals: null, outTangents: null }), backend.name).toThrow(RangeError);
      // an unvalidated index past the joints is clamped: the kernel reads only its buffers
      expect(() => k.lbsSkin({ matrices: out, positions, normals: null, tangents: null, indices, weightsU8: w, weightsF32: null, outPositions, outNormals: null, outTangents: null })).not.toThrow();
    }
  });
});

/**
 * The SIMD128 skinning kernel's entry pass over `dest` (16 pairs a step, then a scalar tail) decides whether quads of
 * consecutive slots may be stored whole. One descent anywhere inside a group, at every position of streams long and
 * short enough to land in the vector steps, the tail and the step boundary, must turn that off: the result always
 * equals the TS backend's. A slot of 2^31 or more (where the pass's signed compare would miscount) is refused.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PoseBackend, SkinJob } from '../../src/kernels/backend.js';
import { MATRIX_STRIDE, WEIGHT_STRIDE } from '../../src/kernels/layout.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend, wasmSimdSupported } from '../../src/kernels/wasm-backend.js';

const J = 3;
let wasm: PoseBackend[];
beforeAll(async () => {
  wasm = [...(wasmSimdSupported() ? [await createWasmBackend('simd')] : []), await createWasmBackend('scalar')];
});

function job(b: PoseBackend, groups: number[], dest: number[]): SkinJob {
  const m = b.memory, V = dest.length, W = groups.reduce((s, n, g) => s + n * (g + 1), 0);
  const j: SkinJob = { matrices: m.f32(J * MATRIX_STRIDE), groupSizes: m.u32(groups.length), joints: m.u32(W), weights: m.f32(W * WEIGHT_STRIDE), dest: m.u32(V), out: m.f32(V * 3) };
  j.matrices.view.set(Float32Array.from({ length: J * MATRIX_STRIDE }, (_, i) => Math.sin(i * 0.9 + 1)));
  j.groupSizes.view.set(groups);
  j.joints.view.set(Uint32Array.from({ length: W }, (_, i) => (i * 7) % J));
  j.weights.view.set(Float32Array.from({ length: W * WEIGHT_STRIDE }, (_, i) => Math.cos(i * 0.37)));
  j.dest!.view.set(dest);
  return j;
}

function same(b: PoseBackend, groups: number[], dest: number[]) {
  const w = job(b, groups, dest), t = job(createTsBackend(), groups, dest);
  b.kernels.skinPositions(w);
  createTsBackend().kernels.skinPositions(t);
  const a = w.out.view, e = t.out.view;
  expect(e.every((v, i) => Math.abs(a[i] - v) < 1e-5 * Math.max(1, Math.abs(v)))).toBe(true);
}

describe('the dest entry pass of the skinning kernels', () => {
  it('sees one descent at any position, in one group and across groups', () => {
    for (const b of wasm) {
      for (const V of [5, 16, 17, 18, 33, 40, 70]) {
        const rising = Array.from({ length: V }, (_, i) => i);
        same(b, [V], rising);
        for (let k = 0; k + 1 < V; k++) {
          const d = rising.slice();
          [d[k], d[k + 1]] = [d[k + 1], d[k]];
          same(b, [V], d);
          same(b, [Math.floor(V / 2), V - Math.floor(V / 2)], d);
        }
      }
    }
  });

  it('refuses a slot of 2^31 or more (SIMD128), whatever the compare counted', () => {
    const simd = wasm.filter((b) => b.name === 'wasm-simd');
    for (const b of simd) {
      for (const big of [0x80000000, 0xfffffffe, 0xffffffff]) {
        for (const k of [0, 7, 20, 39]) {
          const d = Array.from({ length: 40 }, (_, i) => i);
          d[k] = big;
          expect(() => b.kernels.skinPositions(job(b, [40], d))).toThrow(RangeError);
        }
      }
    }
  });
});

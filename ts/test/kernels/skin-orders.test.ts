/**
 * The skinning kernels on every output order a stream can ask for, WASM (SIMD128 and scalar) against TS: the grouped
 * order, file order with runs of consecutive slots (what `buildSkinStream` writes: the SIMD128 kernel stores such
 * quads whole), file order without runs (a shuffled permutation) and with gaps; and a bad index never followed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelBuffer, PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend, wasmSimdSupported } from '../../src/kernels/wasm-backend.js';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [createTsBackend(), ...(wasmSimdSupported() ? [await createWasmBackend('simd')] : []), await createWasmBackend('scalar')];
});

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 4294967296;
  };
}

/** A random stream: `groupSizes[c − 1]` vertices of c weights over `jointCount` joints. */
function stream(seed: number, groupSizes: number[], jointCount: number) {
  const r = rng(seed);
  const vertices = groupSizes.reduce((a, b) => a + b, 0);
  const total = groupSizes.reduce((a, n, g) => a + n * (g + 1), 0);
  return {
    vertices,
    matrices: Float32Array.from({ length: jointCount * 16 }, (_, i) => (i % 16 < 12 ? r() * 2 - 1 : 0)),
    groupSizes: Uint32Array.from(groupSizes),
    joints: Uint32Array.from({ length: total }, () => Math.floor(r() * jointCount)),
    weights: Float32Array.from({ length: total * 4 }, () => r() * 2 - 1),
  };
}

/** File slots rising inside every group, each group a few runs of consecutive slots (as real models have). */
function runsDest(groupSizes: number[], seed: number): Uint32Array {
  const r = rng(seed);
  const owner: number[] = [];
  groupSizes.forEach((n, g) => { for (let i = 0; i < n; i++) owner.push(g); });
  // Shuffle runs of 1–9 vertices of one group at a time into file order.
  const left = [...groupSizes];
  const order: number[] = [];
  while (order.length < owner.length) {
    const g = Math.floor(r() * left.length);
    const n = Math.min(left[g], 1 + Math.floor(r() * 9));
    for (let i = 0; i < n; i++) order.push(g);
    left[g] -= n;
  }
  const next = groupSizes.map((_, g) => groupSizes.slice(0, g).reduce((a, b) => a + b, 0));
  const dest = new Uint32Array(owner.length);
  order.forEach((g, slot) => { dest[next[g]++] = slot; });
  return dest;
}

/** The middle two slots of every quad of every group swapped: a permutation that no longer rises inside its groups. */
function swapMiddles(dest: Uint32Array, groupSizes: number[]): Uint32Array {
  let v = 0;
  for (const n of groupSizes) {
    for (let q = v; q + 4 <= v + n; q += 4) [dest[q + 1], dest[q + 2]] = [dest[q + 2], dest[q + 1]];
    v += n;
  }
  return dest;
}

function skin(b: PoseBackend, s: ReturnType<typeof stream>, dest: Uint32Array | null, outFloats: number): Float32Array {
  const m = b.memory;
  const put = <T extends Float32Array | Uint32Array>(make: (n: number) => KernelBuffer<T>, a: T) => { const x = make(a.length); x.view.set(a); return x; };
  const job = {
    matrices: put(m.f32, s.matrices),
    groupSizes: put(m.u32, s.groupSizes),
    joints: put(m.u32, s.joints),
    weights: put(m.f32, s.weights),
    dest: dest ? put(m.u32, dest) : null,
    out: put(m.f32, new Float32Array(outFloats).fill(7)),
  };
  try {
    b.kernels.skinPositions(job);
    return job.out.view.slice();
  } finally {
    for (const x of Object.values(job)) if (x) m.release(x);
  }
}

const groups = [[37, 22, 9, 5, 3, 2, 1, 2], [400, 90, 13], [4, 4, 4, 4], [1, 0, 0, 7]];

describe('skinning output orders: WASM equals TS', () => {
  for (const [i, g] of groups.entries()) {
    it(`groups ${g.join(' ')}`, () => {
      const s = stream(100 + i, g, 5 + i);
      const n = s.vertices;
      const shuffled = Uint32Array.from({ length: n }, (_, k) => k);
      const r = rng(7 + i);
      for (let k = n - 1; k > 0; k--) { const j = Math.floor(r() * (k + 1)); [shuffled[k], shuffled[j]] = [shuffled[j], shuffled[k]]; }
      const orders: [string, Uint32Array | null, number][] = [
        ['grouped', null, n * 3],
        ['file order with runs', runsDest(g, 3 + i), n * 3],
        ['shuffled', shuffled, n * 3],
        ['runs with the middle two of each quad swapped (first and last slots 3 apart, not in order)', swapMiddles(runsDest(g, 3 + i), g), n * 3],
        ['runs into a larger output, with gaps', runsDest(g, 5 + i).map((d) => d * 2 + 1), n * 6 + 3],
      ];
      for (const [what, dest, floats] of orders) {
        const [ref, ...rest] = backends.map((b) => skin(b, s, dest, floats));
        for (const [k, out] of rest.entries()) {
          for (let f = 0; f < floats; f++) {
            if (Math.abs(out[f] - ref[f]) > 1e-5) expect.fail(`${backends[k + 1].name}, ${what}: float ${f} is ${out[f]}, TS ${ref[f]}`);
          }
        }
      }
    });
  }

  it('an index out of range is refused or clamped by WASM, never followed outside the buffers', () => {
    const s = stream(9, [50, 30], 4); // 110 weights: the entry check's vector steps and its tail
    const badJoint = (k: number) => ({ ...s, joints: s.joints.map((j, i) => (i === k ? 1000 : j)) });
    const identity = Uint32Array.from({ length: s.vertices }, (_, i) => i);
    const badDest = (k: number) => identity.map((d, i) => (i === k ? 99 : d));
    for (const b of backends.filter((x) => x.name !== 'ts')) {
      const jobs = [badJoint(40), badJoint(109), s, s];
      const dests = [null, identity, badDest(37), badDest(79)];
      for (const [k, t] of jobs.entries()) {
        try {
          const out = skin(b, t, dests[k], s.vertices * 3);
          expect(b.name, 'only the scalar build clamps').toBe('wasm-scalar');
          expect(out.every(Number.isFinite)).toBe(true);
        } catch (e) {
          expect(b.name, 'only the SIMD128 build refuses').toBe('wasm-simd');
          expect(e).toBeInstanceOf(RangeError);
        }
      }
    }
  });
});

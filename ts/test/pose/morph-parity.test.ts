/**
 * MD2/MD3 vertex animation: WASM SIMD build, WASM scalar build and TS agree on random quantised frames,
 * random blends and random output offsets (fast-check), and all three agree with a direct float64 decode
 * written here from GROUND-TRUTH.md (position = byte·scale + translate or int16/64; MD3 normal from lat/lng).
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { MD2_NORMALS } from '../../src/kernels/quake-normals.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { Md2Poser } from '../../src/pose/md2-poser.js';
import { Md3Poser } from '../../src/pose/md3-poser.js';
import { clipBlend } from '../../src/pose/timing.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [createTsBackend(), await createWasmBackend('simd'), await createWasmBackend('scalar')];
});

const SEED = 20261121;
const f32 = (lo: number, hi: number) => fc.float({ min: Math.fround(lo), max: Math.fround(hi), noNaN: true, noDefaultInfinity: true });

const md2Arb = fc.record({ vertexCount: fc.integer({ min: 1, max: 300 }), frameCount: fc.integer({ min: 1, max: 5 }) }).chain(({ vertexCount, frameCount }) =>
  fc.record({
    vertexCount: fc.constant(vertexCount),
    frameCount: fc.constant(frameCount),
    frameVertices: fc.uint8Array({ minLength: vertexCount * frameCount * 4, maxLength: vertexCount * frameCount * 4 }).map((b) => {
      for (let i = 3; i < b.length; i += 4) b[i] %= 162; // parsers guarantee normal indices < 162
      return b;
    }),
    frameScales: fc.array(f32(0.001, 2), { minLength: frameCount * 3, maxLength: frameCount * 3 }).map((a) => Float32Array.from(a)),
    frameTranslates: fc.array(f32(-200, 200), { minLength: frameCount * 3, maxLength: frameCount * 3 }).map((a) => Float32Array.from(a)),
    frameA: fc.integer({ min: 0, max: frameCount - 1 }),
    frameB: fc.integer({ min: 0, max: frameCount - 1 }),
    t: fc.oneof(fc.constant(0), fc.constant(1), f32(0, 1)),
  }),
);

/** Float64 MD2 reference: lerp of the two decoded frames, normal lerped and renormalised. */
function md2Reference(m: { vertexCount: number; frameVertices: Uint8Array; frameScales: Float32Array; frameTranslates: Float32Array }, a: number, b: number, t: number) {
  const pos = new Float64Array(m.vertexCount * 3), nrm = new Float64Array(m.vertexCount * 3);
  for (let v = 0; v < m.vertexCount; v++) {
    const ra = (a * m.vertexCount + v) * 4, rb = (b * m.vertexCount + v) * 4;
    const n = [0, 0, 0];
    for (let c = 0; c < 3; c++) {
      const pa = m.frameVertices[ra + c] * m.frameScales[a * 3 + c] + m.frameTranslates[a * 3 + c];
      const pb = m.frameVertices[rb + c] * m.frameScales[b * 3 + c] + m.frameTranslates[b * 3 + c];
      pos[v * 3 + c] = pa + (pb - pa) * t;
      n[c] = MD2_NORMALS[m.frameVertices[ra + 3] * 3 + c] * (1 - t) + MD2_NORMALS[m.frameVertices[rb + 3] * 3 + c] * t;
    }
    const len = Math.hypot(n[0], n[1], n[2]);
    for (let c = 0; c < 3; c++) nrm[v * 3 + c] = len > 1e-6 ? n[c] / len : MD2_NORMALS[m.frameVertices[(t < 0.5 ? ra : rb) + 3] * 3 + c];
  }
  return { pos, nrm };
}

function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
  return d;
}

describe('MD2 vertex animation', () => {
  it('agrees across WASM SIMD, WASM scalar and TS, and with a float64 decode', () => {
    fc.assert(
      fc.property(md2Arb, (m) => {
        const ref = md2Reference(m, m.frameA, m.frameB, m.t);
        const scale = 1 + Math.max(...m.frameTranslates.map(Math.abs)) + 255 * Math.max(...m.frameScales);
        const outs = backends.map((be) => {
          const p = new Md2Poser(be, m).poseBlend(m.frameA, m.frameB, m.t);
          const r = { pos: p.positions.slice(), nrm: p.normals.slice() };
          p.dispose();
          return r;
        });
        for (const o of outs) {
          expect(maxDiff(o.pos, ref.pos)).toBeLessThanOrEqual(4e-7 * scale);
          expect(maxDiff(o.nrm, ref.nrm)).toBeLessThanOrEqual(2e-6);
        }
        // The SIMD128 build blends four vertices per step (the last four overlapping the step before) with the scalar
        // build's f32 operations in the scalar build's order: bit-identical, positions and normals.
        expect(maxDiff(outs[1].pos, outs[2].pos)).toBe(0);
        expect(maxDiff(outs[1].nrm, outs[2].nrm)).toBe(0);
      }),
      { numRuns: 300, seed: SEED },
    );
  });

  it('rejects a frame past the end on every backend', () => {
    const m = { vertexCount: 1, frameCount: 1, frameVertices: new Uint8Array(4), frameScales: new Float32Array(3), frameTranslates: new Float32Array(3) };
    for (const be of backends) {
      const p = new Md2Poser(be, m);
      expect(() => p.poseBlend(0, 1, 0.5)).toThrow(RangeError);
      expect(() => p.poseBlend(0, 0, 1.5)).toThrow(RangeError);
      p.dispose();
    }
  });
});

const md3Arb = fc.record({ surfaces: fc.array(fc.integer({ min: 1, max: 120 }), { minLength: 1, maxLength: 4 }), frameCount: fc.integer({ min: 1, max: 4 }) }).chain(({ surfaces, frameCount }) =>
  fc.record({
    frameCount: fc.constant(frameCount),
    surfaces: fc.tuple(
      ...surfaces.map((vertexCount) =>
        fc.record({
          vertexCount: fc.constant(vertexCount),
          triangles: fc.array(fc.integer({ min: 0, max: vertexCount - 1 }), { minLength: 3, maxLength: 3 }).map((a) => Uint32Array.from(a)),
          xyzNormals: fc.int16Array({ minLength: vertexCount * frameCount * 4, maxLength: vertexCount * frameCount * 4 }),
        }),
      ),
    ),
    frameA: fc.integer({ min: 0, max: frameCount - 1 }),
    frameB: fc.integer({ min: 0, max: frameCount - 1 }),
    t: fc.oneof(fc.constant(0), fc.constant(1), f32(0, 1)),
  }),
);

/** GROUND-TRUTH.md: lat = high byte, lng = low byte, angle = byte·2π/256, n = (cos lat sin lng, sin lat sin lng, cos lng). */
function md3Normal(packed: number): number[] {
  const lat = ((packed >> 8) & 255) * (2 * Math.PI / 256), lng = (packed & 255) * (2 * Math.PI / 256);
  return [Math.cos(lat) * Math.sin(lng), Math.sin(lat) * Math.sin(lng), Math.cos(lng)];
}

describe('MD3 vertex animation', () => {
  it('agrees across backends and with a float64 decode, surfaces back to back', () => {
    fc.assert(
      fc.property(md3Arb, (m) => {
        const total = m.surfaces.reduce((s, x) => s + x.vertexCount, 0);
        const refPos = new Float64Array(total * 3), refNrm = new Float64Array(total * 3);
        let base = 0;
        for (const s of m.surfaces) {
          for (let v = 0; v < s.vertexCount; v++) {
            const ra = (m.frameA * s.vertexCount + v) * 4, rb = (m.frameB * s.vertexCount + v) * 4;
            const na = md3Normal(s.xyzNormals[ra + 3]), nb = md3Normal(s.xyzNormals[rb + 3]);
            const n = [0, 1, 2].map((c) => na[c] * (1 - m.t) + nb[c] * m.t);
            const len = Math.hypot(...n);
            for (let c = 0; c < 3; c++) {
              refPos[(base + v) * 3 + c] = (s.xyzNormals[ra + c] / 64) * (1 - m.t) + (s.xyzNormals[rb + c] / 64) * m.t;
              refNrm[(base + v) * 3 + c] = len > 1e-6 ? n[c] / len : (m.t < 0.5 ? na : nb)[c];
            }
          }
          base += s.vertexCount;
        }
        const outs: { pos: Float32Array; nrm: Float32Array }[] = [];
        for (const be of backends) {
          const p = new Md3Poser(be, m).poseBlend(m.frameA, m.frameB, m.t);
          outs.push({ pos: p.positions.slice(), nrm: p.normals.slice() });
          expect(p.vertexCount).toBe(total);
          expect(maxDiff(p.positions, refPos)).toBeLessThanOrEqual(512 * 4e-7);
          expect(maxDiff(p.normals, refNrm)).toBeLessThanOrEqual(2e-6);
          expect(p.indices[0]).toBe(m.surfaces[0].triangles[0]);
          if (m.surfaces.length > 1) expect(p.indices[3]).toBe(m.surfaces[0].vertexCount + m.surfaces[1].triangles[0]);
          p.dispose();
        }
        // WASM SIMD and WASM scalar: bit-identical (both run the scalar MD3 loop; a SIMD form must keep this).
        expect(maxDiff(outs[1].pos, outs[2].pos)).toBe(0);
        expect(maxDiff(outs[1].nrm, outs[2].nrm)).toBe(0);
      }),
      { numRuns: 300, seed: SEED },
    );
  });
});

describe('clip timing', () => {
  it('steps through a looping clip at its rate and wraps the last frame to the first', () => {
    const clip = { firstFrame: 10, frameCount: 4, fps: 10 };
    expect(clipBlend(clip, 0, 10)).toEqual({ frame1: 10, frame2: 11, t: 0 });
    const mid = clipBlend(clip, 0.25, 10);
    expect([mid.frame1, mid.frame2]).toEqual([12, 13]);
    expect(mid.t).toBeCloseTo(0.5, 12);
    const last = clipBlend(clip, 0.35, 10);
    expect([last.frame1, last.frame2]).toEqual([13, 10]);
    expect(clipBlend(clip, 0.4, 10).frame1).toBe(10);
  });
  it('loops only the last loopFrames frames, and holds the last frame when loopFrames is 0', () => {
    const clip = { firstFrame: 0, frameCount: 5, fps: 1, loopFrames: 2 };
    const seq = [0, 1, 2, 3, 4, 5, 6, 7].map((s) => clipBlend(clip, s, 15).frame1);
    expect(seq).toEqual([0, 1, 2, 3, 4, 3, 4, 3]);
    const once = { firstFrame: 0, frameCount: 3, fps: 1, loopFrames: 0 };
    expect([0, 1, 2, 3, 9].map((s) => clipBlend(once, s, 15).frame1)).toEqual([0, 1, 2, 2, 2]);
    expect(clipBlend(once, 2.5, 15)).toEqual({ frame1: 2, frame2: 2, t: 0 });
  });
});

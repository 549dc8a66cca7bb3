/**
 * Every real MD2 and MD3 in ../shared/models, animated on every backend: WASM SIMD build, WASM scalar build and
 * TS agree on every frame and on blends between neighbouring frames (within 2.5e-7 of the model's diagonal, and
 * 1e-6 on normals), and an exact frame equals the reference decoders of ts/test/reference (`md2FramePositions` /
 * `md2FrameNormals`, `md3FramePositions`), which the MD2/MD3 tests check against three.js and raw bytes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { md2FrameNormals, md2FramePositions } from '../reference/md2.js';
import { md3FramePositions } from '../reference/md3.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { Md2Poser } from '../../src/pose/md2-poser.js';
import { Md3Poser } from '../../src/pose/md3-poser.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { diagonal, maxAbsDiff } from '../helpers/compare.js';
import { manifest, read } from '../helpers/models.js';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [createTsBackend(), await createWasmBackend('simd'), await createWasmBackend('scalar')];
});

const real = (format: string) => manifest().filter((r) => r.format === format && !/malformed/.test(r.path));

describe('MD2 vertex animation on real files', () => {
  for (const row of real('md2')) {
    it(`${row.path}: every frame and every neighbouring blend agree across backends and with the reference decode`, () => {
      const model = parseMd2(read(row.absPath));
      const posers = backends.map((b) => new Md2Poser(b, model));
      const [ts, ...wasm] = posers;
      let worst = 0, worstNormal = 0, worstRef = 0, diag = 0, simdVsScalar = 0;
      for (let f = 0; f < model.frameCount; f++) {
        for (const p of posers) p.poseFrame(f);
        const ref = md2FramePositions(model, f);
        diag = Math.max(diag, diagonal(ref));
        worstRef = Math.max(worstRef, maxAbsDiff(ts.positions, ref) / diagonal(ref));
        expect(maxAbsDiff(ts.normals, md2FrameNormals(model, f))).toBeLessThan(1e-6);
        for (const p of wasm) worst = Math.max(worst, maxAbsDiff(p.positions, ts.positions) / diagonal(ref));
        const g = (f + 1) % model.frameCount;
        for (const p of posers) p.poseBlend(f, g, 0.375);
        for (const p of wasm) {
          worst = Math.max(worst, maxAbsDiff(p.positions, ts.positions) / diagonal(ref));
          worstNormal = Math.max(worstNormal, maxAbsDiff(p.normals, ts.normals));
        }
        // The SIMD128 build against the scalar one: the same f32 operations (MD2: four vertices per step), bit-identical.
        simdVsScalar = Math.max(simdVsScalar, maxAbsDiff(wasm[0].positions, wasm[1].positions), maxAbsDiff(wasm[0].normals, wasm[1].normals));
      }
      expect(worst).toBeLessThan(2.5e-7);
      expect(worstNormal).toBeLessThan(1e-6);
      expect(simdVsScalar).toBe(0);
      expect(worstRef).toBeLessThan(2.5e-7);
      for (const p of posers) p.dispose();
    });
  }
});

describe('MD3 vertex animation on real files', () => {
  for (const row of real('md3')) {
    it(`${row.path}: every frame and every neighbouring blend agree across backends and with the reference decode`, () => {
      const model = parseMd3(read(row.absPath));
      const posers = backends.map((b) => new Md3Poser(b, model));
      const [ts, ...wasm] = posers;
      let worst = 0, worstNormal = 0, simdVsScalar = 0;
      for (let f = 0; f < model.frameCount; f++) {
        for (const p of posers) p.poseFrame(f);
        const diag = diagonal(ts.positions) || 1;
        model.surfaces.forEach((s, i) => {
          const ref = md3FramePositions(model, i, f);
          const at = ts.surfaceVertexStart[i] * 3;
          expect(maxAbsDiff(ts.positions.subarray(at, at + s.vertexCount * 3), ref.positions) / diag).toBeLessThan(2.5e-7);
          expect(maxAbsDiff(ts.normals.subarray(at, at + s.vertexCount * 3), ref.normals)).toBeLessThan(1e-6);
        });
        for (const p of wasm) worst = Math.max(worst, maxAbsDiff(p.positions, ts.positions) / diag);
        const g = (f + 1) % model.frameCount;
        for (const p of posers) p.poseBlend(f, g, 0.625);
        for (const p of wasm) {
          worst = Math.max(worst, maxAbsDiff(p.positions, ts.positions) / diag);
          worstNormal = Math.max(worstNormal, maxAbsDiff(p.normals, ts.normals));
        }
        // The SIMD128 build against the scalar one: the same f32 operations (MD2: four vertices per step), bit-identical.
        simdVsScalar = Math.max(simdVsScalar, maxAbsDiff(wasm[0].positions, wasm[1].positions), maxAbsDiff(wasm[0].normals, wasm[1].normals));
      }
      expect(worst).toBeLessThan(2.5e-7);
      expect(worstNormal).toBeLessThan(1e-6);
      expect(simdVsScalar).toBe(0);
      for (const p of posers) p.dispose();
    });
  }
});

/**
 * MDL posing through MD2's morph kernels on every backend (WASM SIMD, WASM scalar, TS): every LibreQuake model at
 * its first, middle and last pose against the independent reference decoder (ts/test/reference/mdl.ts, reading the
 * file's bytes, not the parsed model), blends between backends, and frame groups played at their intervals.
 */
import { beforeAll, describe, expect, it, test } from 'vitest';
import { parseMdl } from '../../src/formats/mdl/index.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { MdlPoser } from '../../src/formats/mdl/poser.js';
import { mdlGroupBlend } from '../../src/pose/timing.js';
import { maxAbsDiff } from '../helpers/compare.js';
import { referenceMdl, referenceMdlNormals, referenceMdlPositions } from '../reference/mdl.js';
import { buildMdl, richSpec } from './_build.js';
import { mdlRows, readRow } from './_helpers.js';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [createTsBackend(), await createWasmBackend('simd'), await createWasmBackend('scalar')];
});

describe('every real MDL posed on every backend', () => {
  for (const row of mdlRows()) {
    it(`${row.path}: first, middle and last pose equal the reference decode; blends agree across backends`, () => {
      const bytes = readRow(row);
      const ref = referenceMdl(bytes);
      const model = parseMdl(bytes);
      const posers = backends.map((b) => new MdlPoser(b, model));
      const poses = [...new Set([0, Math.floor(model.poseCount / 2), model.poseCount - 1])];
      // A float32 kernel rounds byte · scale, then the sum: within one float32 step (2^-23 relative) of the largest
      // magnitude either reaches, whatever the model's size (eyes.mdl is 0.3 units across, 13 units from its origin).
      const ulp = 2 ** -23 * Math.max(...[0, 1, 2].map((k) => Math.abs(model.origin[k]) + 255 * Math.abs(model.scale[k])));
      for (const p of poses) {
        const want = referenceMdlPositions(bytes, ref, p);
        for (const poser of posers) {
          poser.poseFrame(p);
          expect(maxAbsDiff(poser.positions, want), `${poser.backend.name} pose ${p}`).toBeLessThanOrEqual(ulp);
          expect(maxAbsDiff(poser.normals, referenceMdlNormals(bytes, ref, p)), `${poser.backend.name} normals ${p}`).toBeLessThan(1e-6);
        }
        const q = (p + 1) % model.poseCount;
        for (const poser of posers) poser.poseBlend(p, q, 0.375);
        for (const poser of posers.slice(1)) expect(maxAbsDiff(poser.positions, posers[0].positions)).toBeLessThanOrEqual(2 * ulp);
        expect(maxAbsDiff(posers[1].positions, posers[2].positions)).toBe(0);
      }
      for (const poser of posers) poser.dispose();
    });
  }
});

describe('frame groups at their intervals', () => {
  test('mdlGroupBlend: the pose whose end time is next, blending towards the next pose; looping over the last interval', () => {
    const iv = [0.1, 0.25, 0.5];
    expect(mdlGroupBlend(iv, 3, 0)).toEqual({ frame1: 0, frame2: 1, t: 0 });
    expect(mdlGroupBlend(iv, 3, 0.05)).toMatchObject({ frame1: 0, frame2: 1 });
    expect(mdlGroupBlend(iv, 3, 0.05).t).toBeCloseTo(0.5, 12);
    expect(mdlGroupBlend(iv, 3, 0.1)).toEqual({ frame1: 1, frame2: 2, t: 0 });
    expect(mdlGroupBlend(iv, 3, 0.4).t).toBeCloseTo(0.6, 12);
    expect(mdlGroupBlend(iv, 3, 0.4).frame1).toBe(2);
    expect(mdlGroupBlend(iv, 3, 0.4).frame2).toBe(0);
    expect(mdlGroupBlend(iv, 3, 0.55)).toMatchObject({ frame1: 0, frame2: 1 });
    expect(mdlGroupBlend(iv, 3, -0.45)).toMatchObject({ frame1: 0, frame2: 1 });
  });

  test('intervals WinQuake refuses play every pose for the first (QuakeSpasm), else 0.1 s (DarkPlaces)', () => {
    expect(mdlGroupBlend([0.2, 0, 0], 3, 0.45)).toMatchObject({ frame1: 2, frame2: 0 });
    expect(mdlGroupBlend([0, 0, 0], 3, 0.15)).toMatchObject({ frame1: 1, frame2: 2 });
    expect(mdlGroupBlend([], 1, 3)).toEqual({ frame1: 0, frame2: 0, t: 0 });
  });

  test('MdlPoser.poseFrameTime plays a group record at its intervals and a single record as its pose', () => {
    const model = parseMdl(buildMdl(richSpec()));
    const poser = new MdlPoser(backends[0], model);
    const direct = new MdlPoser(backends[0], model);
    poser.poseFrameTime(1, 0.15);
    expect(poser.blend).toEqual({ frame1: 2, frame2: 3, t: poser.blend.t });
    expect(poser.blend.t).toBeCloseTo(0.5, 6);
    direct.poseBlend(2, 3, poser.blend.t);
    expect(maxAbsDiff(poser.positions, direct.positions)).toBe(0);
    poser.poseFrameTime(0, 12.3);
    expect(poser.blend).toEqual({ frame1: 0, frame2: 0, t: 0 });
    expect(() => poser.poseFrameTime(2, 0)).toThrow(RangeError);
    poser.dispose();
    direct.dispose();
  });
});

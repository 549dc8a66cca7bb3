/**
 * Every real MD5 in ../shared/models, posed on every backend: WASM (SIMD and scalar) must agree with TS
 * within 1e-4 × the model's diagonal on every frame, and a skinned frame must fit the anim's own bounds
 * (computed by the exporter from the real skinned mesh) wherever those bounds are not degenerate.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { diagonal, maxAbsDiff } from '../helpers/compare.js';
import { read, realAnimPairs, realMeshes } from '../helpers/models.js';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [createTsBackend(), await createWasmBackend('simd'), await createWasmBackend('scalar')];
});

/** Smallest dot product between matching unit normals (ignoring zero normals of degenerate vertices). */
function minNormalDot(a: Float32Array, b: Float32Array): number {
  let m = 1;
  for (let i = 0; i < a.length; i += 3) {
    const la = Math.hypot(a[i], a[i + 1], a[i + 2]);
    if (la < 0.5) continue;
    m = Math.min(m, a[i] * b[i] + a[i + 1] * b[i + 1] + a[i + 2] * b[i + 2]);
  }
  return m;
}

function box(p: Float32Array): number[] {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < p.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], p[i + k]);
      hi[k] = Math.max(hi[k], p[i + k]);
    }
  }
  return [...lo, ...hi];
}

/**
 * How well the anim's `bounds` describe our skinned frames. Real exporters are sloppy here (see
 * docs/real-data.md: rifle_view_reload's bounds run 54 frames ahead of its frames, rifle_view_idle's first
 * 139 are a copy of reload's), so we search the frame shift that fits best and count the frames whose box
 * matches ours within 1% of the diagonal. A wrong pose is off by whole units and fits nowhere.
 */
function boundsFit(bounds: Float32Array, boxes: number[][]) {
  const n = boxes.length;
  let nonZero = false;
  for (let i = 0; i < bounds.length; i++) if (bounds[i] !== 0) nonZero = true;
  if (!nonZero) return null;
  let best = { shift: 0, fitting: -1, overlap: 0 };
  for (let shift = -(n - 1); shift < n; shift++) {
    let fitting = 0, overlap = 0;
    for (let f = Math.max(0, shift); f < n && f - shift < n; f++) {
      const ours = boxes[f - shift];
      const diag = Math.hypot(ours[3] - ours[0], ours[4] - ours[1], ours[5] - ours[2]);
      overlap++;
      let err = 0;
      for (let k = 0; k < 6; k++) err = Math.max(err, Math.abs(ours[k] - bounds[f * 6 + k]));
      if (err <= 0.01 * diag) fitting++;
    }
    if (fitting > best.fitting) best = { shift, fitting, overlap };
  }
  return best;
}

describe('bind pose of every real md5mesh', () => {
  for (const row of realMeshes()) {
    it(`${row.path}: WASM SIMD and scalar equal TS`, () => {
      const mesh = parseMd5Mesh(read(row.absPath));
      const posers = backends.map((b) => new Md5Poser(b, mesh));
      posers.forEach((p) => p.poseBind());
      const ref = posers[0].positions;
      const tol = 1e-4 * diagonal(ref);
      expect(tol).toBeGreaterThan(0);
      for (const p of posers.slice(1)) {
        expect(maxAbsDiff(p.positions, ref), p.backend.name).toBeLessThanOrEqual(tol);
        expect(minNormalDot(p.normals, posers[0].normals), p.backend.name).toBeGreaterThan(0.9999);
      }
      posers.forEach((p) => p.dispose());
    });
  }
});

describe('every frame of every real md5anim on its mesh', () => {
  for (const { anim: arow, mesh: mrow } of realAnimPairs()) {
    it(`${arow.path} on ${mrow.path.split('/').pop()}: parity on all frames, bounds fit at the best frame shift`, () => {
      const mesh = parseMd5Mesh(read(mrow.absPath));
      const anim = parseMd5Anim(read(arow.absPath));
      const posers = backends.map((b) => new Md5Poser(b, mesh));
      posers.forEach((p) => p.setAnim(anim));
      let worst = 0;
      const boxes: number[][] = [];
      for (let f = 0; f < anim.frameCount; f++) {
        posers.forEach((p) => p.poseFrame(f));
        const ref = posers[0].positions;
        const tol = 1e-4 * diagonal(ref);
        for (const p of posers.slice(1)) {
          const d = maxAbsDiff(p.positions, ref);
          worst = Math.max(worst, d / tol);
          expect(d, `${p.backend.name} frame ${f}`).toBeLessThanOrEqual(tol);
          expect(minNormalDot(p.normals, posers[0].normals), `${p.backend.name} normals frame ${f}`).toBeGreaterThan(0.9999);
        }
        boxes.push(box(ref));
      }
      // One batch call for a spread of frames equals the frames one by one (and WASM equals TS).
      const picks = [anim.frameCount - 1, 0, Math.floor(anim.frameCount / 2), 0];
      const batches = posers.map((p) => p.bakeFrames(picks).slice());
      posers.forEach((p, b) => {
        picks.forEach((f, i) => {
          p.poseFrame(f, false);
          expect(maxAbsDiff(batches[b].subarray(i * p.vertexCount * 3, (i + 1) * p.vertexCount * 3), p.positions)).toBe(0);
        });
      });
      expect(maxAbsDiff(batches[1], batches[0])).toBeLessThanOrEqual(1e-4 * diagonal(batches[0]));
      expect(() => posers[1].bakeFrames([anim.frameCount])).toThrow(RangeError);
      // Interpolated times: the same blend on every backend.
      for (const seconds of [0, 0.013, 0.25, 1 / anim.frameRate / 2, 7.77]) {
        posers.forEach((p) => p.poseTime(seconds));
        const tol = 1e-4 * diagonal(posers[0].positions);
        for (const p of posers.slice(1)) expect(maxAbsDiff(p.positions, posers[0].positions)).toBeLessThanOrEqual(tol);
      }
      posers.forEach((p) => p.dispose());
      const fit = boundsFit(anim.bounds, boxes);
      console.log(`${arow.path}: ${anim.frameCount} frames, worst |WASM−TS| = ${worst.toExponential(2)} of tolerance; bounds: ${fit ? `${fit.fitting}/${fit.overlap} frames within 1% of the diagonal at frame shift ${fit.shift}` : 'degenerate (all zero), not checked'}`);
      if (fit) expect(fit.fitting).toBeGreaterThanOrEqual(fit.overlap / 2);
    });
  }
});

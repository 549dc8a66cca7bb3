/**
 * Randomised skeletons, weights and frames (fast-check): WASM SIMD, WASM scalar and TS agree on composed
 * joint matrices and skinned positions, for exact frames and for blends between two frames.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Md5Anim, Md5Mesh, Md5MeshPart } from '../../src/base/model.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { createWasmBackend } from '../../src/kernels/wasm-backend.js';
import { recoverW } from '../../src/kernels/ts-kernels.js';
import { diagonal, maxAbsDiff } from '../helpers/compare.js';

let backends: PoseBackend[];
beforeAll(async () => {
  backends = [createTsBackend(), await createWasmBackend('simd'), await createWasmBackend('scalar')];
});

const f32 = (lo: number, hi: number) => fc.float({ min: Math.fround(lo), max: Math.fround(hi), noNaN: true, noDefaultInfinity: true });
/** A unit quaternion's x, y, z (w is recovered, as in the files). */
const quatXyz = fc.tuple(f32(-1, 1), f32(-1, 1), f32(-1, 1), f32(-1, 1)).map(([x, y, z, w]) => {
  const n = Math.hypot(x, y, z, w) || 1;
  return [x / n, y / n, z / n];
});

const modelArb = fc
  .record({
    jointCount: fc.integer({ min: 1, max: 24 }),
    vertexCount: fc.integer({ min: 1, max: 60 }),
    frameCount: fc.integer({ min: 1, max: 4 }),
    seed: fc.array(fc.integer({ min: 0, max: 1 << 30 }), { minLength: 8, maxLength: 8 }),
  })
  .chain(({ jointCount, vertexCount, frameCount }) =>
    fc.record({
      parents: fc.tuple(...Array.from({ length: jointCount }, (_, j) => fc.integer({ min: -1, max: j - 1 }))),
      flags: fc.array(fc.integer({ min: 0, max: 63 }), { minLength: jointCount, maxLength: jointCount }),
      bindT: fc.array(fc.tuple(f32(-50, 50), f32(-50, 50), f32(-50, 50)), { minLength: jointCount, maxLength: jointCount }),
      bindQ: fc.array(quatXyz, { minLength: jointCount, maxLength: jointCount }),
      baseT: fc.array(fc.tuple(f32(-5, 5), f32(-5, 5), f32(-5, 5)), { minLength: jointCount, maxLength: jointCount }),
      baseQ: fc.array(quatXyz, { minLength: jointCount, maxLength: jointCount }),
      frames: fc.array(fc.array(fc.tuple(f32(-5, 5), f32(-5, 5), f32(-5, 5), quatXyz), { minLength: jointCount, maxLength: jointCount }), { minLength: frameCount, maxLength: frameCount }),
      vertices: fc.array(
        fc.array(fc.tuple(fc.integer({ min: 0, max: jointCount - 1 }), f32(0.01, 1), f32(-20, 20), f32(-20, 20), f32(-20, 20)), { minLength: 1, maxLength: 9 }), // every unrolled group (1–6) and the general loop (7+)
        { minLength: vertexCount, maxLength: vertexCount },
      ),
      triangles: fc.array(fc.tuple(fc.nat(vertexCount - 1), fc.nat(vertexCount - 1), fc.nat(vertexCount - 1)), { minLength: 1, maxLength: 40 }),
      t: f32(0, 1),
    }),
  );

type Model = typeof modelArb extends fc.Arbitrary<infer T> ? T : never;

function build(m: Model): { mesh: Md5Mesh; anim: Md5Anim } {
  const J = m.parents.length;
  const names = Array.from({ length: J }, (_, j) => `j${j}`);
  const parents = Int32Array.from(m.parents);
  const orientations = new Float32Array(J * 4);
  m.bindQ.forEach((q, j) => orientations.set([q[0], q[1], q[2], recoverW(q[0], q[1], q[2])], j * 4));
  const weightStart: number[] = [], weightCount: number[] = [], wj: number[] = [], wb: number[] = [], wp: number[] = [];
  for (const v of m.vertices) {
    weightStart.push(wj.length);
    weightCount.push(v.length);
    const sum = v.reduce((s, w) => s + w[1], 0);
    for (const [j, b, x, y, z] of v) {
      wj.push(j);
      wb.push(b / sum);
      wp.push(x, y, z);
    }
  }
  const part: Md5MeshPart = {
    name: 'random',
    shader: '',
    vertexCount: m.vertices.length,
    uvs: new Float32Array(m.vertices.length * 2),
    weightStart: Uint32Array.from(weightStart),
    weightCount: Uint32Array.from(weightCount),
    triangleCount: m.triangles.length,
    triangles: Uint32Array.from(m.triangles.flat()),
    weightTotal: wj.length,
    weightJoints: Uint32Array.from(wj),
    weightBiases: Float32Array.from(wb),
    weightPositions: Float32Array.from(wp),
  };
  const mesh: Md5Mesh = {
    format: 'md5mesh',
    version: 10,
    commandline: '',
    joints: { count: J, names, parents, positions: Float32Array.from(m.bindT.flat()), orientations },
    meshes: [part],
  };
  const startIndices = new Uint32Array(J);
  let cc = 0;
  m.flags.forEach((f, j) => {
    startIndices[j] = cc;
    for (let b = f; b; b >>= 1) cc += b & 1;
  });
  const frames = new Float32Array(m.frames.length * cc);
  m.frames.forEach((fr, i) => {
    let k = i * cc;
    fr.forEach(([tx, ty, tz, q], j) => {
      const c = [tx, ty, tz, q[0], q[1], q[2]];
      for (let bit = 0; bit < 6; bit++) if (m.flags[j] & (1 << bit)) frames[k++] = c[bit];
    });
  });
  const anim: Md5Anim = {
    format: 'md5anim',
    version: 10,
    commandline: '',
    frameCount: m.frames.length,
    jointCount: J,
    frameRate: 24,
    componentCount: cc,
    names,
    parents,
    flags: Uint8Array.from(m.flags),
    startIndices,
    bounds: new Float32Array(m.frames.length * 6),
    baseframe: Float32Array.from(m.baseT.flatMap((t, j) => [...t, ...m.baseQ[j]])),
    frames,
  };
  return { mesh, anim };
}

describe('WASM and TS agree on random models', () => {
  it('bind pose, every frame and a blend: joint matrices and positions within 1e-4 × diagonal', () => {
    fc.assert(
      fc.property(modelArb, (m) => {
        const { mesh, anim } = build(m);
        const posers = backends.map((b) => new Md5Poser(b, mesh));
        // The same kernels writing grouped order (no scatter), read back through the stream's permutation.
        const grouped = backends.map((b) => new Md5Poser(b, mesh, { order: 'grouped' }));
        try {
          const check = (what: string) => {
            const ref = posers[0];
            // Scale: the larger of the skinned model and the skeleton (joints can sit far from the vertices).
            const jointPositions = Array.from({ length: ref.jointCount }, (_, j) => [ref.jointMatrices[j * 16 + 3], ref.jointMatrices[j * 16 + 7], ref.jointMatrices[j * 16 + 11]]).flat();
            const tol = 1e-4 * Math.max(diagonal(ref.positions), diagonal(jointPositions), 1);
            for (const p of posers.slice(1)) {
              expect(maxAbsDiff(p.positions, ref.positions), `${p.backend.name} ${what}`).toBeLessThanOrEqual(tol);
              expect(maxAbsDiff(p.jointMatrices, ref.jointMatrices), `${p.backend.name} ${what} matrices`).toBeLessThanOrEqual(tol);
            }
          };
          posers.forEach((p) => p.poseBind(false));
          check('bind');
          grouped.forEach((g) => g.poseBind(false));
          for (const g of grouped) {
            const inFileOrder = new Float32Array(g.positions.length);
            g.stream.streamToFile.forEach((file, i) => inFileOrder.set(g.positions.subarray(i * 3, i * 3 + 3), file * 3));
            expect(maxAbsDiff(inFileOrder, posers[0].positions), `${g.backend.name} grouped order`).toBeLessThanOrEqual(1e-4 * Math.max(diagonal(posers[0].positions), 1));
          }
          posers.forEach((p) => p.setAnim(anim));
          for (let f = 0; f < anim.frameCount; f++) {
            posers.forEach((p) => p.poseFrame(f, false));
            check(`frame ${f}`);
          }
          posers.forEach((p) => p.poseBlend(0, anim.frameCount - 1, m.t, false));
          check(`blend t=${m.t}`);
          // A batch in one call equals the frames one by one, on every backend.
          const order = Array.from({ length: anim.frameCount }, (_, i) => anim.frameCount - 1 - i);
          for (const p of posers) {
            const batch = p.bakeFrames(order).slice();
            order.forEach((f, i) => {
              p.poseFrame(f, false);
              expect(maxAbsDiff(batch.subarray(i * p.vertexCount * 3, (i + 1) * p.vertexCount * 3), p.positions), `${p.backend.name} batch frame ${f}`).toBe(0);
            });
          }
        } finally {
          posers.forEach((p) => p.dispose());
          grouped.forEach((p) => p.dispose());
        }
      }),
      { numRuns: 1000, seed: 20261121 },
    );
  });
});

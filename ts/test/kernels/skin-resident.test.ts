/**
 * The WASM backend keeps the last skin job's buffer words in its job block (as it does for morph jobs): the same job
 * object with the same six buffers writes nothing before the call. A swapped buffer (each of the six), another job or
 * kernel in between, a released buffer or a buffer from another backend must each still be seen, and the kernel must
 * still check every index on every call: the result always equals the TS backend's on the job as it is now.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PoseBackend, SkinJob } from '../../src/kernels/backend.js';
import { MATRIX_STRIDE, WEIGHT_STRIDE } from '../../src/kernels/layout.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { expectRefusalsAfterResidentRun, wasmBackends } from './_resident.js';

const J = 5, V = 9, MAX_WEIGHTS = 3 * V;
let wasm: PoseBackend[];
beforeAll(async () => {
  wasm = await wasmBackends();
});

/** A job over V vertices grouped as `groups`, its inputs from `seed`; joints and weights sized for any grouping. */
function skinJob(b: PoseBackend, seed: number, groups: number[] = [4, 3, 2]): SkinJob {
  const m = b.memory;
  const matrices = m.f32(J * MATRIX_STRIDE), groupSizes = m.u32(groups.length), joints = m.u32(MAX_WEIGHTS), weights = m.f32(MAX_WEIGHTS * WEIGHT_STRIDE);
  const dest = m.u32(V), out = m.f32(V * 3);
  matrices.view.set(Float32Array.from({ length: J * MATRIX_STRIDE }, (_, i) => Math.sin(i * 1.7 + seed)));
  groupSizes.view.set(groups);
  joints.view.set(Uint32Array.from({ length: MAX_WEIGHTS }, (_, i) => (i * 3 + seed) % J));
  weights.view.set(Float32Array.from({ length: MAX_WEIGHTS * WEIGHT_STRIDE }, (_, i) => Math.cos(i * 0.3 + seed)));
  // A permutation of the slots, different per seed.
  const perm = Array.from({ length: V }, (_, i) => (i * (seed % 2 ? 2 : 4) + seed) % V);
  dest.view.set(perm);
  return { matrices, groupSizes, joints, weights, dest, out };
}

type Kind = 'positions' | 'normals';

/** The TS backend's output for the job's current inputs. */
function expected(kind: Kind, j: SkinJob): Float32Array {
  const ts = createTsBackend(), m = ts.memory;
  const copyF = (v: Float32Array) => {
    const b = m.f32(v.length);
    b.view.set(v);
    return b;
  };
  const copyU = (v: Uint32Array) => {
    const b = m.u32(v.length);
    b.view.set(v);
    return b;
  };
  const out = m.f32(j.out.length);
  const job: SkinJob = { matrices: copyF(j.matrices.view), groupSizes: copyU(j.groupSizes.view), joints: copyU(j.joints.view), weights: copyF(j.weights.view), dest: j.dest && copyU(j.dest.view), out };
  if (kind === 'positions') ts.kernels.skinPositions(job);
  else ts.kernels.skinNormals(job);
  return out.view;
}

function check(kind: Kind, b: PoseBackend, j: SkinJob) {
  j.out.view.fill(1234);
  if (kind === 'positions') b.kernels.skinPositions(j);
  else b.kernels.skinNormals(j);
  const e = expected(kind, j), a = j.out.view;
  expect(e.every((v, i) => Math.abs(a[i] - v) < 1e-5 * Math.max(1, Math.abs(v)))).toBe(true);
}

describe.each(['positions', 'normals'] as const)('skin %s: the resident job block', (kind) => {
  const run = (b: PoseBackend, j: SkinJob) => (kind === 'positions' ? b.kernels.skinPositions(j) : b.kernels.skinNormals(j));

  it('follows each swapped buffer, another job or kernel in between, and the other skin kernel', () => {
    for (const b of wasm) {
      const j = skinJob(b, 1), other = skinJob(b, 2, [2, 3, 4]);
      check(kind, b, j);
      check(kind, b, j); // resident: nothing rewritten
      for (const key of ['matrices', 'groupSizes', 'joints', 'weights', 'dest', 'out'] as const) {
        (j as unknown as Record<string, unknown>)[key] = other[key];
        check(kind, b, j);
        check(kind, b, j);
      }
      // The grouped order (dest null), then a file order again.
      j.dest = null;
      check(kind, b, j);
      j.dest = skinJob(b, 3).dest;
      check(kind, b, j);
      // Another skin job, then this one; the other skin kernel on the same job; another kernel writing the block.
      const third = skinJob(b, 4);
      check(kind, b, third);
      check(kind, b, j);
      check(kind === 'positions' ? 'normals' : 'positions', b, j);
      check(kind, b, j);
      b.kernels.transformVertices({ matrix: b.memory.f32(12), positions: third.out, normals: third.out, firstVertex: 0, vertexCount: 1 });
      check(kind, b, j);
    }
  });

  it('still checks the indices on every call of a resident job', () => {
    for (const b of wasm) {
      const j = skinJob(b, 5);
      check(kind, b, j);
      const joints = j.joints.view, dest = j.dest!.view;
      joints[2] = J; // one past the last joint
      if (b.name === 'wasm-simd') {
        j.out.view.fill(7);
        expect(() => run(b, j)).toThrow(RangeError);
        expect(j.out.view.every((v) => v === 7)).toBe(true); // refused: nothing written
      } else run(b, j); // the scalar build clamps
      joints[2] = 0;
      check(kind, b, j);
      dest[1] = V; // a slot past the output
      if (b.name === 'wasm-simd') expect(() => run(b, j)).toThrow(RangeError);
      else run(b, j);
      dest.set(skinJob(b, 5).dest!.view);
      check(kind, b, j);
    }
  });

  it('refuses a released buffer and a buffer of another backend after a resident run', async () => {
    for (const b of wasm) {
      const k = await expectRefusalsAfterResidentRun(b, (b, seed) => skinJob(b, seed), (b, j) => check(kind, b, j), run, 'weights', 'out', 6);
      k.out = skinJob(b, 7).out;
      check(kind, b, k);
    }
  });
});

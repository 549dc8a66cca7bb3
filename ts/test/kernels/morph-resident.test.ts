/**
 * The WASM backend keeps the last morph job's buffer words in its job block and, when the same job object comes
 * again with the same buffers, rewrites only frames and t. A changed buffer, another kernel in between, a released
 * buffer or a buffer from another backend must each still be seen: the result always equals the TS backend's on the
 * job as it is now.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { KernelBuffer, Md2BlendJob, Md3BlendJob, PoseBackend } from '../../src/kernels/backend.js';
import { MD2_NORMAL_TABLE, md3DecodedNormals } from '../../src/kernels/tables.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { expectRefusalsAfterResidentRun, wasmBackends } from './_resident.js';

const V = 7, F = 3;
let wasm: PoseBackend[];
beforeAll(async () => {
  wasm = await wasmBackends();
});

function md2Job(b: PoseBackend, seed: number): Md2BlendJob {
  const m = b.memory;
  const frames = m.u8(F * V * 4), scales = m.f32(F * 3), translates = m.f32(F * 3), normalTable = m.f32(MD2_NORMAL_TABLE.length);
  const outPositions = m.f32(2 * V * 3), outNormals = m.f32(2 * V * 3);
  frames.view.set(Uint8Array.from({ length: F * V * 4 }, (_, i) => (i * 37 + seed * 11) & 255));
  scales.view.set(Float32Array.from({ length: F * 3 }, (_, i) => 0.5 + i + seed));
  translates.view.set(Float32Array.from({ length: F * 3 }, (_, i) => i - seed));
  normalTable.view.set(MD2_NORMAL_TABLE);
  return { frames, scales, translates, normalTable, vertexCount: V, frameA: 0, frameB: 1, t: 0.25, outPositions, outNormals, outVertexOffset: 0 };
}

function md3Job(b: PoseBackend, seed: number): Md3BlendJob {
  const m = b.memory;
  const xyzNormals = m.i16(F * V * 4), normalTable = m.f32(md3DecodedNormals().length), outPositions = m.f32(2 * V * 3), outNormals = m.f32(2 * V * 3);
  xyzNormals.view.set(Int16Array.from({ length: F * V * 4 }, (_, i) => ((i * 7919 + seed * 104729) & 0xffff) - 0x8000));
  normalTable.view.set(md3DecodedNormals());
  return { xyzNormals, normalTable, vertexCount: V, frameA: 0, frameB: 1, t: 0.25, outPositions, outNormals, outVertexOffset: 0 };
}

/** The TS backend's output for the job's current inputs and scalars. */
function expected(kind: 'md2' | 'md3', j: Md2BlendJob | Md3BlendJob): [Float32Array, Float32Array] {
  const ts = createTsBackend(), m = ts.memory;
  const copy = <T extends Float32Array | Uint8Array | Int16Array>(make: (n: number) => KernelBuffer<T>, v: T) => {
    const b = make(v.length);
    b.view.set(v);
    return b;
  };
  const outPositions = m.f32(j.vertexCount * 3), outNormals = m.f32(j.vertexCount * 3);
  if (kind === 'md2') {
    const k = j as Md2BlendJob;
    ts.kernels.md2Blend({ ...k, frames: copy(m.u8, k.frames.view), scales: copy(m.f32, k.scales.view), translates: copy(m.f32, k.translates.view), normalTable: copy(m.f32, k.normalTable.view), outPositions, outNormals, outVertexOffset: 0 });
  } else {
    const k = j as Md3BlendJob;
    ts.kernels.md3Blend({ ...k, xyzNormals: copy(m.i16, k.xyzNormals.view), normalTable: copy(m.f32, k.normalTable.view), outPositions, outNormals, outVertexOffset: 0 });
  }
  return [outPositions.view, outNormals.view];
}

function check(kind: 'md2' | 'md3', b: PoseBackend, j: Md2BlendJob | Md3BlendJob) {
  if (kind === 'md2') b.kernels.md2Blend(j as Md2BlendJob);
  else b.kernels.md3Blend(j as Md3BlendJob);
  const [p, n] = expected(kind, j);
  const o = j.outVertexOffset * 3;
  const close = (a: Float32Array, e: Float32Array) => e.every((v, i) => Math.abs(a[o + i] - v) < 1e-5 * Math.max(1, Math.abs(v)));
  expect(close(j.outPositions.view, p)).toBe(true);
  expect(close(j.outNormals.view, n)).toBe(true);
}

describe.each(['md2', 'md3'] as const)('%s: the resident job block', (kind) => {
  const make = kind === 'md2' ? md2Job : md3Job;
  it('follows frames and t, a swapped input buffer, another kernel in between and a moved output range', () => {
    for (const b of wasm) {
      const j = make(b, 1), other = make(b, 2);
      check(kind, b, j);
      j.frameA = 2;
      j.t = 0.75;
      check(kind, b, j);
      // The same job object with another frames buffer.
      if (kind === 'md2') (j as Md2BlendJob).frames = (other as Md2BlendJob).frames;
      else (j as Md3BlendJob).xyzNormals = (other as Md3BlendJob).xyzNormals;
      check(kind, b, j);
      // Another morph job, then this one again; another kernel writing the block, then this one again.
      check(kind, b, other);
      check(kind, b, j);
      const m = b.memory.f32(12);
      b.kernels.transformVertices({ matrix: m, positions: other.outPositions, normals: other.outNormals, firstVertex: 0, vertexCount: 1 });
      check(kind, b, j);
      // The same job writing into the upper half of its outputs.
      j.outVertexOffset = V;
      check(kind, b, j);
    }
  });

  it('refuses a released buffer and a buffer of another backend after a resident run', async () => {
    for (const b of wasm) {
      const run = (b: PoseBackend, j: Md2BlendJob | Md3BlendJob) => (kind === 'md2' ? b.kernels.md2Blend(j as Md2BlendJob) : b.kernels.md3Blend(j as Md3BlendJob));
      await expectRefusalsAfterResidentRun<Md2BlendJob | Md3BlendJob>(b, make, (b, j) => check(kind, b, j), run, 'normalTable', 'outNormals', 3);
    }
  });
});

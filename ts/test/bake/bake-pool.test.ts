/**
 * Bakes across cores: a BakePool of real Node worker threads (dist/bake-worker.js, built by scripts/build.sh) writes
 * the same floats, bit for bit, as `Md5Poser.bakeFrames` on one thread — on every real md5mesh/md5anim pair in
 * ../shared/models and on a generated model, in file and grouped order, with frames out of order and repeated; the
 * one-thread fallback does too; bad frames and a disposed pool throw.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import type { BackendName } from '../../src/kernels/backend.js';
import { createBackend } from '../../src/kernels/select.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { buildSkinStream } from '../../src/pose/skin-stream.js';
import { ModelParseError } from '../../src/base/errors.js';
import { BakePool, frameRuns } from '../../src/bake/pool.js';
import { createBakePool } from '../../src/bake/node.js';
import type { Md5Anim, Md5Mesh } from '../../src/base/model.js';
import { syntheticModel } from '../../../bench/synthetic.mjs';
import { firstDifference } from '../helpers/compare.js';
import { read, realAnimPairs, REPO } from '../helpers/models.js';

const workerUrl = join(REPO, 'dist', 'bake-worker.js');

/**
 * The reference: one poser on this thread posing the frames one at a time (`poseFrame`: the whole-stream kernel, no
 * batch, no blocks), each copied out.
 */
async function singleThread(mesh: Md5Mesh, anim: Md5Anim, frames: number[], order: 'file' | 'grouped' = 'file', backend: BackendName = 'wasm-simd'): Promise<Float32Array> {
  const p = new Md5Poser(await createBackend(backend), mesh, { order });
  p.setAnim(anim);
  const span = p.vertexCount * 3;
  const out = new Float32Array(frames.length * span);
  frames.forEach((f, i) => out.set(p.poseFrame(f, false).positions, i * span));
  p.dispose();
  return out;
}

/** Frames out of order, with repeats and both ends. */
const shuffledFrames = (n: number) => Array.from({ length: Math.min(2 * n, 40) }, (_, i) => (i * 7 + 3) % n).concat([0, n - 1]);

describe('frameRuns', () => {
  it('splits a bake into contiguous runs that cover every frame once, sizes within one of each other', () => {
    for (const [count, workers] of [[0, 2], [1, 3], [7, 2], [16, 3], [100, 7]]) {
      const runs = frameRuns(count, workers);
      expect(runs).toHaveLength(workers);
      expect(runs[0][0]).toBe(0);
      expect(runs[workers - 1][1]).toBe(count);
      for (let w = 1; w < workers; w++) expect(runs[w][0]).toBe(runs[w - 1][1]);
      const sizes = runs.map(([a, b]) => b - a);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
    expect(frameRuns(7, 2)).toEqual([[0, 3], [3, 7]]);
  });
});

describe('BakePool on Node worker threads', () => {
  beforeAll(() => {
    if (!existsSync(workerUrl)) throw new Error(`${workerUrl} is missing: run scripts/build.sh (or node scripts/bundle.mjs) first`);
  });

  for (const { mesh: meshRow, anim: animRow } of realAnimPairs()) {
    for (const sharedMemory of [true, false]) {
      const mode = sharedMemory ? 'shared-memory' : 'worker-memory';
      it(`${animRow.path}: two workers (${mode}) bake exactly what one thread poses, in file order`, async () => {
        const mesh = parseMd5Mesh(read(meshRow.absPath)), anim = parseMd5Anim(read(animRow.absPath));
        const frames = shuffledFrames(anim.frameCount);
        const pool = await createBakePool(mesh, anim, { workers: 2, workerUrl, sharedMemory });
        try {
          expect(pool.workers).toBe(2);
          expect(pool.fallback).toBeNull();
          expect(pool.mode).toBe(mode);
          const ref = await singleThread(mesh, anim, frames);
          const out = await pool.bake(frames);
          expect(out.buffer).toBeInstanceOf(SharedArrayBuffer);
          expect(out.length).toBe(frames.length * pool.vertexCount * 3);
          expect(firstDifference(out, ref)).toBe(-1);
          expect(firstDifference(await pool.bakeView(frames), ref)).toBe(-1);
        } finally {
          pool.dispose();
        }
      });
    }
  }

  const synthetic = syntheticModel({ vertices: 20_000, joints: 40, frames: 9, seed: 7 }) as { mesh: Md5Mesh; anim: Md5Anim };

  it('three workers on a generated model, grouped order, baking twice into one reused output', async () => {
    const { mesh, anim } = synthetic;
    const pool = await createBakePool(mesh, anim, { workers: 3, order: 'grouped', workerUrl });
    try {
      const frames = [8, 0, 4, 4, 1, 7, 2];
      const into = new Float32Array(new SharedArrayBuffer(frames.length * pool.vertexCount * 12));
      const ref = await singleThread(mesh, anim, frames, 'grouped');
      expect(await pool.bake(frames, into)).toBe(into);
      expect(firstDifference(into, ref)).toBe(-1);
      into.fill(0);
      await pool.bake(frames, into);
      expect(firstDifference(into, ref)).toBe(-1);
      // Fewer frames than workers: an idle worker, the rest exact.
      expect(firstDifference(await pool.bake([5]), await singleThread(mesh, anim, [5], 'grouped'))).toBe(-1);
      expect((await pool.bake([])).length).toBe(0);
    } finally {
      pool.dispose();
    }
  });

  it('shared memory: the view is the pool\'s own output, bakes sent together run one after another, each exact', async () => {
    const { mesh, anim } = synthetic;
    const pool = await createBakePool(mesh, anim, { workers: 2, workerUrl });
    try {
      expect(pool.mode).toBe('shared-memory');
      expect(pool.sharedMemoryUnused).toBeNull();
      const a = [8, 0, 4, 4, 1], b = [3, 2, 6, 5, 7, 0, 1, 8];
      const [refA, refB] = [await singleThread(mesh, anim, a), await singleThread(mesh, anim, b)];
      const view = await pool.bakeView(a);
      expect(view.buffer).toBeInstanceOf(SharedArrayBuffer); // the shared WebAssembly memory
      expect(firstDifference(view, refA)).toBe(-1);
      // Not awaited in between: the second bake must not rewrite the first's jobs while its workers run them.
      const [outA, outB, viewB] = await Promise.all([pool.bake(a), pool.bake(b), pool.bakeView(b)]);
      expect(firstDifference(outA, refA)).toBe(-1);
      expect(firstDifference(outB, refB)).toBe(-1);
      expect(firstDifference(viewB, refB)).toBe(-1);
    } finally {
      pool.dispose();
    }
  });

  it('the scalar backend has no shared-memory build: its workers each have a memory, and say why', async () => {
    const { mesh, anim } = synthetic;
    const pool = await createBakePool(mesh, anim, { workers: 2, workerUrl, backend: 'wasm-scalar' });
    try {
      expect(pool.mode).toBe('worker-memory');
      expect(pool.sharedMemoryUnused).toMatch(/wasm-scalar/);
      const frames = [1, 8, 3];
      expect(firstDifference(await pool.bakeView(frames), await singleThread(mesh, anim, frames, 'file', 'wasm-scalar'))).toBe(-1);
    } finally {
      pool.dispose();
    }
  });

  it('shared memory: a model the poser refuses is refused when the pool is made, with the poser\'s error', async () => {
    const { mesh, anim } = synthetic;
    const stream = buildSkinStream(mesh);
    stream.joints[5] = 999;
    await expect(createBakePool(mesh, anim, { workers: 1, workerUrl, stream })).rejects.toThrow(/skin weight 5 names joint 999 of 40/);
    await expect(createBakePool(mesh, { ...anim, componentCount: 1 }, { workers: 1, workerUrl })).rejects.toThrow(ModelParseError);
  });

  it('rejects frames outside the anim and a short output, and throws once disposed', async () => {
    const { mesh, anim } = synthetic;
    const pool = await createBakePool(mesh, anim, { workers: 2, workerUrl });
    await expect(pool.bake([0, 9])).rejects.toThrow(RangeError);
    await expect(pool.bake([1.5])).rejects.toThrow(RangeError);
    await expect(pool.bake([0, 1], new Float32Array(new SharedArrayBuffer(12)))).rejects.toThrow(/need a Float32Array of 120000 floats/);
    await expect(pool.bake([0], new Float32Array(pool.vertexCount * 3))).rejects.toThrow(/SharedArrayBuffer/);
    await expect(pool.bakeView([-1])).rejects.toThrow(RangeError);
    pool.dispose();
    await expect(pool.bake([0])).rejects.toThrow(/disposed/);
    await expect(pool.bakeView([0])).rejects.toThrow(/disposed/);
  });

  it('a worker script that fails to load rejects the pool instead of hanging', async () => {
    const { mesh, anim } = synthetic;
    await expect(createBakePool(mesh, anim, { workers: 1, workerUrl: join(REPO, 'dist', 'no-such-bake-worker.js') })).rejects.toThrow();
  });
});

describe('BakePool without workers', () => {
  let pool: BakePool;
  const { mesh, anim } = syntheticModel({ vertices: 3_000, joints: 12, frames: 5, seed: 3 }) as { mesh: Md5Mesh; anim: Md5Anim };
  beforeAll(async () => {
    pool = await BakePool.create(mesh, anim, { spawn: null, workers: 4 });
  });
  afterAll(() => pool.dispose());

  it('bakes on this thread, says why, and gives the same floats', async () => {
    expect(pool.workers).toBe(0);
    expect(pool.fallback).toMatch(/cross-origin isolated/);
    const frames = [4, 0, 2, 2];
    expect(firstDifference(await pool.bake(frames), await singleThread(mesh, anim, frames))).toBe(-1);
  });
});

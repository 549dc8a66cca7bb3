/**
 * IQM bakes across cores: a BakePool of real Node worker threads (dist/bake-worker.js) bakes, with workers sharing
 * one WebAssembly memory and with a memory each, the same floats bit for bit as `IqmPoser.poseFrame` frame by frame on
 * one thread — on Red Eclipse's player playing its run cycle (an animation-only file) and on random generated models
 * (fast-check, a fixed number of runs); the one-thread fallback does too; a model the poser refuses is refused.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { IqmModel } from '../../src/base/model.js';
import type { BackendName } from '../../src/kernels/backend.js';
import { createBackend } from '../../src/kernels/select.js';
import { IqmPoser } from '../../src/pose/iqm-poser.js';
import { BakePool } from '../../src/bake/pool.js';
import { createBakePool } from '../../src/bake/node.js';
import { syntheticIqmModel } from '../../../bench/synthetic-iqm.mjs';
import { iqmFile } from '../iqm/_corpus.js';
import { firstDifference } from '../helpers/compare.js';
import { REPO } from '../helpers/models.js';

const workerUrl = join(REPO, 'dist', 'bake-worker.js');

/** The reference: one poser on this thread posing the frames one at a time (`poseFrame`), each copied out. */
async function singleThread(mesh: IqmModel, animation: IqmModel, frames: number[], backend: BackendName = 'wasm-simd'): Promise<Float32Array> {
  const p = new IqmPoser(await createBackend(backend), mesh);
  p.setAnimation(animation);
  const span = p.vertexCount * 3;
  const out = new Float32Array(frames.length * span);
  frames.forEach((f, i) => out.set(p.poseFrame(f).positions, i * span));
  p.dispose();
  p.backend.dispose();
  return out;
}

const shuffledFrames = (n: number) => Array.from({ length: Math.min(2 * n, 30) }, (_, i) => (i * 7 + 3) % n).concat([0, n - 1]);

describe('IQM BakePool on Node worker threads', () => {
  beforeAll(() => {
    if (!existsSync(workerUrl)) throw new Error(`${workerUrl} is missing: run scripts/build.sh (or node scripts/bundle.mjs) first`);
  });

  for (const sharedMemory of [true, false]) {
    const mode = sharedMemory ? 'shared-memory' : 'worker-memory';
    it(`Red Eclipse's player on its run cycle: two workers (${mode}) bake exactly what one thread poses`, async () => {
      const mesh = iqmFile('player/male/RE_Player_male.iqm').model, anim = iqmFile('player/runcycle0.iqm').model;
      const frames = shuffledFrames(anim.frameCount);
      const pool = await createBakePool(mesh, anim, { workers: 2, workerUrl, sharedMemory });
      try {
        expect(pool.workers).toBe(2);
        expect(pool.mode).toBe(mode);
        const ref = await singleThread(mesh, anim, frames);
        const out = await pool.bake(frames);
        expect(out.buffer).toBeInstanceOf(SharedArrayBuffer);
        expect(out.length).toBe(frames.length * mesh.vertexCount * 3);
        expect(firstDifference(out, ref)).toBe(-1);
        expect(firstDifference(await pool.bakeView(frames), ref)).toBe(-1);
        // Frames posed, not the bind pose.
        expect(firstDifference(out.subarray(0, mesh.vertexCount * 3), mesh.positions!)).not.toBe(-1);
      } finally {
        pool.dispose();
      }
    });
  }

  it('random generated models, byte and float weights: two workers sharing memory bake what one thread poses', async () => {
    const arb = fc
      .record({ vertices: fc.integer({ min: 1, max: 2000 }), joints: fc.integer({ min: 1, max: 40 }), frames: fc.integer({ min: 1, max: 8 }), seed: fc.integer({ min: 1, max: 1 << 30 }), floatWeights: fc.boolean() })
      .chain((shape) => fc.record({ shape: fc.constant(shape), order: fc.array(fc.nat(shape.frames - 1), { minLength: 1, maxLength: 12 }) }));
    await fc.assert(
      fc.asyncProperty(arb, async ({ shape, order }) => {
        const model = syntheticIqmModel(shape) as IqmModel;
        const pool = await createBakePool(model, model, { workers: 2, workerUrl });
        try {
          expect(pool.mode).toBe('shared-memory');
          expect(firstDifference(await pool.bake(order), await singleThread(model, model, order))).toBe(-1);
        } finally {
          pool.dispose();
        }
      }),
      { numRuns: 12, seed: 31 },
    );
  });

  it('the scalar backend: workers with a memory each bake what the scalar poser poses', async () => {
    const model = syntheticIqmModel({ vertices: 5000, joints: 20, frames: 6, seed: 9, floatWeights: true }) as IqmModel;
    const pool = await createBakePool(model, model, { workers: 2, workerUrl, backend: 'wasm-scalar' });
    try {
      expect(pool.mode).toBe('worker-memory');
      const frames = [5, 0, 3, 3];
      expect(firstDifference(await pool.bake(frames), await singleThread(model, model, frames, 'wasm-scalar'))).toBe(-1);
    } finally {
      pool.dispose();
    }
  });

  it('refuses a model the poser refuses, frames outside the animation, and a mesh without skinning', async () => {
    const model = syntheticIqmModel({ vertices: 100, joints: 5, frames: 3, seed: 2 }) as IqmModel;
    const bad = { ...model, blendIndexes: model.blendIndexes!.slice() };
    bad.blendIndexes[0] = 40;
    await expect(createBakePool(bad, bad, { workers: 1, workerUrl })).rejects.toThrow(/vertex 0 blend index 40 names a joint past the 5/);
    await expect(createBakePool(model, { ...model, poses: { ...model.poses, count: 4 } }, { workers: 1, workerUrl })).rejects.toThrow(/ANIM_MESH_MISMATCH|poses/);
    await expect(createBakePool({ ...model, blendWeights: null }, model, { workers: 1, workerUrl })).rejects.toThrow(/without joints, blend indexes and weights/);
    const pool = await createBakePool(model, model, { workers: 2, workerUrl });
    await expect(pool.bake([0, 3])).rejects.toThrow(RangeError);
    pool.dispose();
  });
});

describe('IQM BakePool without workers', () => {
  it('bakes on this thread, says why, and gives the same floats', async () => {
    const model = syntheticIqmModel({ vertices: 3000, joints: 12, frames: 5, seed: 3 }) as IqmModel;
    const pool = await BakePool.createIqm(model, model, { spawn: null, workers: 4 });
    try {
      expect(pool.workers).toBe(0);
      expect(pool.fallback).toMatch(/cross-origin isolated/);
      const frames = [4, 0, 2, 2];
      expect(firstDifference(await pool.bake(frames), await singleThread(model, model, frames))).toBe(-1);
    } finally {
      pool.dispose();
    }
  });
});

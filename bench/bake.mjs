// Bakes across cores: one 1M-vertex bake (bench/synthetic.mjs, 16 frames) on this thread and over 1 and N worker
// threads (BakePool, N = the machine's cores), best of several interleaved rounds. Three single-thread baselines:
// `Md5Poser.bakeFrames` (its result is a view on WASM memory: nothing copied), the pool's own one-thread mode (the
// same bake copied into an array the caller owns), and a pool of one worker (the same work plus the copy into
// shared memory, on another thread). Workers pay that copy too: WASM memory cannot be shared without a threads
// build, so each worker copies its frames (12 bytes per vertex) from its module's memory into the output.
//   node bench/bake.mjs [--quick] [--json]      (needs dist/: bash scripts/build.sh)
import { availableParallelism } from 'node:os';
import { BakePool, buildSkinStream } from '../dist/advanced.js';
import { Md5Poser, createBackend, createBakePool } from '../dist/node.js';
import { formatRows, isMain } from './lib.mjs';
import { syntheticModel } from './synthetic.mjs';

export async function benchBake({ quick = false } = {}) {
  const vertices = quick ? 200_000 : 1_000_000, frameCount = 16, workers = Math.max(2, availableParallelism());
  const { mesh, anim } = syntheticModel({ vertices, joints: 128, frames: frameCount, seed: 1000 });
  const stream = buildSkinStream(mesh);
  const frames = Array.from({ length: frameCount }, (_, i) => i);
  const poser = new Md5Poser(await createBackend('wasm-simd'), mesh, { stream });
  poser.setAnim(anim);
  const here = await BakePool.create(mesh, anim, { stream, spawn: null });
  const one = await createBakePool(mesh, anim, { stream, workers: 1 });
  const many = await createBakePool(mesh, anim, { stream, workers });
  const output = () => new Float32Array(new SharedArrayBuffer(frameCount * vertices * 12));
  const intoHere = output(), intoOne = output(), intoMany = output();
  const tasks = {
    bakeFrames: async () => poser.bakeFrames(frames),
    'this thread': () => here.bake(frames, intoHere),
    '1 worker': () => one.bake(frames, intoOne),
    [`${workers} workers`]: () => many.bake(frames, intoMany),
  };
  const best = Object.fromEntries(Object.keys(tasks).map((k) => [k, Infinity]));
  for (let round = 0; round < (quick ? 3 : 7); round++) {
    for (const [name, run] of Object.entries(tasks)) {
      const t0 = performance.now();
      await run();
      best[name] = Math.min(best[name], performance.now() - t0);
    }
  }
  let identical = true;
  const ref = poser.bakeFrames(frames);
  for (let i = 0; i < ref.length && identical; i++) identical = ref[i] === intoMany[i];
  for (const p of [here, one, many]) p.dispose();
  poser.dispose();
  const many_ms = best[`${workers} workers`];
  return {
    vertices, frames: frameCount, workers, cpus: availableParallelism(), identical, ms: best,
    speedup_over_bakeFrames: best.bakeFrames / many_ms, speedup_over_this_thread: best['this thread'] / many_ms, speedup_over_1_worker: best['1 worker'] / many_ms,
  };
}

export function formatBakeTable(r) {
  return formatRows(
    [`bake of ${r.frames} frames × ${r.vertices} vertices (${r.cpus} cores)`, 'ms', `${r.workers} workers faster by`],
    Object.entries(r.ms).map(([k, ms]) => [k, ms.toFixed(1), `${(ms / r.ms[`${r.workers} workers`]).toFixed(2)}×`]),
  ) + `\n(the ${r.workers}-worker output equals bakeFrames bit for bit: ${r.identical})`;
}

if (isMain(import.meta.url)) {
  const result = await benchBake({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(formatBakeTable(result));
}

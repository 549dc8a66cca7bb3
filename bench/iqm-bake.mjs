// IQM bakes across cores: one 1M-vertex IQM bake (bench/synthetic-iqm.mjs: 78 joints as Red Eclipse's player, 16
// frames, byte weights) on this thread (`IqmPoser.bakeFrames`) and over worker threads (`createBakePool`), best of
// several interleaved rounds — the MD5 bake's method (bench/bake.mjs), in a process of its own for the same reason.
// The goal's ratio: 2 workers sharing one WebAssembly memory (`bakeView`) against `IqmPoser.bakeFrames` on one
// thread (both a view on WASM memory: the same work and the same kind of result), ≥ 1.7×.
//   node bench/iqm-bake.mjs [--quick] [--json]      (needs dist/: bash scripts/build.sh; bench/iqm.mjs runs it)
import { BakePool, IqmPoser, createWasmBackend } from '../dist/advanced.js';
import { createBakePool } from '../dist/node.js';
import { formatRows, interleavedBest, isMain, runIsolated, sameFloats } from './lib.mjs';
import { syntheticIqmModel } from './synthetic-iqm.mjs';

export async function benchIqmBake({ quick = false } = {}) {
  const vertices = quick ? 200_000 : 1_000_000, frameCount = 16, workers = 2;
  const model = syntheticIqmModel({ vertices, joints: 78, frames: frameCount, seed: 1000 });
  const frames = Array.from({ length: frameCount }, (_, i) => i);
  const backend = await createWasmBackend('simd');
  const poser = new IqmPoser(backend, model, { normals: false });
  const here = await BakePool.createIqm(model, model, { spawn: null });
  const one = await createBakePool(model, model, { workers: 1 });
  const many = await createBakePool(model, model, { workers });
  const separate = await createBakePool(model, model, { workers, sharedMemory: false });
  const output = () => new Float32Array(new SharedArrayBuffer(frameCount * vertices * 12));
  const intoHere = output(), intoMany = output(), intoSeparate = output();
  const manyName = `${workers} workers, shared memory (view)`;
  const tasks = {
    'IqmPoser.bakeFrames (view)': async () => poser.bakeFrames(frames),
    'this thread, into an owned array': () => here.bake(frames, intoHere),
    '1 worker, shared memory (view)': () => one.bakeView(frames),
    [manyName]: () => many.bakeView(frames),
    [`${workers} workers, shared memory, into an owned array`]: () => many.bake(frames, intoMany),
    [`${workers} workers, a memory each, into an owned array`]: () => separate.bake(frames, intoSeparate),
  };
  // Workers' modules tier up on their first calls (each worker runs one long call per bake): rounds enough for that.
  const best = await interleavedBest(tasks, quick ? 4 : 10);
  const ref = poser.bakeFrames(frames).slice();
  const same = (a) => sameFloats(ref, a);
  const identical = same(await many.bakeView(frames)) && same(intoMany) && same(intoSeparate) && same(intoHere);
  for (const p of [here, one, many, separate]) p.dispose();
  poser.dispose();
  backend.dispose();
  return {
    vertices, joints: 78, frames: frameCount, workers, identical, ms: best, modes: { shared: many.mode, separate: separate.mode },
    speedup_over_bakeFrames: best['IqmPoser.bakeFrames (view)'] / best[manyName],
    speedup_over_1_worker: best['1 worker, shared memory (view)'] / best[manyName],
  };
}

export function formatIqmBakeTable(r) {
  const ref = r.ms[`${r.workers} workers, shared memory (view)`];
  return formatRows(
    [`IQM bake of ${r.frames} frames × ${r.vertices} vertices, ${r.joints} joints`, 'ms', `${r.workers} workers (view) faster by`],
    Object.entries(r.ms).map(([k, ms]) => [k, ms.toFixed(1), `${(ms / ref).toFixed(2)}×`]),
  ) + `\n(every bake equals IqmPoser.bakeFrames bit for bit: ${r.identical})`;
}

/** `benchIqmBake` in a child process (see bench/bake.mjs's note). */
export function benchIqmBakeIsolated({ quick = false } = {}) {
  return runIsolated(import.meta.url, ['--json', ...(quick ? ['--quick'] : [])]);
}

if (isMain(import.meta.url)) {
  const result = await benchIqmBake({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(formatIqmBakeTable(result));
}

// Bakes across cores: one 1M-vertex bake (bench/synthetic.mjs, 16 frames) on this thread and over worker threads
// (BakePool, N = the machine's cores), best of several interleaved rounds.
//
// The goal's ratio is N workers sharing one WebAssembly memory (`bakeView`: the result is a view on that memory)
// against `Md5Poser.bakeFrames` on one thread (its result is a view on its module's memory): the same work and the
// same kind of result. The other rows say what the rest costs: the same pool copying the result into an array the
// caller owns (`bake(frames, into)`, each worker copying its own frames), one worker, a pool whose workers each have
// a module memory of their own (every float copied out once more), and this thread baking into an owned array.
//
// `npm run bench` runs it in a process of its own (`benchBakeIsolated`), as the parse suite: after the other suites, in
// their process, the same bake measured 2 workers at 36 ms and 1 worker at 71 ms against 27 and 51 ms alone (the
// main isolate's large heap and its GC threads share the two cores with the workers).
//   node bench/bake.mjs [--quick] [--json]      (needs dist/: bash scripts/build.sh)
import { availableParallelism } from 'node:os';
import { BakePool, buildSkinStream } from '../dist/advanced.js';
import { Md5Poser, createBackend, createBakePool } from '../dist/node.js';
import { formatRows, interleavedBest, isMain, runIsolated, sameFloats } from './lib.mjs';
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
  const separate = await createBakePool(mesh, anim, { stream, workers, sharedMemory: false });
  const output = () => new Float32Array(new SharedArrayBuffer(frameCount * vertices * 12));
  const intoHere = output(), intoMany = output(), intoSeparate = output();
  const manyName = `${workers} workers, shared memory (view)`;
  const tasks = {
    'bakeFrames (view)': async () => poser.bakeFrames(frames),
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
  const ms = (k) => best[k];
  return {
    vertices, frames: frameCount, workers, cpus: availableParallelism(), identical, ms: best, modes: { shared: many.mode, separate: separate.mode },
    speedup_over_bakeFrames: ms('bakeFrames (view)') / ms(manyName),
    speedup_over_1_worker: ms('1 worker, shared memory (view)') / ms(manyName),
    owned_speedup_over_this_thread: ms('this thread, into an owned array') / ms(`${workers} workers, shared memory, into an owned array`),
  };
}

export function formatBakeTable(r) {
  const ref = r.ms[`${r.workers} workers, shared memory (view)`];
  return formatRows(
    [`bake of ${r.frames} frames × ${r.vertices} vertices (${r.cpus} cores)`, 'ms', `${r.workers} workers (view) faster by`],
    Object.entries(r.ms).map(([k, ms]) => [k, ms.toFixed(1), `${(ms / ref).toFixed(2)}×`]),
  ) + `\n(every bake equals bakeFrames bit for bit: ${r.identical}; into an owned array, ${r.workers} workers are ${r.owned_speedup_over_this_thread.toFixed(2)}× this thread)`;
}

/** `benchBake` in a child process (see the note at the top). */
export function benchBakeIsolated({ quick = false } = {}) {
  return runIsolated(import.meta.url, ['--json', ...(quick ? ['--quick'] : [])]);
}

if (isMain(import.meta.url)) {
  const result = await benchBake({ quick: process.argv.includes('--quick') });
  if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else console.log(formatBakeTable(result));
}

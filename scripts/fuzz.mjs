#!/usr/bin/env node
// npm run fuzz [-- --inputs N] [--seed S] [--workers W] [--only md5mesh,md2,mdl,pak] [--no-sweep] [--minimize]
// npm run fuzz -- --only gltf [--inputs N] [--seed S] [--workers W]   (the glTF import: asynchronous, run on its own)
// npm run fuzz -- --only gltf-files (or gltf-deep)   (generated hostile glTFs, ts/test/fuzz/gltf-hostile.ts: likewise alone)
// npm run fuzz -- --only iqm-cfg (or framegroups) [--edge]   (grammar-aware, generated: ts/test/fuzz/grammar.ts; likewise
//   alone; --edge adds issue 36's own sizes as a fourth scale tier)
// npm run fuzz -- --only gltf-writers [--edge]   (hostile glTF converted to each id format with the default options and
//   written: ts/test/fuzz/gltf-writers.ts; likewise alone)
// npm run fuzz -- --only batch [--edge]   (convert --all's per-model conversion with a hostile member beside good ones:
//   ts/test/fuzz/batch-member.ts; likewise alone)
// npm run fuzz -- --coverage mdl [--runs N] [--seed S] [--save]   (coverage-guided, ts/test/fuzz/coverage.ts: one of
//   md2, md3, mdl, iqm, pak, zip, in this thread; --save re-chooses the kept corpus in fixtures/fuzz-corpus/<target>/)
//
// Long fuzzing runs of every parser (ts/test/fuzz/: the same mutators and invariant as the fixed-budget test in
// `npm test`). Input i of campaign S is a pure function of (S, i), so any failure is reproduced from two numbers.
// Worker threads run slices of the index range; each publishes the index it is on in shared memory, and a worker
// that stays on one input for --hang-ms is terminated and that input reported as a hang. Prints, per parser,
// inputs, accepted models, error codes seen, violations and inputs/s; writes target/fuzz/summary.json and, per
// violation, target/fuzz/violations/<parser>-<seed>-<index>.{bin,json} (minimised with --minimize).
// Exit status 1 when any input broke the invariant.
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
// Three levels below the repository, like ts/test/fuzz/, so the bundled helpers find ../shared/models the same way.
const LIB = join(REPO, 'target', 'fuzz', 'lib', 'fuzz-lib.mjs');
const OUT = join(REPO, 'target', 'fuzz');
/** The asynchronous campaigns, each run alone (`--only NAME`). */
const ASYNC = ['gltf', 'gltf-files', 'gltf-deep', 'iqm-cfg', 'framegroups', 'gltf-writers', 'batch'];
/** Of those, the grammar-aware campaigns (ts/test/fuzz/grammar.ts), whose step counts read the bundle's coverage. */
const GRAMMAR = ['iqm-cfg', 'framegroups'];

if (isMainThread) await main();
else await worker();

function args() {
  const a = process.argv.slice(2);
  const get = (name, dflt) => {
    const i = a.indexOf(`--${name}`);
    return i >= 0 && i + 1 < a.length ? a[i + 1] : dflt;
  };
  return {
    inputs: Number(get('inputs', '1000000')),
    seed: Number(get('seed', String(Date.now() % 1e9))),
    workers: Number(get('workers', String(Math.max(1, Math.min(2, availableParallelism()))))),
    only: get('only', '') ? get('only', '').split(',') : undefined,
    slice: Number(get('slice', '20000')),
    hangMs: Number(get('hang-ms', '20000')),
    sweep: !a.includes('--no-sweep'),
    minimize: a.includes('--minimize'),
    coverage: get('coverage', ''),
    runs: Number(get('runs', '20000')),
    save: a.includes('--save'),
    edge: a.includes('--edge'),
  };
}

async function bundle() {
  await build({
    entryPoints: [join(REPO, 'ts/test/fuzz/index.ts')],
    outfile: LIB,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'es2022',
    logLevel: 'warning',
    // package.json's "sideEffects" list is for the library's consumers; the fuzz bundle keeps the meter's install
    // import (ts/test/fuzz/alloc-meter-install.ts), which must run before glTF Transform loads
    ignoreAnnotations: true,
  });
  return import(pathToFileURL(LIB).href);
}

async function main() {
  const o = args();
  const lib = await bundle();
  mkdirSync(join(OUT, 'violations'), { recursive: true });
  if (o.coverage) return coverage(lib, o);
  // The glTF campaigns (gltf-target.ts, gltf-hostile.ts) are asynchronous with their own loops: each runs alone.
  const gltf = o.only?.find((n) => ASYNC.includes(n)) ?? false;
  if (gltf && o.only.length > 1) throw new Error(`--only ${gltf} runs on its own: give the other targets in another run`);
  if (gltf) o.sweep = false;
  const names = gltf ? [gltf] : lib.TARGETS.map((t) => t.name).filter((n) => !o.only || o.only.includes(n));
  console.log(`fuzz: seed ${o.seed}, ${o.inputs} inputs over ${names.join(', ')}, ${o.workers} worker(s)`);

  const stats = {};
  const violations = [];
  const t0 = performance.now();

  if (o.sweep) {
    // Deterministic: every seed cut at every block boundary.
    const s = lib.truncationSweep(1, o.only);
    lib.mergeStats(stats, s.stats);
    violations.push(...s.violations);
    const n = Object.values(s.stats).reduce((a, x) => a + x.inputs, 0);
    console.log(`fuzz: truncation sweep, ${n} inputs, ${s.violations.length} violation(s), ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }

  const slices = [];
  for (let s = 0; s < o.inputs; s += o.slice) slices.push([s, Math.min(o.slice, o.inputs - s)]);
  let done = 0;
  let lastReport = performance.now();
  const progress = new Int32Array(new SharedArrayBuffer(4 * o.workers));

  const hang = async (index, kind, detail) => {
    const made = gltf === 'gltf' ? await lib.makeGltfInput(o.seed, index) : GRAMMAR.includes(gltf) ? lib.makeGrammarInput(gltf, o.seed, index, o.edge) : gltf === 'gltf-writers' ? lib.makeWriterInput(o.seed, index, o.edge) : gltf === 'batch' ? { ...lib.makeBatchInput(o.seed, index, o.edge), bytes: new Uint8Array(0) } : gltf ? lib.makeHostileGltfInput(gltf, o.seed, index) : null;
    const input = made ? { ...made, ts: { target: { name: gltf } } } : lib.makeInput(o.seed, index, o.only);
    return { target: input.ts.target.name, seed: o.seed, index, from: input.from, ops: input.ops, kind, detail, bytes: input.bytes };
  };

  // One persistent worker per slot (seed loading costs a second); replaced when it hangs or dies.
  const runSlot = async (slot) => {
    let w = null;
    while (slices.length) {
      const [start, count] = slices.shift();
      w ??= new Worker(fileURLToPath(import.meta.url), { workerData: { lib: LIB, seed: o.seed, only: o.only, progress, slot, gltf, edge: o.edge } });
      const r = await runSlice(w, slot, start, count);
      lib.mergeStats(stats, r.stats);
      violations.push(...r.violations);
      done += r.ran;
      if (r.stoppedAt !== undefined) {
        // The input it was on is the violation; the rest of the slice goes back in the queue.
        violations.push(await hang(r.stoppedAt, r.kind, r.detail));
        const rest = start + count - r.stoppedAt - 1;
        if (rest > 0) slices.unshift([r.stoppedAt + 1, rest]);
        w = null;
      }
      if (performance.now() - lastReport > 10000) {
        lastReport = performance.now();
        const s = (performance.now() - t0) / 1000;
        console.log(`fuzz: ${done} inputs, ${violations.length} violation(s), ${(done / s).toFixed(0)} inputs/s`);
      }
    }
    await w?.terminate();
  };

  const runSlice = (w, slot, start, count) =>
    new Promise((resolve) => {
      Atomics.store(progress, slot, start);
      let last = start;
      let still = 0;
      let loading = true; // the first slice of a worker includes loading the seeds
      const finish = (r) => {
        clearInterval(timer);
        w.removeAllListeners('message');
        w.removeAllListeners('error');
        resolve(r);
      };
      const timer = setInterval(() => {
        const now = Atomics.load(progress, slot);
        if (now !== last) {
          last = now;
          still = 0;
          loading = false;
          return;
        }
        still += 1000;
        if (still >= o.hangMs * (loading ? 3 : 1)) {
          w.terminate();
          finish({ stats: {}, violations: [], ran: now - start, stoppedAt: now, kind: 'hang', detail: `no progress for ${still} ms` });
        }
      }, 1000);
      w.on('message', (r) => finish({ ...r, ran: count }));
      w.on('error', (e) => {
        // A worker that dies (out of memory, a native crash) fails the input it was on.
        const at = Atomics.load(progress, slot);
        finish({ stats: {}, violations: [], ran: at - start, stoppedAt: at, kind: 'worker-died', detail: String(e) });
      });
      w.postMessage({ start, count });
    });

  await Promise.all(Array.from({ length: o.workers }, (_, k) => runSlot(k)));
  const wall = (performance.now() - t0) / 1000;

  // Report.
  const rows = Object.entries(stats).map(([name, s]) => ({
    parser: name,
    inputs: s.inputs,
    accepted: s.accepted,
    violations: s.violations,
    'MB parsed': (s.inputBytes / 1e6).toFixed(1),
    'inputs/s (parse)': (s.inputs / (s.ms / 1000)).toFixed(0),
    'worst mem/limit': `${s.worstMemory.allocated} B for ${s.worstMemory.inputBytes} B (${(s.worstMemory.ratio * 100).toFixed(1)}%)`,
    'slowest': `${s.worstTime.ms.toFixed(1)} ms for ${s.worstTime.inputBytes} B`,
  }));
  console.table(rows);
  for (const [name, s] of Object.entries(stats)) {
    const codes = Object.entries(s.codes).sort((a, b) => b[1] - a[1]).map(([c, k]) => `${c} ${k}`).join(', ');
    console.log(`  ${name}: ${codes}`);
  }
  const total = Object.values(stats).reduce((a, s) => a + s.inputs, 0);
  console.log(`fuzz: ${total} inputs in ${wall.toFixed(1)} s (${(total / wall).toFixed(0)} inputs/s wall, ${o.workers} worker(s)); ${violations.length} violation(s)`);

  for (const v of violations) {
    const base = join(OUT, 'violations', `${v.target}-${v.seed}-${v.index}`);
    let bytes = v.bytes;
    if (o.minimize && v.kind !== 'hang' && v.kind !== 'worker-died' && !ASYNC.includes(v.target)) {
      const t = lib.TARGETS.find((x) => x.name === v.target);
      bytes = lib.minimize(t, v.bytes, v.kind);
    }
    writeFileSync(`${base}.bin`, bytes);
    writeFileSync(`${base}.json`, JSON.stringify({ ...v, bytes: undefined, size: v.bytes.length, minimized: bytes.length }, null, 2));
    console.log(`  ${v.kind} ${v.target} #${v.index} (${v.from}; ${v.ops.join(' ')}): ${v.detail.slice(0, 300)} → ${base}.bin`);
  }
  writeFileSync(join(OUT, 'summary.json'), JSON.stringify({ seed: o.seed, wallSeconds: wall, workers: o.workers, stats, violations: violations.length }, null, 2));
  process.exitCode = violations.length ? 1 : 0;
}

/** The coverage-guided campaign of one binary parser (ts/test/fuzz/coverage.ts), in this thread. */
async function coverage(lib, o) {
  const target = o.coverage;
  if (!lib.COVERAGE_TARGETS.includes(target)) throw new Error(`--coverage ${target}: one of ${lib.COVERAGE_TARGETS.join(', ')}`);
  const filter = lib.bundleFilter(pathToFileURL(LIB).href, readFileSync(LIB, 'utf8'));
  const seeds = await lib.coverageSeeds(target);
  const corpus = lib.keptCorpus(REPO, target);
  console.log(`fuzz: coverage-guided ${target}, seed ${o.seed}, ${o.runs} runs from ${seeds.length} generated seeds and ${corpus.length} kept inputs`);
  const t0 = performance.now();
  let last = t0;
  const r = lib.runCoverage({
    target, seed: o.seed, runs: o.runs, seeds, corpus, filter, timed: true,
    onInput: (i) => {
      if (performance.now() - last < 10000) return;
      last = performance.now();
      console.log(`fuzz: ${i + 1} runs, ${((i + 1) / ((last - t0) / 1000)).toFixed(0)} runs/s`);
    },
  });
  const wall = (performance.now() - t0) / 1000;
  const s = r.stats;
  const codes = Object.entries(s.codes).sort((a, b) => b[1] - a[1]).map(([c, k]) => `${c} ${k}`).join(', ');
  console.log(`fuzz: ${s.inputs} inputs in ${wall.toFixed(1)} s (${(s.inputs / wall).toFixed(0)} inputs/s), ${s.accepted} accepted; ${codes}`);
  console.log(`fuzz: library blocks reached: seeds ${r.seedBlocks}, + kept corpus ${r.corpusBlocks}, after the runs ${r.blocks}; features ${r.seedFeatures} → ${r.corpusFeatures} → ${r.features}; ${r.found} runs joined the queue (${r.queue.length} entries)`);
  console.log(`fuzz: worst memory ${s.worstMemory.allocated} B for ${s.worstMemory.inputBytes} B (${(s.worstMemory.ratio * 100).toFixed(1)}% of the bound), slowest ${s.worstTime.ms.toFixed(1)} ms for ${s.worstTime.inputBytes} B`);
  for (const v of r.violations) {
    const base = join(OUT, 'violations', `${target}-coverage-${v.seed}-${v.index}`);
    writeFileSync(`${base}.bin`, v.bytes);
    writeFileSync(`${base}.json`, JSON.stringify({ ...v, bytes: undefined, size: v.bytes.length }, null, 2));
    console.log(`  ${v.kind} ${target} run ${v.index} (${v.from}; ${v.ops.join(' ')}): ${v.detail.slice(0, 300)} → ${base}.bin`);
  }
  if (o.save) {
    const dir = join(REPO, lib.CORPUS_DIR, target);
    mkdirSync(dir, { recursive: true });
    const kept = lib.keepCorpus(r).map((e) => lib.trimKept(target, e, filter));
    for (const f of readdirSync(dir)) if (f.endsWith('.bin')) rmSync(join(dir, f));
    for (const bytes of kept) {
      let h = 0x811c9dc5;
      for (const b of bytes) h = Math.imul(h ^ b, 0x01000193);
      writeFileSync(join(dir, `${(h >>> 0).toString(16).padStart(8, '0')}.bin`), bytes);
    }
    console.log(`fuzz: kept ${kept.length} inputs (${kept.map((b) => b.length).join(', ')} bytes) in ${lib.CORPUS_DIR}/${target}/`);
  }
  writeFileSync(join(OUT, `coverage-${target}.json`), JSON.stringify({ seed: o.seed, runs: o.runs, wallSeconds: wall, stats: s, blocks: [r.seedBlocks, r.corpusBlocks, r.blocks], found: r.found, violations: r.violations.length }, null, 2));
  process.exitCode = r.violations.length ? 1 : 0;
}

async function worker() {
  const { lib: path, seed, only, progress, slot, gltf, edge } = workerData;
  const lib = await import(pathToFileURL(path).href);
  parentPort.on('message', async ({ start, count }) => {
    if (gltf) {
      const onInput = (i) => Atomics.store(progress, slot, i + 1);
      const r = gltf === 'gltf'
        ? await lib.runGltfCampaign({ seed, start, count, timed: true, useEvery: lib.CAMPAIGN_CADENCE.useEvery, onInput })
        : GRAMMAR.includes(gltf)
          ? await lib.runGrammarCampaign({ kind: gltf, seed, start, count, timed: true, edge, onInput, filter: lib.bundleFilter(pathToFileURL(path).href, readFileSync(path, 'utf8')) })
          : gltf === 'batch'
            ? await lib.runBatchCampaign({ seed, start, count, edge, onInput, filter: lib.bundleFilter(pathToFileURL(path).href, readFileSync(path, 'utf8')) })
          : gltf === 'gltf-writers'
            ? await lib.runWriterCampaign({ seed, start, count, edge, timed: true, onInput, filter: lib.bundleFilter(pathToFileURL(path).href, readFileSync(path, 'utf8'), /ts\/src\/|node_modules\/@gltf-transform\//) })
            : await lib.runHostileGltfCampaign({ kind: gltf, seed, start, count, timed: true, onInput });
      parentPort.postMessage(r);
      return;
    }
    const r = lib.runCampaign({
      seed,
      start,
      count,
      only,
      timed: true, // the time bound is this campaign's, never a test's
      ...lib.CAMPAIGN_CADENCE,
      onInput: (i) => Atomics.store(progress, slot, i + 1),
    });
    parentPort.postMessage(r);
  });
}

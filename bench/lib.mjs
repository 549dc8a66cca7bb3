// What the bench suites share: the real files of a format, best-of-rounds medians, and a plain-text table.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Bench } from 'tinybench';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const SHARED = join(ROOT, '..', 'shared', 'models');

/** Bundles `contents` (re-exports of ts/src modules, paths relative to ROOT) into `out` for Node and imports it:
 *  the floors dist/'s entry points do not carry. */
export async function bundleSource(out, contents) {
  mkdirSync(dirname(out), { recursive: true });
  await build({
    stdin: { contents, resolveDir: ROOT, loader: 'ts' },
    outfile: out, bundle: true, format: 'esm', platform: 'node', target: 'es2022', logLevel: 'warning',
  });
  return import(out);
}

/** Paths (relative to SHARED) of the MANIFEST's well-formed files of one format. */
export function sharedFiles(format) {
  const rows = readFileSync(join(SHARED, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1).map((r) => r.split('\t'));
  const files = rows.filter((c) => c[0] === format && !/malformed|\/invalid\//.test(c[1])).map((c) => c[1]);
  if (files.length === 0) throw new Error(`no ${format} in ${SHARED}/MANIFEST.tsv`);
  return files;
}

/**
 * Several short tinybench rounds, every task once per round; the best median (p50) per task in ms is kept, so a
 * transient stall (GC, the other core's load) spoils one round of one task, not the reported number.
 */
export async function bestMedians(rounds, benchOptions, addTasks) {
  const best = new Map();
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench(benchOptions);
    addTasks(bench);
    await bench.run();
    for (const t of bench.tasks) {
      const r = t.result;
      if (!r?.latency) throw new Error(`benchmark task ${t.name} did not complete`);
      best.set(t.name, Math.min(best.get(t.name) ?? Infinity, r.latency.p50 ?? r.latency.mean));
    }
  }
  return best;
}

/** Rows of cells as aligned text: the first column left-aligned, the others right-aligned. */
export function formatRows(head, body) {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/**
 * Best ms of each task over `rounds` rounds, the tasks interleaved within a round (a busy moment on a shared machine
 * then spoils one task of one round, not a ratio). Tasks may be async.
 */
export async function interleavedBest(tasks, rounds) {
  const best = Object.fromEntries(Object.keys(tasks).map((k) => [k, Infinity]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of Object.entries(tasks)) {
      const t0 = performance.now();
      await run();
      best[name] = Math.min(best[name], performance.now() - t0);
    }
  }
  return best;
}

/** Whether `a` starts with `ref`'s floats, bit for bit (Object.is: −0 and NaN told apart). */
export const sameFloats = (ref, a) => a.length >= ref.length && ref.every((x, i) => Object.is(x, a[i]));

/** The median of `xs` (the mean of the middle two for an even count). */
export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** True when the module at `url` is the script node was started with. */
export const isMain = (url) => Boolean(process.argv[1]) && fileURLToPath(url) === process.argv[1];

/**
 * Run a suite's script in a process of its own and return the JSON it prints on stdout (its progress goes to
 * stderr). The parse and bake suites measured 15–35% slower after the other suites in one process: the JIT and heap
 * state, and the GC threads, of unrelated work.
 */
export function runIsolated(scriptUrl, args) {
  const r = spawnSync(process.execPath, [fileURLToPath(scriptUrl), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${fileURLToPath(scriptUrl)} exited with ${r.status ?? r.signal}`);
  return JSON.parse(r.stdout);
}

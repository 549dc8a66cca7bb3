/**
 * `convert ARCHIVE_OR_DIR --all -o OUTDIR`: every model the input holds (load/catalog.ts: each .md2/.md3, each
 * player folder assembled, each .md5mesh with the .md5anims beside it) to a .glb under OUTDIR at its inner path
 * (`models/x/y.md3` → `OUTDIR/models/x/y.glb`, a player folder `models/players/sarge` → `…/sarge.glb`), on
 * `--jobs N` worker processes (batch-pool.ts: dist/cli.js itself, serving jobs, batch-worker.ts), each opening the
 * input itself. The workers are started before the catalog is read, and load while it is. Each model has a time
 * budget and each worker a heap budget (`--model-timeout`, `--model-memory`): a model over either fails as TIMEOUT
 * or RESOURCE_LIMIT, its worker is replaced, and the batch goes on to its summary.
 *
 * An output at least as new as its sources (archive members' times, files' mtimes) is skipped unless --force.
 * Every output path is `safeOutputPath(OUTDIR, inner)` (vfs/safe-path.ts): an inner path that would leave OUTDIR
 * fails as UNSAFE_PATH in the summary, like a member the archive itself refused to serve. `--slice I/N` keeps the
 * models whose index in the sorted catalog is I modulo N, so N machines given the same input and 0…N−1 convert
 * each model exactly once. Exit 1 when any model failed.
 */
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { ErrorCode, type ParseWarning, catalogModels, type CatalogEntry, type FormatEntry, openArchive } from '../../node.js';
import { formatForName, ARCHIVE_FILE_EXTENSIONS, safeOutputPath } from '../../files.js';
import { ARCHIVES } from '../format-words.js';
import { given, optionValue, UsageError, type OptionSpec, type ParsedArgs } from '../args.js';
import { openContainer, type OpenedInput } from '../inputs.js';
import { formatBytes } from '../output.js';
import { originRoot } from '../textures.js';
import { failure } from './batch-job.js';
import { DEFAULT_BATCH_BUDGET, startBatchPool, type BatchBudget, type QueuedBatchJob } from './batch-pool.js';
import { batchProgress } from './batch-progress.js';
import { BatchQueue } from './batch-queue.js';

const BATCH = 'batch (--all)';

export const BATCH_OPTIONS: OptionSpec[] = [
  { name: '--all', group: BATCH, help: `INPUT is an archive (${ARCHIVES}), a folder of them or a game folder: convert every model in it to OUTDIR/<inner path>.glb (a player folder to <folder>.glb, a model with the animation files beside it). -o names OUTDIR.` },
  { name: '--jobs', value: 'N', group: BATCH, help: 'Worker processes converting at once. Default: every core (os.availableParallelism()).' },
  { name: '--model-timeout', value: 'SECONDS', group: BATCH, help: `Wall time one model may take to convert; past it its worker is stopped and the model fails as TIMEOUT (Infinity: no limit). Default: ${DEFAULT_BATCH_BUDGET.seconds}.` },
  { name: '--model-memory', value: 'MB', group: BATCH, help: `V8 heap one worker may hold (--max-old-space-size); a model that needs more fails as RESOURCE_LIMIT and its worker is replaced (Infinity: V8's default). Default: ${DEFAULT_BATCH_BUDGET.heapMb}.` },
  { name: '--force', group: BATCH, help: 'With --all: convert even models whose output is already at least as new as their sources. Without: write an output even where it is one of the files read (the model, an --anim, a skin, an image; otherwise refused, OUTPUT_IS_INPUT, exit 2).' },
  { name: '--slice', value: 'I/N', group: BATCH, help: 'Only the models whose index in the sorted list is I modulo N (I from 0): N machines given 0/N … N−1/N convert each model once (e.g. --slice $JOB_COMPLETION_INDEX/8).' },
  { name: '--json', group: BATCH, help: 'Print the summary as one JSON object on stdout (every model: path, output, status, error code, warnings).' },
];

/** Options --all accepts besides its own: the rest act on one model's input. */
const WITH_ALL = new Set(['--output', '--z-up', '--skin', '--no-textures', '--limit', ...BATCH_OPTIONS.map((o) => o.name)]);

/** Refuses batch options without --all. */
export function refuseBatchOptions(a: ParsedArgs): void {
  for (const o of BATCH_OPTIONS) if (o.name !== '--force' && given(a, o.name)) throw new UsageError(`${o.name} is for --all (convert ARCHIVE_OR_DIR --all -o OUTDIR)`, 'convert');
}

type Status = 'converted' | 'up-to-date' | 'failed';

interface Row {
  path: string;
  kind: string;
  out: string | null;
  status: Status;
  bytes: number;
  code?: string;
  error?: string;
  warnings: string[];
}

function parseSlice(text: string | undefined): { index: number; count: number } | null {
  if (text === undefined) return null;
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m || Number(m[2]) < 1 || Number(m[1]) >= Number(m[2])) throw new UsageError(`--slice ${text}: expected I/N with 0 ≤ I < N, e.g. 0/4`, 'convert');
  return { index: Number(m[1]), count: Number(m[2]) };
}

/** `--model-timeout` / `--model-memory`: a number > 0 (`min` at least), or Infinity; the default when not given. */
function parseBudget(a: ParsedArgs, name: string, fallback: number, min: number): number {
  const text = optionValue(a, name);
  if (text === undefined) return fallback;
  const n = text === 'Infinity' ? Infinity : /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(n >= min)) throw new UsageError(`${name} ${text}: expected a number ≥ ${min}, or Infinity`, 'convert');
  return n;
}

function parseJobs(text: string | undefined): number {
  if (text === undefined) return availableParallelism();
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--jobs ${text}: expected a whole number ≥ 1`, 'convert');
  return n;
}

/** Inner output paths: `.glb` in place of the extension; where two would collide (y.md2, y.md3), both keep it. */
function outputNames(entries: readonly CatalogEntry[], formats: readonly FormatEntry[]): string[] {
  const folder = new Set(formats.filter((f) => f.folder).map((f) => f.id));
  const plain = entries.map((e) => (folder.has(e.kind) ? `${e.path}.glb` : e.path.replace(/\.[^./]*$/, '.glb')));
  const seen = new Map<string, number>();
  for (const p of plain) seen.set(p.toLowerCase(), (seen.get(p.toLowerCase()) ?? 0) + 1);
  return plain.map((p, i) => (seen.get(p.toLowerCase())! > 1 ? `${entries[i].path}.glb` : p));
}

/**
 * The input's warnings, each with the archive it concerns: an archive's own (unsafe member names), or for a game
 * folder the mount's (archives skipped) and those of each archive at its top, opened again for its directory only
 * (the mount does not pass them up).
 */
async function inputWarnings(input: string, fs: OpenedInput): Promise<(ParseWarning & { archive: string })[]> {
  const own = (fs.warnings ?? []).map((w) => ({ ...w, archive: input }));
  if (!(await stat(input)).isDirectory()) return own;
  const archives = (await readdir(input)).filter((n) => ARCHIVE_FILE_EXTENSIONS.some((x) => n.toLowerCase().endsWith(x))).sort();
  for (const name of archives) {
    const archive = await openArchive(join(input, name)).catch(() => null); // unreadable: already in the mount's warnings
    if (!archive) continue;
    own.push(...archive.warnings.map((w) => ({ ...w, archive: join(input, name) })));
    await archive.close();
  }
  return own;
}

/**
 * V8 flags for the worker processes (their `execArgv`; the heap budget is added by the pool). Both flags have been in
 * V8 since before Node 12. Measured on the bench archive (docs/benchmarks.md, "Batch conversion"), when the workers
 * were threads given these flags process-wide:
 *
 * - `--interrupt-budget`: V8 optimises a function once it has run about that many bytes of bytecode (66 KB in Node
 *   20), on background threads, and again after each deoptimisation. A batch runs many short, varied jobs, so every
 *   worker compiled its hot functions again and again as new models brought new paths and types (the md5mesh
 *   tokenizer's `write` ten times per worker): compiling took 1.3 s of CPU per worker beside 2.3 s of converting, on
 *   the cores the other workers need. Eight times the budget optimises later, on fuller type feedback: half the
 *   compiling, the converting thread itself no slower.
 * - `--initial-old-space-size`: a new isolate's old generation starts small and its limit grows only with the live
 *   heap, which in a worker stays near 8 MB while each model's arrays survive a scavenge or two: a full mark-compact
 *   every ~23 MB promoted, 33 per run of the bench archive on one worker. Starting at 64 MB leaves 5 (256 MB: 3),
 *   for 11% less wall time on `--jobs 1` and 6% on `--jobs 2`, and 20–30 MB more peak memory.
 */
const BATCH_V8_FLAGS = ['--interrupt-budget=540672', '--initial-old-space-size=64'];

interface BatchSettings {
  input: string;
  outDir: string;
  slice: { index: number; count: number } | null;
  force: boolean;
  yUp: boolean;
  textures: boolean;
  skin?: string;
}

/**
 * The catalog of the input as summary rows (models the archive refused to serve among them, failed), its notes, and
 * a job per model to convert (the others are up to date, or their output path is unsafe).
 */
async function planBatch(b: BatchSettings, formats: readonly FormatEntry[]): Promise<{ rows: Row[]; notes: string[]; jobs: QueuedBatchJob[] }> {
  const fs = await openContainer(b.input);
  let entries: CatalogEntry[];
  const rows: Row[] = [];
  const notes: string[] = [];
  let origins: string[] = [];
  try {
    entries = await catalogModels(fs, formats);
    for (const w of await inputWarnings(b.input, fs)) {
      // A model the archive refused to serve (its name would leave the game folder) is a model not converted.
      const name = /unsafe path ("(?:[^"\\]|\\.)*")/.exec(w.message);
      const model = name ? formatForName(JSON.parse(name[1]) as string, formats)?.id ?? null : null;
      if (w.code === ErrorCode.UnsafePath && model) rows.push({ path: JSON.parse(name![1]) as string, kind: model, out: null, status: 'failed', bytes: 0, code: w.code, error: `${w.archive}: ${w.code}: ${w.message}`, warnings: [] });
      else notes.push(`${w.archive}: warning ${w.code}: ${w.message}`);
    }
    // Every line of the batch names a model as its files' origins do (`pak0.pk3:models/x.md3`, a path on disk).
    for (const e of entries) {
      const f = await fs.file(e.files[0] ?? e.path);
      origins.push(f ? originRoot(f.origin, f.path) + e.path : e.path);
    }
  } finally {
    await fs.close();
  }
  // Output names over the whole catalog, so every slice names a model alike (collisions included).
  let names = outputNames(entries, formats);
  const slice = b.slice;
  if (slice) {
    const keep = (_: unknown, i: number) => i % slice.count === slice.index;
    entries = entries.filter(keep);
    names = names.filter(keep);
    origins = origins.filter(keep);
  }
  const jobs: QueuedBatchJob[] = [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const row: Row = { path: e.path, kind: e.kind, out: null, status: 'failed', bytes: 0, warnings: [] };
    rows.push(row);
    const origin = origins[i];
    try {
      row.out = safeOutputPath(b.outDir, names[i]);
    } catch (err) {
      Object.assign(row, failure(origin, err));
      continue;
    }
    const existing = await stat(row.out).catch(() => null);
    if (!b.force && existing && e.mtimeMs !== undefined && existing.mtimeMs >= e.mtimeMs) {
      row.status = 'up-to-date';
      continue;
    }
    jobs.push({ id: rows.length - 1, kind: e.kind, path: e.path, origin, anims: e.anims, out: row.out, outDir: b.outDir, yUp: b.yUp, textures: b.textures, ...(b.skin ? { skin: b.skin } : {}), size: e.size });
  }
  return { rows, notes, jobs };
}

export async function convertAll(a: ParsedArgs, formats: readonly FormatEntry[]): Promise<number> {
  if (a.positionals.length !== 1) throw new UsageError('convert --all takes one INPUT (an archive, a folder of them or a game folder)', 'convert');
  const input = a.positionals[0];
  const outDir = optionValue(a, '--output');
  if (!outDir) throw new UsageError('convert --all needs -o OUTDIR (the folder to write into)', 'convert');
  for (const k of [...a.options.keys(), ...a.flags]) if (!WITH_ALL.has(k)) throw new UsageError(`${k} acts on one model; --all converts every model with the defaults (--z-up, --skin, --no-textures and --limit are allowed)`, 'convert');
  const threads = parseJobs(optionValue(a, '--jobs'));
  // A heap under 16 MB cannot hold the CLI's own code and one small model (V8 itself wants a few MB).
  const budget: BatchBudget = { seconds: parseBudget(a, '--model-timeout', DEFAULT_BATCH_BUDGET.seconds, 0.001), heapMb: parseBudget(a, '--model-memory', DEFAULT_BATCH_BUDGET.heapMb, 16) };
  const slice = parseSlice(optionValue(a, '--slice'));
  const skin = optionValue(a, '--skin');
  if (skin && a.flags.has('--no-textures')) throw new UsageError('--skin resolves textures, which --no-textures turns off', 'convert');
  const started = performance.now();

  // Started before the catalog is read: the workers load the CLI's code and open the input meanwhile. Those left
  // without a job (everything up to date, fewer models than threads) are terminated.
  const pool = startBatchPool(input, threads, { budget, v8Flags: BATCH_V8_FLAGS });
  let plan: Awaited<ReturnType<typeof planBatch>>;
  try {
    plan = await planBatch({ input, outDir, slice, force: a.flags.has('--force'), yUp: !a.flags.has('--z-up'), textures: !a.flags.has('--no-textures'), skin }, formats);
    if (plan.jobs.length) await mkdir(outDir, { recursive: true });
  } catch (e) {
    await pool.close();
    throw e;
  }
  const { rows, notes, jobs } = plan;
  const progress = batchProgress(jobs.length, jobs.reduce((n, j) => n + j.size, 0));
  const sizes = new Map(jobs.map((j) => [j.id, j.size]));
  await pool.run(new BatchQueue(jobs, threads), (r) => {
    const row = rows[r.id];
    row.status = r.ok ? 'converted' : 'failed';
    row.bytes = r.bytes;
    row.warnings = r.warnings;
    if (!r.ok) Object.assign(row, { code: r.code, error: r.error });
    progress.tick(sizes.get(r.id) ?? 0);
  });
  progress.end();
  const seconds = (performance.now() - started) / 1000;

  const by = (s: Status) => rows.filter((r) => r.status === s);
  const converted = by('converted');
  const failed = by('failed');
  const warned = rows.filter((r) => r.warnings.length);
  const warningCount = warned.reduce((n, r) => n + r.warnings.length, 0) + notes.length;
  const workers = Math.min(threads, Math.max(1, jobs.length));
  const line =
    `converted ${converted.length} (${formatBytes(converted.reduce((n, r) => n + r.bytes, 0))}), up to date ${by('up-to-date').length}, ` +
    `failed ${failed.length}, warnings ${warningCount}; ${rows.length} models in ${seconds.toFixed(1)} s on ${workers} worker${workers === 1 ? '' : 's'}` +
    (slice ? ` (slice ${slice.index}/${slice.count})` : '');
  if (a.flags.has('--json')) {
    process.stdout.write(JSON.stringify({ input, outDir, jobs: threads, slice, seconds, converted: converted.length, upToDate: by('up-to-date').length, failed: failed.length, warnings: warningCount, notes, models: rows }) + '\n');
  } else {
    for (const n of notes) process.stderr.write(n + '\n');
    for (const r of warned) for (const w of r.warnings) process.stderr.write(w + '\n');
    for (const r of failed) process.stderr.write(`failed: ${r.error}\n`);
  }
  process.stderr.write(line + '\n');
  return failed.length ? 1 : 0;
}

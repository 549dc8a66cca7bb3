/**
 * `convert ARCHIVE_OR_DIR --all -o OUTDIR`: every model the input holds (load/catalog.ts: each .md2/.md3, each
 * player folder assembled, each .md5mesh with the .md5anims beside it) to a .glb under OUTDIR at its inner path
 * (`models/x/y.md3` → `OUTDIR/models/x/y.glb`, a player folder `models/players/sarge` → `…/sarge.glb`), on
 * `--jobs N` worker threads (dist/cli.js itself, serving jobs: batch-worker.ts), each opening the input itself.
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
import { Worker } from 'node:worker_threads';
import { ErrorCode, type ParseWarning } from '../../base/errors.js';
import { formatForName } from '../../formats/format.js';
import { catalogModels, type CatalogEntry } from '../../registry/catalog.js';
import { type FormatEntry } from '../../registry/entry.js';
import { ARCHIVE_EXTENSIONS } from '../../vfs/game-dir.js';
import { safeOutputPath } from '../../vfs/safe-path.js';
import { openArchive } from '../../vfs/node.js';
import { given, optionValue, UsageError, type OptionSpec, type ParsedArgs } from '../args.js';
import { cliEntry } from '../entry.js';
import { openContainer, type OpenedInput } from '../inputs.js';
import { formatBytes } from '../output.js';
import { failure, type BatchJob, type BatchResult } from './batch-job.js';
import { batchProgress } from './batch-progress.js';

const BATCH = 'batch (--all)';

export const BATCH_OPTIONS: OptionSpec[] = [
  { name: '--all', group: BATCH, help: 'INPUT is an archive (.pk3 .pk4 .dpk), a folder of them or a game folder: convert every model in it to OUTDIR/<inner path>.glb (a player folder to <folder>.glb, an .md5mesh with the .md5anims beside it). -o names OUTDIR.' },
  { name: '--jobs', value: 'N', group: BATCH, help: 'Worker threads converting at once. Default: every core (os.availableParallelism()).' },
  { name: '--force', group: BATCH, help: 'Convert even models whose output is already at least as new as their sources.' },
  { name: '--slice', value: 'I/N', group: BATCH, help: 'Only the models whose index in the sorted list is I modulo N (I from 0): N machines given 0/N … N−1/N convert each model once (e.g. --slice $JOB_COMPLETION_INDEX/8).' },
  { name: '--json', group: BATCH, help: 'Print the summary as one JSON object on stdout (every model: path, output, status, error code, warnings).' },
];

/** Options --all accepts besides its own: the rest act on one model's input. */
const WITH_ALL = new Set(['--output', '--z-up', '--skin', '--no-textures', ...BATCH_OPTIONS.map((o) => o.name)]);

/** Refuses batch options without --all. */
export function refuseBatchOptions(a: ParsedArgs): void {
  for (const o of BATCH_OPTIONS) if (given(a, o.name)) throw new UsageError(`${o.name} is for --all (convert ARCHIVE_OR_DIR --all -o OUTDIR)`, 'convert');
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
  const archives = (await readdir(input)).filter((n) => ARCHIVE_EXTENSIONS.some((x) => n.toLowerCase().endsWith(x))).sort();
  for (const name of archives) {
    const archive = await openArchive(join(input, name)).catch(() => null); // unreadable: already in the mount's warnings
    if (!archive) continue;
    own.push(...archive.warnings.map((w) => ({ ...w, archive: join(input, name) })));
    await archive.close();
  }
  return own;
}

/** Runs `jobs` on `threads` workers; `onResult` as each finishes. */
async function runPool(input: string, jobs: readonly BatchJob[], threads: number, onResult: (r: BatchResult) => void): Promise<void> {
  let next = 0;
  // The CLI's entry (dist/cli.js), which serves jobs when started as a worker (main.ts, entry.ts).
  const url = cliEntry();
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const w = new Worker(url, { workerData: { input } });
      let current: BatchJob | undefined;
      const feed = () => {
        current = jobs[next++];
        w.postMessage(current ?? null);
        if (!current) resolve();
      };
      w.on('message', (r: BatchResult) => {
        onResult(r);
        feed();
      });
      w.on('error', (e) => {
        // A worker that dies (out of memory …) fails its job; the others carry on.
        if (current) onResult({ id: current.id, ok: false, bytes: 0, warnings: [], ...failure(current.path, e) });
        current = undefined;
        resolve();
      });
      w.on('exit', () => resolve());
      w.once('online', feed);
      w.on('messageerror', reject);
    });
  await Promise.all(Array.from({ length: Math.min(threads, jobs.length) }, one));
}

export async function convertAll(a: ParsedArgs, formats: readonly FormatEntry[]): Promise<number> {
  if (a.positionals.length !== 1) throw new UsageError('convert --all takes one INPUT (an archive, a folder of them or a game folder)', 'convert');
  const input = a.positionals[0];
  const outDir = optionValue(a, '--output');
  if (!outDir) throw new UsageError('convert --all needs -o OUTDIR (the folder to write into)', 'convert');
  for (const k of [...a.options.keys(), ...a.flags]) if (!WITH_ALL.has(k)) throw new UsageError(`${k} acts on one model; --all converts every model with the defaults (--z-up, --skin and --no-textures are allowed)`, 'convert');
  const threads = parseJobs(optionValue(a, '--jobs'));
  const slice = parseSlice(optionValue(a, '--slice'));
  const force = a.flags.has('--force');
  const started = performance.now();

  const fs = await openContainer(input);
  let entries: CatalogEntry[];
  const rows: Row[] = [];
  const notes: string[] = [];
  try {
    entries = await catalogModels(fs, formats);
    for (const w of await inputWarnings(input, fs)) {
      // A model the archive refused to serve (its name would leave the game folder) is a model not converted.
      const name = /unsafe path ("(?:[^"\\]|\\.)*")/.exec(w.message);
      const model = name ? formatForName(JSON.parse(name[1]) as string, formats)?.id ?? null : null;
      if (w.code === ErrorCode.UnsafePath && model) rows.push({ path: JSON.parse(name![1]) as string, kind: model, out: null, status: 'failed', bytes: 0, code: w.code, error: `${w.archive}: ${w.code}: ${w.message}`, warnings: [] });
      else notes.push(`${w.archive}: warning ${w.code}: ${w.message}`);
    }
  } finally {
    await fs.close();
  }
  // Output names over the whole catalog, so every slice names a model alike (collisions included).
  let names = outputNames(entries, formats);
  if (slice) {
    const keep = (_: unknown, i: number) => i % slice.count === slice.index;
    entries = entries.filter(keep);
    names = names.filter(keep);
  }
  const jobs: BatchJob[] = [];
  const yUp = !a.flags.has('--z-up');
  const skin = optionValue(a, '--skin');
  if (skin && a.flags.has('--no-textures')) throw new UsageError('--skin resolves textures, which --no-textures turns off', 'convert');
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    const row: Row = { path: e.path, kind: e.kind, out: null, status: 'failed', bytes: 0, warnings: [] };
    rows.push(row);
    try {
      row.out = safeOutputPath(outDir, names[i]);
    } catch (err) {
      Object.assign(row, failure(e.path, err));
      continue;
    }
    const existing = await stat(row.out).catch(() => null);
    if (!force && existing && e.mtimeMs !== undefined && existing.mtimeMs >= e.mtimeMs) {
      row.status = 'up-to-date';
      continue;
    }
    jobs.push({ id: rows.length - 1, kind: e.kind, path: e.path, anims: e.anims, out: row.out, outDir, yUp, textures: !a.flags.has('--no-textures'), ...(skin ? { skin } : {}) });
  }
  if (jobs.length) await mkdir(outDir, { recursive: true });

  const sizeOf = new Map(entries.map((e) => [e.path, e.size]));
  // Biggest first (longest-processing-time order): a large player or md5anim started last would leave the other
  // workers idle at the end.
  jobs.sort((x, y) => (sizeOf.get(y.path) ?? 0) - (sizeOf.get(x.path) ?? 0));
  const progress = batchProgress(jobs.length, jobs.reduce((n, j) => n + (sizeOf.get(j.path) ?? 0), 0));
  await runPool(input, jobs, threads, (r) => {
    const row = rows[r.id];
    row.status = r.ok ? 'converted' : 'failed';
    row.bytes = r.bytes;
    row.warnings = r.warnings;
    if (!r.ok) Object.assign(row, { code: r.code, error: r.error });
    progress.tick(sizeOf.get(row.path) ?? 0);
  });
  progress.end();
  const seconds = (performance.now() - started) / 1000;

  const by = (s: Status) => rows.filter((r) => r.status === s);
  const converted = by('converted');
  const failed = by('failed');
  const warned = rows.filter((r) => r.warnings.length);
  const warningCount = warned.reduce((n, r) => n + r.warnings.length, 0) + notes.length;
  const line =
    `converted ${converted.length} (${formatBytes(converted.reduce((n, r) => n + r.bytes, 0))}), up to date ${by('up-to-date').length}, ` +
    `failed ${failed.length}, warnings ${warningCount}; ${rows.length} models in ${seconds.toFixed(1)} s on ${Math.min(threads, Math.max(1, jobs.length))} worker${threads === 1 ? '' : 's'}` +
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

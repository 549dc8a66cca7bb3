/**
 * One job of `convert --all` (batch.ts makes them, batch-pool.ts hands them out, batch-worker.ts runs them): a catalog
 * entry read from the opened input and exported as .glb (`convertJob`), then written under OUTDIR (`writeJob`: the
 * worker converts its next job meanwhile). Plain data in and out, so it crosses a worker boundary.
 * The output path was checked by `safeOutputPath` before the job was made; here the write is also refused when the
 * deepest existing folder on the way resolves (through a symbolic link) outside OUTDIR, and a file is written under
 * a temporary name then renamed, so an interrupted batch never leaves a partial .glb that looks up to date.
 */
import { mkdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import { threadId } from 'node:worker_threads';
import { ErrorCode, ModelParseError, type GltfOptions, openModelSet, type FormatEntry, toGlb, type FileSystem } from '../../node.js';
import { type MaterialResolver, resolveModelTextures } from '../../textures.js';
import { entryFor } from '../../files.js';
import { InputError } from '../inputs.js';
import { describeInputError, isSystemError } from '../report.js';
import { materialWarnings, originRoot } from '../textures.js';
import { exportWarnings, warningLines } from '../warnings.js';
import { baseName } from './gltf-options.js';
import { setWarnings } from './pipeline.js';

export interface BatchJob {
  id: number;
  /** The id of the model's format (a catalog entry's kind). */
  kind: string;
  /** The model file, or the folder of a folder format. */
  path: string;
  /** How messages name it: with the archive or folder it is in (`pak0.pk3:models/x.md3`), as its files' origins do. */
  origin: string;
  /** What plays on it (found beside it by the catalog). */
  anims: readonly string[];
  /** Where to write (already checked to lie inside outDir). */
  out: string;
  outDir: string;
  yUp: boolean;
  /** Resolve and embed textures (from the same FileSystem: an archive's or game folder's root is the game root). */
  textures: boolean;
  skin?: string;
}

/**
 * What a worker sends: `{ ready }` once it listens (the pool sends nothing before: a message that comes before the
 * listener is lost), `{ started }` as it begins converting a job, then each job's result, in the order sent.
 */
export type BatchMessage = BatchResult | { started: number } | { ready: true };

export interface BatchResult {
  id: number;
  ok: boolean;
  /** Bytes written. */
  bytes: number;
  /** Grouped warning lines (`file: warning CODE …`). */
  warnings: string[];
  /** On failure: the error code (`BAD_COUNT`, `ENOENT`, `UNSAFE_PATH` …) and the one-line report. */
  code?: string;
  error?: string;
}

const errorCode = (e: unknown): string => {
  const c = e instanceof InputError ? e.cause : e;
  return c instanceof ModelParseError ? c.code : isSystemError(c) ? c.code : 'ERROR';
};

/** The one-line report and code of a failure. */
export function failure(path: string, e: unknown): { code: string; error: string } {
  return { code: errorCode(e), error: describeInputError(e instanceof InputError ? e : new InputError(path, e)) };
}

/** A job's failed result: `e` reported against `name` (a path, or an origin `pak0.pk3:models/x.md3`). */
export function failedResult(id: number, name: string, e: unknown): BatchResult {
  return { id, ok: false, bytes: 0, warnings: [], ...failure(name, e) };
}

/** Refuses `out` when the deepest folder of it that exists resolves outside `outDir`. */
async function assertInside(out: string, outDir: string): Promise<void> {
  const root = await realpath(outDir);
  let dir = dirname(out);
  for (;;) {
    const real = await realpath(dir).catch(() => null);
    if (real !== null) {
      if (real !== root && !real.startsWith(root + sep)) throw new ModelParseError(ErrorCode.UnsafePath, `${out}: ${dir} leads outside the output folder (a symbolic link)`, { offset: 0 });
      return;
    }
    const up = dirname(dir);
    if (up === dir) return;
    dir = up;
  }
}

/** A job read and converted: the .glb to write and its warning lines. */
export interface ConvertedJob {
  glb: Uint8Array;
  warnings: string[];
}

/**
 * Reads and converts one job (the CPU of it); the failed result instead when it cannot be. `resolver` (one per
 * worker, over `fs`) keeps shader scripts and lookups across its models.
 */
export async function convertJob(fs: FileSystem, job: BatchJob, formats: readonly FormatEntry[], resolver?: MaterialResolver): Promise<ConvertedJob | BatchResult> {
  try {
    const format = entryFor(job.kind, formats);
    if (!format) throw new ModelParseError(ErrorCode.UnknownFormat, `no format ${job.kind} in this build`, { offset: 0 }).inFile(job.path);
    // A batch plays the anims lying beside a mesh, and a folder may hold two meshes' anims: one that does not fit is skipped.
    const set = await openModelSet(fs, job.path, { formats, format: format.folder ? undefined : format, companions: format.companionsByDefault ? 'beside' : job.anims, onMismatch: 'skip' });
    const exportList: NonNullable<GltfOptions['warnings']> = [];
    // the set carries its registration: textures and export through it, the format not looked for again
    const t = job.textures ? await resolveModelTextures(fs, set, job.path, { skin: job.skin, resolver }) : undefined;
    const glb = await toGlb(set, { name: baseName(job.path), yUp: job.yUp, warnings: exportList, ...(t ? { textures: t } : {}) });
    return { glb, warnings: warningLines([...setWarnings(set), ...(t ? materialWarnings(set.origin, t, originRoot(set.origin, job.path)) : []), ...exportWarnings(set.origin, exportList)]) };
  } catch (e) {
    return failedResult(job.id, job.origin, e);
  }
}

/** The temporary name a worker (process `pid`, thread `thread`) writes `out` under before renaming it. */
export const tempOutput = (out: string, pid: number, thread: number) => `${out}.${pid}-${thread}.tmp`;

/** Writes a converted job's .glb to `job.out` (under a temporary name, then renamed); its result. */
export async function writeJob(job: BatchJob, converted: ConvertedJob): Promise<BatchResult> {
  const { glb, warnings } = converted;
  try {
    await assertInside(job.out, job.outDir);
    await mkdir(dirname(job.out), { recursive: true });
    const tmp = tempOutput(job.out, process.pid, threadId);
    try {
      await writeFile(tmp, glb);
      await rename(tmp, job.out);
    } catch (e) {
      await rm(tmp, { force: true });
      throw new InputError(job.out, e);
    }
    return { id: job.id, ok: true, bytes: glb.length, warnings };
  } catch (e) {
    return failedResult(job.id, job.origin, e);
  }
}

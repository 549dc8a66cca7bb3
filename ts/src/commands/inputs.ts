/**
 * What a command's INPUT names, and the model read from it — one way for every command and every form:
 * - a model file or a folder of a folder format (a Quake 3 player) on disk, read where it lies;
 * - a model inside an archive, `ARCHIVE:INNER` (`pak0.pk3:models/players/sarge`) or a path running through the
 *   archive file (`baseq3/pak0.pk3/models/x.md3`): the same thing, read from the archive member by member;
 * - an archive, a folder of them or a game folder (`inspect` lists it, `convert --all` converts what it holds).
 * The model is read by the model-set loader with the files that play on it (`--anim`), so every failure names its
 * file (`ModelParseError.file`). The split of `ARCHIVE:INNER` is at the first colon right after an archive
 * extension, so a Windows drive letter (`C:\q3\pak0.pk3:models/x.md3`) is never taken for one; a path that exists as
 * given is never split.
 */
import { open, stat } from 'node:fs/promises';
import { sep } from 'node:path';
import { ErrorCode, ModelParseError, type ParseWarning, looseModelRoot, openModelSet, type ModelSet, type FormatEntry, type FileSystem, lazyFolderFileSystem, openPath } from '../node.js';
import { detectFile, folderChildren, folderOpening, readableExtensions, ARCHIVE_FILE_EXTENSIONS } from '../files.js';
import { UsageError } from './args.js';
import { badInput, InputError } from './input-error.js';

export { badInput, InputError };

/** Runs `f`, attributing a failure that names no file of its own (a system error, a plain Error) to `file`. */
export async function load<T>(file: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw e instanceof InputError || (e instanceof ModelParseError && e.file !== undefined) ? e : new InputError(file, e);
  }
}

const ARCHIVE_SPLIT = new RegExp(`^(.+?(?:${ARCHIVE_FILE_EXTENSIONS.map((x) => x.replace('.', '\\.')).join('|')})):(.*)$`, 'i');
const isArchiveName = (name: string) => ARCHIVE_FILE_EXTENSIONS.some((x) => name.toLowerCase().endsWith(x));
const exists = (path: string) => stat(path).then(() => true, () => false);

export interface ArchivePath {
  archive: string;
  /** '/'-separated, no leading or trailing '/' ('' for the archive's root). */
  inner: string;
  /** `ARCHIVE:INNER`, or a path running through the archive file (`ARCHIVE/INNER`). */
  form: 'colon' | 'slash';
}

/** `ARCHIVE:INNER` or `…/ARCHIVE/INNER` split, or null when `arg` names no archive member (or exists as a path itself). */
export async function archivePath(arg: string): Promise<ArchivePath | null> {
  const colon = ARCHIVE_SPLIT.exec(arg);
  if (colon && !(await exists(arg))) return { archive: colon[1], inner: colon[2].replace(/\\/g, '/').replace(/^\/+|\/+$/g, ''), form: 'colon' };
  if (await exists(arg)) return null;
  // A path through an archive file: the first segment that is an archive file on disk.
  const parts = arg.split(/[\\/]/);
  for (let i = 0; i < parts.length - 1; i++) {
    const prefix = parts.slice(0, i + 1).join(sep) || sep;
    if (isArchiveName(parts[i]) && (await stat(prefix).then((s) => s.isFile(), () => false))) return { archive: prefix, inner: parts.slice(i + 1).join('/'), form: 'slash' };
  }
  return null;
}

/** Whether `path` is a folder or an archive file (by extension): an input that holds models, not a model. */
export async function isContainer(path: string): Promise<boolean> {
  const s = await stat(path).catch(() => null);
  if (!s) return false;
  return s.isDirectory() || isArchiveName(path);
}

export type OpenedInput = FileSystem & { close(): Promise<void>; warnings?: readonly ParseWarning[] };

/** An archive or a game folder as one FileSystem (a failure to open it is bad input naming `path`). */
export function openContainer(path: string): Promise<OpenedInput> {
  return load(path, () => openPath(path));
}

/** Where a command's model comes from: a file system, the model's path in it, and how to name it in messages. */
export interface ModelInput {
  fs: FileSystem;
  /** The model file or folder, in `fs`. */
  path: string;
  /** For messages: the input as given (`pak0.pk3:models/x.md3`, `models/x.md3`). */
  label: string;
  /** The archive it is in, or null for a file or folder on disk. */
  archive: ArchivePath | null;
  /** The game's root in `fs`: what a model's format reads beside it stays under it ('' for an archive's root). */
  root: string;
  close(): Promise<void>;
}

/** What INPUT names (see the file comment); nothing is read but an archive's directory. */
export async function modelInput(arg: string): Promise<ModelInput> {
  const member = await archivePath(arg);
  if (!member) {
    // a file system over the whole disk: the model's side files are confined to the game folder it sits in
    const { path, root } = await looseModelRoot(arg);
    return { fs: lazyFolderFileSystem(''), path, label: arg, archive: null, root, close: async () => {} };
  }
  const fs = await openContainer(member.archive);
  return { fs, path: member.inner, label: member.form === 'colon' ? `${member.archive}:${member.inner}` : arg, archive: member, root: '', close: () => fs.close() };
}

/** The format of the model INPUT names (a folder format for a folder), or why it is not one the command can read. */
export async function inputFormat(input: ModelInput, formats: readonly FormatEntry[]): Promise<FormatEntry> {
  const file = input.path ? await input.fs.file(input.path) : null;
  if (file) {
    // a file its folder's format opens whole (Tremulous' nonseg.md3, a buildable's models) is that folder's model
    const whole = await load(input.label, () => folderOpening(input.fs, file, formats));
    if (whole) return whole.format as FormatEntry;
    const format = (await load(input.label, () => detectFile(file, formats))) as FormatEntry | null;
    if (!format) throw badInput(input.label, `not a model file this tool reads (${readableExtensions(formats)}): no known extension, and its first bytes are none of those formats'`);
    if (format.role === 'refused') throw badInput(input.label, `${format.refusal ?? format.title} (it reads ${readableExtensions(formats)})`);
    return format;
  }
  const folderFormats = formats.filter((f) => f.folder);
  const children = await load(input.label, () => folderChildren(input.fs, input.path));
  const matched = folderFormats.find((f) => f.folder!.matches(children));
  if (matched) return matched;
  // a folder in an archive gets the message a loose folder gets (what it lacks, which model in it to name); only a
  // path that is nothing in the archive is said to be so
  if (input.archive && children.size === 0) throw badInput(input.label, `no such model file or ${folderFormats.map((f) => f.folder!.noun).join(' or ')} in the archive`);
  if (!input.archive) await load(input.label, () => stat(input.path)); // a missing path: the file system's own error (ENOENT)
  // A folder of loose models (an md5mesh with its anims, MD2s): say how to convert one of them instead.
  const form = folderFormats[0]?.folder;
  const missing = form ? form.required.filter((n) => !children.has(n)) : [];
  const names = [...children.values()].map((f) => f.path.slice(f.path.lastIndexOf('/') + 1));
  const models = names.filter((n) => formats.some((f) => f.role === 'model' && f.extensions.some((x) => n.toLowerCase().endsWith(x)))).sort();
  const animFormat = formats.find((f) => f.role === 'animation' && names.some((n) => f.extensions.some((x) => n.toLowerCase().endsWith(x))));
  const anims = animFormat ? `, with --anim for an ${animFormat.extensions[0]}` : '';
  const hint = models.length ? `; to convert one model in it, name its file (${models.slice(0, 3).join(', ')}${models.length > 3 ? ', …' : ''}${anims})` : '';
  throw badInput(input.label, form ? `not a ${form.noun}: a ${form.noun} holds ${form.describes}; this one has no ${missing.join(', ')}${hint}` : `a folder holds no model this tool reads${hint}`);
}

/**
 * The model INPUT names with the files `anims` names played on it (paths in the same file system as the model:
 * on disk, or inside the same archive). An animation that does not fit fails, naming both files; with `onMismatch`
 * 'skip' it is left out with an ANIM_MESH_MISMATCH warning (`skippedCompanions` names them).
 */
export async function readModel(input: ModelInput, format: FormatEntry, anims: readonly string[], formats: readonly FormatEntry[], onMismatch: 'fail' | 'skip' = 'fail'): Promise<ModelSet<unknown, FormatEntry>> {
  const companions = anims.map((a) => (input.archive ? (archiveInner(a, input.archive) ?? a) : a));
  if (!input.archive) {
    // on disk: a missing file is the file system's own error (ENOENT), a folder is said to be one
    for (const a of anims) if ((await load(a, () => stat(a))).isDirectory()) throw badInput(a, `is a folder, not a model file (${readableExtensions(formats)})`);
  }
  return load(input.label, () => openModelSet(input.fs, input.path, { formats, format: format.folder ? undefined : format, companions, root: input.root, onMismatch }));
}

/** The companions a set read with `onMismatch: 'skip'` left out (each an unpositioned ANIM_MESH_MISMATCH warning): their files. */
export const skippedCompanions = (set: Pick<ModelSet, 'warnings'>): string[] =>
  set.warnings.filter((w) => w.unpositioned && w.warnings.some((x) => x.code === ErrorCode.AnimMeshMismatch)).map((w) => w.file);

/**
 * Exit status 1 and a last line on stderr when some --anim given was left out (the output holds the rest), 0
 * otherwise: the same policy as `--all`, where a model's failure does not stop the others but sets the status.
 */
export function partialStatus(skipped: readonly string[], given: number): number {
  if (!skipped.length) return 0;
  process.stderr.write(`idtech-models: ${skipped.length} of ${given} --anim not played (ANIM_MESH_MISMATCH above: ${skipped.join(', ')}); the rest written, exit 1\n`);
  return 1;
}

/** An --anim given as `ARCHIVE:INNER` or `ARCHIVE/INNER` of the model's own archive: its inner path. */
function archiveInner(arg: string, archive: ArchivePath): string | null {
  for (const p of [`${archive.archive}:`, `${archive.archive}/`, `${archive.archive}${sep}`]) if (arg.startsWith(p)) return arg.slice(p.length).replace(/\\/g, '/');
  return null;
}

/** Refuses a companion (--anim) for a format nothing plays on, saying where its motion comes from. */
export function checkCompanions(format: FormatEntry, anims: readonly string[], formats: readonly FormatEntry[], option = '--anim'): void {
  if (!anims.length) return;
  const takes = format.acceptsCompanion !== undefined || formats.some((f) => f.role === 'animation' && f.playsOn === format.id);
  if (!takes) throw new UsageError(`${option} is for models animation files play on (${formats.filter((f) => f.role === 'animation').map((f) => `${f.extensions.join(', ')} on ${formats.find((m) => m.id === f.playsOn)?.extensions.join(', ') ?? f.playsOn}`).join('; ')}); ${format.title} has its own frames`, 'convert');
}

/**
 * A file's bytes as chunks read into TWO reused buffers, the next read in flight while the consumer parses the
 * current chunk: each chunk is only valid until the next is requested. That suits the parsers, which consume a
 * chunk before asking for another (and copy only a token cut at its end); it keeps a 1 GB read from leaving a trail
 * of buffers for the garbage collector, which is what holds `inspect` of a huge md5anim to a flat RSS. 512 KiB chunks:
 * with 64 KiB ones and no read-ahead, a 100 MB md5anim spent a third of `inspect` idle, waiting on 1,500 reads
 * (docs/benchmarks.md). Closes the file when the consumer stops, early or not.
 */
export async function* reusedFileChunks(path: string, chunkSize = 1 << 19): AsyncGenerator<Uint8Array, void, undefined> {
  const fh = await open(path, 'r');
  const bufs = [new Uint8Array(chunkSize), new Uint8Array(chunkSize)];
  let pending = fh.read(bufs[0], 0, chunkSize, null);
  try {
    for (let i = 0; ; i ^= 1) {
      const { bytesRead } = await pending;
      if (bytesRead === 0) return;
      // The other buffer is free: the consumer finished with it before asking for this chunk.
      pending = fh.read(bufs[i ^ 1], 0, chunkSize, null);
      yield bufs[i].subarray(0, bytesRead);
    }
  } finally {
    await pending.catch(() => undefined); // never close under a read in flight
    await fh.close();
  }
}

/**
 * What an `IdTechLoader` load reads, as a file system the model-set loader (`load/model-set.ts`) opens the model
 * from — with the model's path in it, what plays on it, and (when known) its format — whatever the load was given:
 * - a `FileSystem` (`setFileSystem`): the named files (the registry's `pickModel` says which is the model and which
 *   play on it), or a folder (`…/players/sarge/`) read as the folder format its files make;
 * - URLs: the named files fetched when first read, streamed into the parsers; a folder URL probed for the names
 *   the folder formats need and may have (`FolderForm.required` / `optional`: a server cannot be listed), a
 *   missing one (404, 410) no error;
 * - bytes (`parseAsync`): named files, or one buffer whose format its first bytes say.
 * Every model file's bytes are counted as they arrive (`LoadProgress`: three's progress events, the total once each
 * opened file's size is known — a Content-Length for URLs).
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { byteChunks, type ByteSource } from '../base/source.js';
import { formatForBytes, formatForName } from '../load/format.js';
import { folderOpening } from '../load/model-set.js';
import type { FormatEntry } from '../formats/entry.js';
import { countedFile, filesFileSystem, pickModel, sourceFile } from '../registry/model-files.js';
import type { FileSystem, VfsFile } from '../vfs/file-system.js';

/** One file given as bytes (or any byte source the parsers stream: a Response, a ReadableStream, a File's stream). */
export interface IdTechFile {
  /** Its name or path (its extension says its format; else its first bytes do). */
  name: string;
  source: ByteSource;
  size?: number;
}

/** The progress of a load: bytes of model files read so far; `total` once every file's size is known. */
export interface IdTechProgress {
  loaded: number;
  total: number;
  lengthComputable: boolean;
  /** The file being read. */
  url: string;
}

/** The model a load reads: where, at which path, with which files playing on it. */
export interface LoadSource {
  fs: FileSystem;
  /** A model file, or a folder holding a folder format. */
  path: string;
  companions: string[];
  format?: FormatEntry;
}

/** Bytes of the model files read so far, as three's progress events (the total: the sizes of the files opened so far). */
export class LoadProgress {
  private readonly sizes = new Map<string, number | undefined>();
  private loaded = 0;

  constructor(private readonly onProgress?: (event: ProgressEvent) => void) {}

  /** Counts `name`'s bytes; `size` (undefined: not known) is asked when its first bytes arrive. */
  counter(name: string, size: () => number | undefined): (n: number) => void {
    return (n) => {
      if (!this.sizes.has(name)) this.sizes.set(name, size());
      this.loaded += n;
      const known = [...this.sizes.values()];
      const computable = known.every((s) => s !== undefined);
      const event: IdTechProgress = { loaded: this.loaded, total: computable ? known.reduce((a: number, b) => a + (b ?? 0), 0) : 0, lengthComputable: computable, url: name };
      this.onProgress?.(event as unknown as ProgressEvent);
    };
  }
}

const isFolder = (name: string) => /[\\/]$/.test(name);

/** A folder is loaded on its own; otherwise the names are files. */
function folderOf(names: readonly string[]): string | null {
  const folders = names.filter(isFolder);
  if (folders.length === 0) return null;
  if (names.length > 1) throw new ModelParseError(ErrorCode.UnknownFormat, `a folder is loaded on its own: got ${names.join(', ')}`, { offset: 0 });
  return folders[0].replace(/\\/g, '/');
}

/** Named files: which model they make, read through them alone. */
async function namedFiles(files: VfsFile[], formats: readonly FormatEntry[], signal: AbortSignal): Promise<LoadSource> {
  const picked = await pickModel(files, formats, signal);
  return { fs: filesFileSystem(files), path: picked.path, companions: picked.companions, format: picked.format };
}

/** `fs` with every file's bytes counted as they are read. */
function countedFileSystem(fs: FileSystem, progress: LoadProgress): FileSystem {
  const counted = (f: VfsFile) => countedFile(f, progress.counter(f.path, () => f.size));
  return {
    file: async (p) => {
      const f = await fs.file(p);
      return f && counted(f);
    },
    list: async (folder, extensions) => (await fs.list(folder, extensions)).map(counted),
  };
}

/** The load from a file system: paths in it. */
export async function fileSystemSource(fs: FileSystem, names: readonly string[], formats: readonly FormatEntry[], progress: LoadProgress, signal: AbortSignal): Promise<LoadSource> {
  const folder = folderOf(names);
  if (folder !== null) return { fs: countedFileSystem(fs, progress), path: folder, companions: [] };
  const files: VfsFile[] = [];
  for (const name of names) {
    const f = await fs.file(name);
    if (!f) throw new ModelParseError(ErrorCode.ReadFailed, 'not found in the file system', { offset: 0 }).inFile(name);
    files.push(countedFile(f, progress.counter(f.path, () => f.size)));
  }
  // one file its folder's format opens whole (Tremulous' nonseg.md3, a buildable's MD3): that folder, from the file system
  const whole = files.length === 1 ? await folderOpening(fs, files[0], formats, signal) : null;
  if (whole) return { fs: countedFileSystem(fs, progress), path: whole.folder, companions: [] };
  return namedFiles(files, formats, signal);
}

/** The load from bytes: named files, or one buffer (its format its first bytes', else its `path`'s). */
export async function bytesSource(data: readonly IdTechFile[] | ArrayBuffer | Uint8Array, path: string | undefined, formats: readonly FormatEntry[], progress: LoadProgress, signal: AbortSignal): Promise<LoadSource> {
  const file = (f: IdTechFile) => sourceFile(f, signal, progress.counter(f.name, () => f.size ?? (f.source instanceof Uint8Array || f.source instanceof ArrayBuffer ? f.source.byteLength : undefined)));
  if (!(data instanceof ArrayBuffer || data instanceof Uint8Array)) return namedFiles(data.map(file), formats, signal);
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const format = formatForBytes(bytes.subarray(0, 4096), formats) ?? (path ? formatForName(path, formats) : null);
  if (!format) throw new ModelParseError(ErrorCode.UnknownFormat, `these bytes are none of the formats read here (their first bytes are none of theirs): pass named files`, { offset: 0 }).inFile(path ?? 'the buffer');
  const one = file({ name: path ?? 'model', source: bytes });
  return { fs: filesFileSystem([one]), path: one.path, companions: [], format };
}

export interface UrlOptions {
  /** The URL to fetch for a name (three's `LoadingManager.resolveURL`). */
  resolve: (name: string) => string;
  /** Headers and credentials (three's `requestHeader`, `withCredentials`). */
  init: RequestInit;
}

/** A response's length when it says one and the bytes are not encoded (a Content-Encoding's length is not the body's). */
function contentLength(res: Response): number | undefined {
  const n = Number(res.headers.get('content-length') ?? NaN);
  return Number.isFinite(n) && !res.headers.get('content-encoding') ? n : undefined;
}

async function fetched(url: string, o: UrlOptions, signal: AbortSignal): Promise<Response> {
  return fetch(url, { ...o.init, signal });
}

const httpError = (url: string, res: Response) => new ModelParseError(ErrorCode.ReadFailed, `HTTP ${res.status}`, { offset: 0 }).inFile(url);

/** A file at `url`, fetched when first read (then streamed; its Content-Length the progress's size). */
function urlFile(url: string, o: UrlOptions, progress: LoadProgress, signal: AbortSignal): VfsFile {
  let size: number | undefined;
  const chunks: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      const res = await fetched(url, o, signal);
      if (!res.ok) throw httpError(url, res);
      size = contentLength(res);
      yield* byteChunks(res, { signal });
    },
  };
  return sourceFile({ name: url, source: chunks }, signal, progress.counter(url, () => size));
}

/** A folder at a URL: each name asked for is fetched (a server cannot be listed); 404 and 410 are no file. */
function probedFolder(o: UrlOptions, progress: LoadProgress, signal: AbortSignal): FileSystem {
  return {
    async file(path) {
      if (isFolder(path)) return null;
      const url = o.resolve(path);
      const res = await fetched(url, o, signal);
      if (res.status === 404 || res.status === 410) {
        await res.body?.cancel();
        return null;
      }
      if (!res.ok) throw httpError(url, res);
      const size = contentLength(res);
      return sourceFile({ name: url, source: res, size }, signal, progress.counter(url, () => size));
    },
    list: async () => [],
  };
}

/** The load from URLs: files fetched as they are read, or a folder probed for the files its format needs. */
export async function urlSource(names: readonly string[], o: UrlOptions, formats: readonly FormatEntry[], progress: LoadProgress, signal: AbortSignal): Promise<LoadSource> {
  const folder = folderOf(names);
  if (folder !== null) return { fs: probedFolder(o, progress, signal), path: folder, companions: [] };
  // one URL its folder's format opens whole (Tremulous' nonseg.md3): that folder, probed for the form's files
  const name = names.length === 1 ? names[0].replace(/\\/g, '/') : '';
  const lower = name.slice(name.lastIndexOf('/') + 1).toLowerCase();
  if (name && formats.some((f) => f.folder?.opensFrom?.(lower, name))) {
    const fs = probedFolder(o, progress, signal);
    const file = await fs.file(name);
    const whole = file ? await folderOpening(fs, file, formats, signal) : null;
    if (whole) return { fs, path: `${whole.folder}/`, companions: [] }; // a folder (a server's folder URL is no file)
  }
  return namedFiles(names.map((n) => urlFile(o.resolve(n), o, progress, signal)), formats, signal);
}

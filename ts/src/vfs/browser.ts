/**
 * File systems from what a web page gets: dropped or picked `File`s (a picked folder gives each its
 * `webkitRelativePath`), a dropped folder (`FileSystemDirectoryEntry` from `DataTransferItem.webkitGetAsEntry()`),
 * any `Blob`s with paths, and files on a web server under a base URL. Platform-neutral (Blob, File and fetch exist
 * in Node too), so tests run it in both. A game folder made of them mounts like one on disk:
 * `mountGameDir(droppedFileSystem(files))`.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { byteChunks } from '../base/source.js';
import { byPath, folderPrefix, hasExtension, pathKey, type FileSystem, type VfsFile } from './file-system.js';
import { urlReader, type UrlReaderOptions } from './http-reader.js';
import { blobReader } from './reader.js';

/** Blobs under paths as a FileSystem (later entries with the same path, any case, replace earlier ones). */
export function blobFileSystem(items: Iterable<{ path: string; blob: Blob }>, origin = 'dropped'): FileSystem {
  const byKey = new Map<string, VfsFile>();
  for (const { path: raw, blob } of items) {
    const path = raw.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '');
    byKey.set(pathKey(path), {
      path,
      size: blob.size,
      origin: `${origin}:${path}`,
      mtimeMs: (blob as File).lastModified,
      stream: (o) => byteChunks(blob.stream(), { signal: o?.signal }),
      bytes: async () => new Uint8Array(await blob.arrayBuffer()),
      randomAccess: async () => blobReader(blob, path),
    });
  }
  return {
    file: async (path) => byKey.get(pathKey(path)) ?? null,
    async list(folder, extensions) {
      const prefix = folderPrefix(folder);
      return [...byKey.entries()].filter(([k]) => k.startsWith(prefix) && hasExtension(k, extensions)).map(([, f]) => f).sort(byPath);
    },
  };
}

/**
 * Dropped or picked files. A file's path is its `webkitRelativePath` (a picked folder) or its name. When every path
 * starts with the same folder (the picked folder's own name, `baseq3/…`), it is dropped, so the picked folder is
 * the root; `{ keepRoot: true }` keeps it.
 */
export function droppedFileSystem(files: Iterable<File>, options: { keepRoot?: boolean } = {}): FileSystem {
  const list = [...files].map((f) => ({ path: (f.webkitRelativePath || f.name).replace(/\\/g, '/'), blob: f as Blob }));
  if (!options.keepRoot && list.length > 0) {
    const first = list[0].path.split('/')[0];
    if (list.every((x) => x.path.includes('/') && x.path.split('/')[0] === first)) {
      for (const x of list) x.path = x.path.slice(first.length + 1);
    }
  }
  return blobFileSystem(list);
}

/**
 * The parts of the File and Directory Entries API (`FileSystemDirectoryEntry`, `FileSystemFileEntry`) a dropped
 * folder is read through, written out structurally so the types need no DOM lib (a Node project compiles them).
 */
export interface EntryLike {
  readonly name: string;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
}
export interface FileEntryLike extends EntryLike {
  file(success: (file: Blob) => void, failure?: (error: unknown) => void): void;
}
export interface DirectoryEntryLike extends EntryLike {
  createReader(): { readEntries(success: (entries: EntryLike[]) => void, failure?: (error: unknown) => void): void };
}

/** The callback API of a dropped folder entry, as promises (readEntries returns a batch per call until empty). */
async function entryFiles(dir: DirectoryEntryLike, prefix: string, out: { path: string; blob: Blob }[]): Promise<void> {
  const reader = dir.createReader();
  for (;;) {
    const batch = await new Promise<EntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) return;
    for (const e of batch) {
      const path = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory) await entryFiles(e as DirectoryEntryLike, path, out);
      else if (e.isFile) out.push({ path, blob: await new Promise<Blob>((resolve, reject) => (e as FileEntryLike).file(resolve, reject)) });
    }
  }
}

/** A dropped folder (`item.webkitGetAsEntry()` on a drop) as a FileSystem rooted at that folder. */
export async function directoryEntryFileSystem(entry: DirectoryEntryLike): Promise<FileSystem> {
  const items: { path: string; blob: Blob }[] = [];
  try {
    await entryFiles(entry, '', items);
  } catch (e) {
    throw new ModelParseError(ErrorCode.ReadFailed, `${entry.name}: ${(e as Error)?.message ?? e}`, { offset: 0 });
  }
  return blobFileSystem(items, entry.name);
}

export interface UrlFileSystemOptions extends UrlReaderOptions {
  /**
   * The paths that exist under the base URL (a server cannot be listed). With it, `list` works and lookups ignore
   * case (mapped to the stored spelling); without it, `file` asks the server for the path as given (a HEAD request)
   * and `list` returns nothing.
   */
  index?: readonly string[];
}

/** Files on a web server under `base` (a folder URL); each file streams with fetch and gives Range access. */
export function urlFileSystem(base: string | URL, options: UrlFileSystemOptions = {}): FileSystem {
  const root = String(base).replace(/\/?$/, '/');
  const doFetch = options.fetch ?? fetch;
  const known = options.index ? new Map(options.index.map((p) => [pathKey(p), p.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '')] as const)) : null;
  const urlOf = (path: string) => new URL(path.split('/').map(encodeURIComponent).join('/'), root).href;
  const make = (path: string, size: number, mtimeMs?: number): VfsFile => {
    const url = urlOf(path);
    const get = async (signal?: AbortSignal) => {
      const res = await doFetch(url, { headers: options.headers, signal });
      if (!res.ok) throw new ModelParseError(ErrorCode.ReadFailed, `${url}: HTTP ${res.status}`, { offset: 0 });
      return res;
    };
    return {
      path,
      size,
      origin: url,
      mtimeMs,
      stream: (o) => byteChunks((async function* () { yield* byteChunks(await get(o?.signal)); })(), { signal: o?.signal }),
      bytes: async (o) => new Uint8Array(await (await get(o?.signal)).arrayBuffer()),
      randomAccess: () => urlReader(url, options),
    };
  };
  return {
    async file(path) {
      const stored = known ? known.get(pathKey(path)) : path.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '');
      if (!stored) return null;
      const res = await doFetch(urlOf(stored), { method: 'HEAD', headers: options.headers });
      if (res.status === 404 || res.status === 410) return null;
      if (!res.ok) throw new ModelParseError(ErrorCode.ReadFailed, `${urlOf(stored)}: HTTP ${res.status}`, { offset: 0 });
      const modified = Date.parse(res.headers.get('last-modified') ?? '');
      return make(stored, Number(res.headers.get('content-length') ?? 0), Number.isFinite(modified) ? modified : undefined);
    },
    async list(folder, extensions) {
      if (!known) return [];
      const prefix = folderPrefix(folder);
      const hits = [...known.entries()].filter(([k]) => k.startsWith(prefix) && hasExtension(k, extensions));
      // Sizes need a request each: list gives what the index knows (size 0 until the file is opened with `file`).
      return hits.map(([, p]) => make(p, 0)).sort(byPath);
    },
  };
}

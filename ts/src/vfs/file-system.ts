/**
 * The read-only file system every reader of game content goes through: a folder in Node, dropped files or URLs in
 * the browser, a .pk3/.pk4 archive, or several of them mounted in the engine's order. Model readers stream a
 * file's bytes into the parsers; the material resolver asks whether a name exists (case-insensitively, with the
 * engine's extension fallback) and reads small text files (`.skin`, `.shader`, `.mtr`).
 *
 * Paths are '/'-separated and relative to the root of the game folder (`models/players/sarge/lower.md3`), never
 * starting with '/'. Lookups ignore case, as the engines' file systems do for content in archives
 * (ioquake3 `FS_FOpenFileReadDir` compares with `FS_FilenameCompare`, which folds case and treats '\' as '/').
 */
import type { RandomAccessReader } from './reader.js';

/** One file as a file system sees it. */
export interface VfsFile {
  /** Its path as stored (original case), '/'-separated, relative to the root. */
  readonly path: string;
  /** Bytes, as declared (a zip member's uncompressed size; checked while reading). */
  readonly size: number;
  /** Where it comes from, for messages: `pak0.pk3:models/x.md3`, `/games/baseq3/models/x.md3`, a URL. */
  readonly origin: string;
  /** Modification time in ms since the epoch, when known (for up-to-date checks of batch outputs). */
  readonly mtimeMs?: number;
  /** The bytes, streamed (a deflated member is inflated as it is read); each call starts from the beginning. */
  stream(options?: { signal?: AbortSignal }): AsyncIterable<Uint8Array>;
  /** All the bytes at once. */
  bytes(options?: { signal?: AbortSignal }): Promise<Uint8Array>;
  /**
   * Random access to the bytes, where the file system can give it cheaply (a file on disk, a dropped `File`, a URL
   * answering Range requests, bytes in memory; not a deflated zip member): what mounting needs to open an archive
   * found in a folder without reading it whole.
   */
  randomAccess?(): Promise<RandomAccessReader>;
}

export interface FileSystem {
  /** The file at `path` (any case; '\' taken as '/'), or null. Where several mounts hold it, the one the engine would read. */
  file(path: string): Promise<VfsFile | null>;
  /**
   * Every file under `folder` ('' for all) whose name ends with one of `extensions` (any case, e.g. ['.shader']),
   * one per path (the one the engine would read), sorted by path. A file system that cannot list (URLs without an
   * index) returns what it knows.
   */
  list(folder: string, extensions?: readonly string[]): Promise<VfsFile[]>;
  /** Releases what the file system holds open (archive file handles); optional, idempotent. */
  close?(): Promise<void>;
  /**
   * The search path `path` is read from, as the Quake engines number them (a game folder: later folders, mods, are
   * higher; every archive of one folder shares its number), or null when it is not there. Absent where the file
   * system is one search path (what a source port's replacement rule then takes it to be: docs/md5-replacements.md).
   */
  searchPath?(path: string): Promise<number | null>;
}

/** `folder` as a key prefix: '' for the root, else its key with one trailing '/'. */
export function folderPrefix(folder: string): string {
  const k = pathKey(folder).replace(/\/+$/, '');
  return k ? `${k}/` : '';
}

/** Whether `key` (a pathKey) ends with one of `extensions` (any case), or there are none to match. */
export function hasExtension(key: string, extensions?: readonly string[]): boolean {
  return !extensions || extensions.some((x) => key.endsWith(x.toLowerCase()));
}

/** Sorts files by path, as `list` returns them (code-unit order, stable across platforms). */
export function byPath(a: VfsFile, b: VfsFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** The lookup key of a path: lower case, '/' separators, no leading './' or '/'. */
export function pathKey(path: string): string {
  // Most paths need only the case folded: skip the replacements (a directory of 100,000 names is keyed at open).
  if (!path.includes('\\') && path[0] !== '.' && path[0] !== '/') return path.toLowerCase();
  return path.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '').toLowerCase();
}

/**
 * `file` and `list` over an archive's entries (zip, pak): `names` by entry index, the served entries keyed by
 * `pathKey` in `byKey`, each entry's VfsFile made on demand by `fileAt`; `list` sorts the served entries by path once.
 */
export function entryLookup(names: readonly string[], byKey: ReadonlyMap<string, number>, fileAt: (i: number) => VfsFile): Pick<FileSystem, 'file' | 'list'> {
  let sorted: { key: string; index: number }[] | undefined;
  return {
    async file(path) {
      const i = byKey.get(pathKey(path));
      return i === undefined ? null : fileAt(i);
    },
    async list(folder, extensions) {
      if (!sorted) {
        sorted = [...byKey].map(([key, index]) => ({ key, index }));
        sorted.sort((a, b) => (names[a.index] < names[b.index] ? -1 : names[a.index] > names[b.index] ? 1 : 0));
      }
      const prefix = folderPrefix(folder);
      return sorted.filter((e) => e.key.startsWith(prefix) && hasExtension(e.key, extensions)).map((e) => fileAt(e.index));
    },
  };
}

/** The first `n` bytes of a file (fewer when it is shorter); the rest is never read. */
export async function fileHead(f: VfsFile, n = 4096, signal?: AbortSignal): Promise<Uint8Array> {
  const out = new Uint8Array(n);
  let have = 0;
  for await (const chunk of f.stream({ signal })) {
    const take = Math.min(chunk.length, n - have);
    out.set(chunk.subarray(0, take), have);
    have += take;
    if (have === n) break;
  }
  return out.subarray(0, have);
}

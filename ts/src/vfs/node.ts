/**
 * Node only (node:fs, node:zlib): folders, archives and game folders from paths. The browser entry never imports
 * this file; its platform-neutral counterparts are in browser.ts.
 */
import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { byPath, folderPrefix, hasExtension, pathKey, type FileSystem, type VfsFile } from './file-system.js';
import { mountGameDirs, type MountedGame, type MountOptions } from './game-dir.js';
import { urlReader } from './http-reader.js';
import { fileReader } from './node-file.js';
import { zlibInflater } from './node-zlib.js';
import type { RandomAccessReader } from './reader.js';
import { archiveReader } from './archive-source.js';
import { openArchiveReader, type GameArchive, type OpenAnyArchiveOptions } from './open-archive.js';

export { fileReader } from './node-file.js';
export { zlibInflater } from './node-zlib.js';

interface Found {
  abs: string;
  rel: string;
  size: number;
  mtimeMs: number;
}

/** Every regular file under `dir` (symbolic links to files followed, to folders not: no loops), paths '/'-separated. */
async function walk(dir: string): Promise<Found[]> {
  const out: Found[] = [];
  const visit = async (abs: string, rel: string) => {
    for (const e of await readdir(abs, { withFileTypes: true })) {
      const a = join(abs, e.name);
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await visit(a, r);
      else if (e.isFile() || e.isSymbolicLink()) {
        const s = await stat(a).catch(() => null);
        if (s?.isFile()) out.push({ abs: a, rel: r, size: s.size, mtimeMs: s.mtimeMs });
      }
    }
  };
  await visit(dir, '');
  return out;
}

function diskFile(f: Found, origin: string): VfsFile {
  return {
    path: f.rel,
    size: f.size,
    origin,
    mtimeMs: f.mtimeMs,
    stream: (o) => {
      const s = createReadStream(f.abs, { highWaterMark: 64 * 1024, signal: o?.signal });
      return s as AsyncIterable<Uint8Array>;
    },
    bytes: async (o) => new Uint8Array(await readFile(f.abs, { signal: o?.signal })),
    randomAccess: () => fileReader(f.abs),
  };
}

/**
 * A folder on disk as a FileSystem: walked once, on first use (a snapshot; files added later are not seen), then
 * looked up case-insensitively like the engines' archives (where two names differ only by case, the one walked
 * last wins).
 */
export function folderFileSystem(dir: string): FileSystem {
  let index: Promise<Map<string, VfsFile>> | undefined;
  const load = () =>
    (index ??= walk(dir).then(
      (found) => new Map(found.map((f) => [pathKey(f.rel), diskFile(f, join(dir, f.rel))] as const)),
      (e) => {
        throw new ModelParseError(ErrorCode.ReadFailed, `${dir}: ${(e as Error).message}`, { offset: 0 });
      },
    ));
  return {
    async file(path) {
      return (await load()).get(pathKey(path)) ?? null;
    },
    async list(folder, extensions) {
      const prefix = folderPrefix(folder);
      return [...(await load()).entries()].filter(([k]) => k.startsWith(prefix) && hasExtension(k, extensions)).map(([, f]) => f).sort(byPath);
    },
  };
}

/**
 * A folder on disk as a FileSystem that reads only what it is asked: a file by its path (exact, else matched
 * without case one folder at a time, as the engines' lookups are), a listing by walking the folder asked for. For
 * opening one model beside others (a model file, a player folder) where `folderFileSystem`'s walk of the whole tree
 * (a home folder) would cost more than the model.
 */
export function lazyFolderFileSystem(dir: string): FileSystem {
  const at = (rel: string) => (dir ? join(dir, rel) : rel);
  const found = async (rel: string): Promise<Found | null> => {
    // As given first (its origin is then the path as the caller wrote it), else folder by folder without case.
    const given = await stat(at(rel)).catch(() => null);
    if (given) return given.isFile() ? { abs: at(rel), rel, size: given.size, mtimeMs: given.mtimeMs } : null;
    const parts = rel.replace(/\\/g, '/').split('/').filter((p) => p && p !== '.');
    let abs = !dir && rel.startsWith('/') ? '/' : dir || '.';
    const names: string[] = [];
    for (const part of parts) {
      const entries = await readdir(abs).catch(() => [] as string[]);
      const match = entries.find((n) => n === part) ?? entries.find((n) => n.toLowerCase() === part.toLowerCase());
      if (match === undefined) return null;
      abs = join(abs, match);
      names.push(match);
    }
    const s = await stat(abs).catch(() => null);
    return s?.isFile() ? { abs, rel: names.join('/'), size: s.size, mtimeMs: s.mtimeMs } : null;
  };
  return {
    async file(path) {
      const f = await found(path);
      return f ? diskFile(f, f.abs) : null;
    },
    async list(folder, extensions) {
      const base = folder.replace(/\\/g, '/').replace(/\/+$/, '');
      const root = base ? at(base) : dir || '.';
      const s = await stat(root).catch(() => null);
      if (!s?.isDirectory()) return [];
      return (await walk(root))
        .map((f) => ({ ...f, rel: base ? `${base}/${f.rel}` : f.rel }))
        .filter((f) => hasExtension(pathKey(f.rel), extensions))
        .map((f) => diskFile(f, f.abs))
        .sort(byPath);
    },
  };
}

/**
 * A zip archive (.pk3 .pk4 .dpk) or a Quake / Quake 2 .pak from a path, an http(s) URL (Range requests) or any
 * source the front door's `openArchive` takes (bytes, a Blob, a reader); zips are inflated with node:zlib by default.
 */
export async function openArchive(source: string | URL | Uint8Array | ArrayBuffer | Blob | RandomAccessReader, options: OpenAnyArchiveOptions = {}): Promise<GameArchive> {
  const o = { inflater: zlibInflater, ...options };
  if (typeof source !== 'string' && !(source instanceof URL && /^file:/i.test(source.href))) return openArchiveReader(await archiveReader(source, o), o);
  const path = String(source instanceof URL ? fileURLToPath(source) : source);
  const reader = /^https?:\/\//i.test(path) ? await urlReader(path, { signal: o.signal, ...o.http }) : await fileReader(path);
  return openArchiveReader(reader, o);
}

/**
 * Game folders in the engine's order (game-dir.ts): `mountGameDir('baseq3')`, or `mountGameDir(['baseq3',
 * 'mymod'])` — base first, the mod's files win. Folders are paths or any FileSystem (the neutral `mountGameDir`'s
 * argument), so this one can replace it in the Node entry.
 */
export function mountGameDir(dirs: string | FileSystem | readonly (string | FileSystem)[], options: MountOptions = {}): Promise<MountedGame> {
  const list = typeof dirs === 'string' || !Array.isArray(dirs) ? [dirs as string | FileSystem] : (dirs as readonly (string | FileSystem)[]);
  return mountGameDirs(list.map((d) => (typeof d === 'string' ? folderFileSystem(d) : d)), { inflater: zlibInflater, ...options });
}

/** What the CLI opens for ARCHIVE_OR_DIR: a folder as a mounted game folder, a file as an archive. */
export async function openPath(path: string, options: MountOptions = {}): Promise<FileSystem & { close(): Promise<void> }> {
  const s = await stat(path).catch((e) => {
    throw new ModelParseError(ErrorCode.ReadFailed, `${path}: ${(e as Error).message}`, { offset: 0 });
  });
  return s.isDirectory() ? mountGameDir(path, options) : openArchive(path, options);
}

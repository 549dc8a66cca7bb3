/**
 * A load's files as a file system, and the one model they make: what `openPlayable` and `IdTechLoader` share before
 * the model-set loader reads the model. Files come as byte sources (`sourceFile`: buffers, text, streams read once,
 * counted as they arrive), or from a file system (`countedFile`: re-readable, counted the same way); `filesFileSystem`
 * makes them one file system; `pickModel` says which model they hold — a folder format's folder (a Quake 3 player's
 * parts), or one model file and the files that play on it — by name, or without a known extension by first bytes.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { byteChunks, knownSize } from '../base/source.js';
import { detectFile, fileHead, notAModel } from '../load/model-set.js';
import { formatForName } from '../load/format.js';
import type { ModelFile } from '../playable/playable.js';
import { byPath, folderPrefix, hasExtension, pathKey, type FileSystem, type VfsFile } from '../vfs/file-system.js';
import type { FormatEntry } from '../formats/entry.js';

const slashes = (name: string) => name.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '');
const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));

/** Kept of a stream-like source so that it can be recognised by its first bytes and then parsed from the start. */
const REPLAY_BYTES = 1 << 16;

/** Counts what goes past the furthest byte any read reached (a re-read of the start counts nothing). */
function furthest(counted: (n: number) => void): (end: number) => void {
  let countedBytes = 0;
  return (end) => {
    if (end > countedBytes) {
      counted(end - countedBytes);
      countedBytes = end;
    }
  };
}

/** A `bytes()` over a file's `stream()`: every chunk copied into one array. */
async function allBytes(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c.slice());
  const out = new Uint8Array(parts.reduce((n, c) => n + c.length, 0));
  parts.reduce((at, c) => (out.set(c, at), at + c.length), 0);
  return out;
}

/** `chunks` passed through, each one's end handed to `reached` (its offset in the file). */
async function* reporting(chunks: AsyncIterable<Uint8Array>, reached: (end: number) => void): AsyncGenerator<Uint8Array> {
  let at = 0;
  for await (const c of chunks) {
    reached((at += c.length));
    yield c;
  }
}

/**
 * A file read from a byte source. Buffers and text are read afresh each time; a stream can be read once, so the
 * chunks pulled first (up to REPLAY_BYTES: what recognising a format reads) are kept and handed out again, and the
 * next reader goes on with the rest. Bytes are counted once, as they arrive.
 */
export function sourceFile(f: ModelFile, signal: AbortSignal | undefined, counted: (n: number) => void): VfsFile {
  const path = slashes(f.name);
  const reusable = typeof f.source === 'string' || f.source instanceof ArrayBuffer || ArrayBuffer.isView(f.source);
  let source: AsyncIterator<Uint8Array> | null = null;
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let pulled = 0;
  const reached = furthest(counted);
  const read = async function* (): AsyncGenerator<Uint8Array> {
    if (reusable) {
      yield* reporting(byteChunks(f.source, { signal }), reached);
      return;
    }
    if (pulled > keptBytes) throw new ModelParseError(ErrorCode.ReadFailed, `${f.name} is a stream, read once already`, { offset: 0 });
    let at = 0;
    for (let i = 0; i < kept.length; i++) {
      at += kept[i].length;
      yield kept[i];
    }
    source ??= byteChunks(f.source, { signal })[Symbol.asyncIterator]();
    for (let r = await source.next(); !r.done; r = await source.next()) {
      pulled += r.value.length;
      reached((at += r.value.length));
      if (pulled === keptBytes + r.value.length && (pulled <= REPLAY_BYTES || kept.length === 0)) {
        kept.push(r.value.slice());
        keptBytes = pulled;
      }
      yield r.value;
    }
  };
  return { path, size: f.size ?? knownSize(f.source) ?? 0, origin: f.name, stream: () => read(), bytes: () => allBytes(read()) };
}

/** A file of a file system whose bytes are counted once as they are read (each read still starts from the beginning). */
export function countedFile(f: VfsFile, counted: (n: number) => void): VfsFile {
  const reached = furthest(counted);
  const stream = (o?: { signal?: AbortSignal }) => reporting(f.stream(o), reached);
  return {
    path: f.path,
    size: f.size,
    origin: f.origin,
    mtimeMs: f.mtimeMs,
    stream,
    bytes: (o) => allBytes(stream(o)),
    ...(f.randomAccess ? { randomAccess: () => f.randomAccess!() } : {}),
  };
}

/** The given files as a file system (paths as named, '/'-separated; lookups ignore case). */
export function filesFileSystem(files: readonly VfsFile[]): FileSystem {
  const byKey = new Map(files.map((f) => [pathKey(f.path), f]));
  return {
    file: async (p) => byKey.get(pathKey(p)) ?? null,
    list: async (folder, extensions) => {
      const prefix = folderPrefix(folder);
      return files.filter((f) => pathKey(f.path).startsWith(prefix) && hasExtension(pathKey(f.path), extensions)).sort(byPath);
    },
  };
}

const noModel = (detail: string) => new ModelParseError(ErrorCode.UnknownFormat, detail, { offset: 0 });

/** Which model the files make: a folder format's folder, or one model file with the files that play on it. */
export async function pickModel(files: readonly VfsFile[], formats: readonly FormatEntry[], signal?: AbortSignal): Promise<{ path: string; format?: FormatEntry; companions: string[] }> {
  if (files.length === 0) throw noModel('no files given');
  for (const format of formats) {
    const form = format.folder;
    if (!form) continue;
    for (const folder of new Set(files.map((f) => folderOf(f.path)))) {
      const children = new Map(files.filter((f) => folderOf(f.path) === folder).map((f) => [f.path.slice(f.path.lastIndexOf('/') + 1).toLowerCase(), f]));
      if (form.matches(children)) return { path: folder, companions: [] };
    }
  }
  // side files of a replacement beside one of the models (a re-release's .md5scale): not models, left for the set
  const sides = new Set(files.flatMap((f) => (formatForName(f.path, formats) as FormatEntry | null)?.replacedBy?.(f.path)?.sideFiles ?? []).map((p) => p.toLowerCase()));
  const found: { file: VfsFile; format: FormatEntry }[] = [];
  for (const file of files) {
    if (sides.has(file.path.toLowerCase())) continue;
    // by first bytes where several formats claim the name (`.mdl`: Quake's and Half-Life's)
    const format = (await detectFile(file, formats, signal)) as FormatEntry | null;
    if (!format) throw noModel(`not a model file this reads (${formats.filter((f) => f.role !== 'refused').flatMap((f) => f.extensions).join(', ')})`).inFile(file.origin);
    if (format.role === 'refused') throw noModel(notAModel(format, formats)!).inFile(file.origin);
    found.push({ file, format });
  }
  const models = found.filter((x) => x.format.role === 'model');
  if (models.length === 0) throw noModel(notAModel(found[0].format, formats)!).inFile(found[0].file.origin);
  // Several files of one format that plays its own files on a model (IQM animation files): the first that is not
  // animation-only is the model (in whatever order they were given).
  let primary = models.length === 1 ? models[0] : null;
  if (models.length > 1 && models.every((m) => m.format === models[0].format && m.format.acceptsCompanion)) {
    const only = models[0].format.animationOnly;
    primary = models[0];
    if (only) {
      for (const m of models) {
        if (!only(await fileHead(m.file, 256, signal))) {
          primary = m;
          break;
        }
      }
    }
  }
  // a model given with what a source port draws in its place (a re-release's MD5 files beside an MD2 or MDL): the
  // original, its replacement's files left for the model set to find (docs/md5-replacements.md)
  let replacing: Set<string> | null = null;
  if (!primary) {
    for (const m of models) {
      const r = m.format.replacedBy?.(m.file.path);
      const theirs = r ? new Set([r.model, ...r.companions.map((c) => (typeof c === 'string' ? c : c.path)), ...(r.sideFiles ?? [])].map((p) => p.toLowerCase())) : null;
      if (theirs && models.every((o) => o === m || theirs.has(o.file.path.toLowerCase()))) {
        primary = m;
        replacing = theirs;
        break;
      }
    }
  }
  if (!primary) throw noModel(`one model at a time: got ${models.map((m) => m.file.origin).join(', ')}`);
  return { path: primary.file.path, format: primary.format, companions: found.filter((x) => x !== primary && !replacing?.has(x.file.path.toLowerCase())).map((x) => x.file.path) };
}

/**
 * `openPlayable`: files in (any byte sources, named), one `PlayableModel` out, through the format registry. The
 * files become a file system; the one model they hold is read with what plays on it by the model-set loader (a
 * folder format when the files make one: a Quake 3 player's parts), and its registration makes it playable.
 * Formats are picked by name, or, without a known extension, by their first bytes.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { byteChunks, knownSize } from '../base/source.js';
import { formatForName } from '../formats/format.js';
import { detectFile, notAModel, openModelSet, type ModelSet } from '../load/model-set.js';
import { playableMaterials } from '../playable/materials.js';
import type { ModelFile, OpenOptions, PlayableModel } from '../playable/playable.js';
import { byPath, folderPrefix, hasExtension, pathKey, type FileSystem, type VfsFile } from '../vfs/file-system.js';
import type { FormatEntry } from './entry.js';
import { DEFAULT_FORMATS, entryFor } from './formats.js';
import { resolveModelTextures, type TexturedModel } from './textures.js';

export interface OpenPlayableOptions extends OpenOptions {
  /** The formats to recognise (default: every format this package reads). */
  formats?: readonly FormatEntry[];
}

const slashes = (name: string) => name.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '');
const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));

/** Kept of a stream-like source so that it can be recognised by its first bytes and then parsed from the start. */
const REPLAY_BYTES = 1 << 16;

/**
 * A file read from a byte source. Buffers and text are read afresh each time; a stream can be read once, so the
 * chunks pulled first (up to REPLAY_BYTES: what recognising a format reads) are kept and handed out again, and the
 * next reader goes on with the rest. Bytes are counted once, as they arrive.
 */
function sourceFile(f: ModelFile, signal: AbortSignal | undefined, counted: (n: number) => void): VfsFile {
  const path = slashes(f.name);
  const reusable = typeof f.source === 'string' || f.source instanceof ArrayBuffer || ArrayBuffer.isView(f.source);
  let source: AsyncIterator<Uint8Array> | null = null;
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let pulled = 0;
  let countedBytes = 0;
  /** Counts what goes past the furthest byte any read reached (a re-read of the start counts nothing). */
  const reached = (end: number) => {
    if (end > countedBytes) {
      counted(end - countedBytes);
      countedBytes = end;
    }
  };
  const read = async function* (): AsyncGenerator<Uint8Array> {
    let at = 0;
    if (reusable) {
      for await (const c of byteChunks(f.source, { signal })) {
        reached((at += c.length));
        yield c;
      }
      return;
    }
    if (pulled > keptBytes) throw new ModelParseError(ErrorCode.ReadFailed, `${f.name} is a stream, read once already`, { offset: 0 });
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
  return {
    path,
    size: f.size ?? knownSize(f.source) ?? 0,
    origin: f.name,
    stream: () => read(),
    async bytes() {
      const chunks: Uint8Array[] = [];
      for await (const c of read()) chunks.push(c.slice());
      const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
      chunks.reduce((at, c) => (out.set(c, at), at + c.length), 0);
      return out;
    },
  };
}

/** The given files as a file system (paths as named, '/'-separated; lookups ignore case). */
function filesFileSystem(files: readonly VfsFile[]): FileSystem {
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
async function pickModel(files: readonly VfsFile[], formats: readonly FormatEntry[], signal?: AbortSignal): Promise<{ path: string; format?: FormatEntry; companions: string[] }> {
  for (const format of formats) {
    const form = format.folder;
    if (!form) continue;
    for (const folder of new Set(files.map((f) => folderOf(f.path)))) {
      const children = new Map(files.filter((f) => folderOf(f.path) === folder).map((f) => [f.path.slice(f.path.lastIndexOf('/') + 1).toLowerCase(), f]));
      if (form.matches(children)) return { path: folder, companions: [] };
    }
  }
  const found: { file: VfsFile; format: FormatEntry }[] = [];
  for (const file of files) {
    const format = (formatForName(file.path, formats) ?? (await detectFile(file, formats, signal))) as FormatEntry | null;
    if (!format) throw noModel(`not a model file this reads (${formats.filter((f) => f.role !== 'refused').flatMap((f) => f.extensions).join(', ')})`).inFile(file.origin);
    if (format.role === 'refused') throw noModel(notAModel(format, formats)!).inFile(file.origin);
    found.push({ file, format });
  }
  const models = found.filter((x) => x.format.role === 'model');
  if (models.length === 0) throw noModel(notAModel(found[0].format, formats)!).inFile(found[0].file.origin);
  // Several files of one format that plays its own files on a model (IQM animation files): the first is the model.
  const primary = models.length > 1 && models.every((m) => m.format === models[0].format && m.format.acceptsCompanion) ? models[0] : models.length === 1 ? models[0] : null;
  if (!primary) throw noModel(`one model at a time: got ${models.map((m) => m.file.origin).join(', ')}`);
  return { path: primary.file.path, format: primary.format, companions: found.filter((x) => x !== primary).map((x) => x.file.path) };
}

/**
 * Opens a model from its files: a model file with what plays on it (an `.md5mesh` with any number of `.md5anim`s,
 * each a clip), or the files of a folder format (a Quake 3 player's parts and animation.cfg). Failures reject with
 * a `ModelParseError` naming the file: the parser's for bad bytes, UNKNOWN_FORMAT for files that do not make one
 * model, ANIM_MESH_MISMATCH for an animation that does not fit.
 */
export async function openPlayable(files: ModelFile[], options: OpenPlayableOptions = {}): Promise<PlayableModel> {
  if (files.length === 0) throw noModel('no files given');
  const formats = options.formats ?? DEFAULT_FORMATS;
  const total = files.every((f) => typeof f.size === 'number') ? files.reduce((n, f) => n + (f.size ?? 0), 0) : undefined;
  let read = 0;
  let current = files[0].name;
  const vfs = files.map((f) =>
    sourceFile(f, options.signal, (n) => {
      read += n;
      current = f.name;
      options.onProgress?.(read, total, current);
    }),
  );
  const fs = filesFileSystem(vfs);
  const picked = await pickModel(vfs, formats, options.signal);
  const set: ModelSet = await openModelSet(fs, picked.path, { formats, format: picked.format, companions: picked.companions, signal: options.signal });
  const entry = entryFor(set.format, formats)!;
  if (!entry.playable) throw noModel(`${entry.title}: not playable here`).inFile(set.origin);
  const opened = await entry.playable(set);
  if (options.textures) {
    const t = await resolveModelTextures(options.textures.fileSystem, set.data as TexturedModel, options.textures.modelPath, { skin: options.textures.skin, signal: options.signal, formats });
    const { materials, warnings } = playableMaterials(t, opened.parts);
    opened.materials = materials;
    opened.textureWarnings = warnings;
  }
  return opened;
}

/** The formats `openPlayable` opens (model formats with a playable form), and those that play on them. */
export function supportedFormats(formats: readonly FormatEntry[] = DEFAULT_FORMATS): string[] {
  return formats.filter((f) => f.playable || (f.role === 'animation' && formats.some((m) => m.id === f.playsOn && m.playable))).map((f) => f.id);
}

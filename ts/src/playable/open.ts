/**
 * The format dispatch: files in, one `PlayableModel` out. The parser is picked by file name, or, without a
 * known extension, by the first bytes (binary magic, MD5's first declarations). A format without an adapter
 * here is reported as unsupported, by name.
 */
import { kindFromBytes, kindFromName, type FileKind } from '../formats/detect.js';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { byteChunks, type ByteSource } from '../base/source.js';
import { openMd5 } from './md5-playable.js';
import { openMd2, openMd3 } from './morph-playable.js';
import type { FormatOpener, ModelFile, OpenOptions, PlayableModel } from './playable.js';
import { playableMaterials } from './materials.js';
import { openPlayer, playerFiles } from './player-playable.js';

/** One adapter per primary format (md5anim files ride along with their md5mesh). */
const OPENERS: Partial<Record<FileKind, FormatOpener>> = {
  md5mesh: openMd5,
  md2: openMd2,
  md3: openMd3,
};

export function supportedFormats(): FileKind[] {
  return [...(Object.keys(OPENERS) as FileKind[]), 'md5anim'];
}

/** The format from the first chunk, and the file's chunks again from the start (the peeked chunk is kept). */
async function sniff(source: ByteSource, signal?: AbortSignal): Promise<{ kind: FileKind | null; chunks: AsyncIterable<Uint8Array> }> {
  const it = byteChunks(source, { signal })[Symbol.asyncIterator]();
  const first = await it.next();
  async function* replay(): AsyncGenerator<Uint8Array> {
    if (first.done) return;
    yield first.value;
    for (let r = await it.next(); !r.done; r = await it.next()) yield r.value;
  }
  return { kind: first.done ? null : kindFromBytes(first.value), chunks: replay() };
}

/**
 * Opens a model from its files: one `.md5mesh` with any number of `.md5anim`s (each a clip), or one `.md2` /
 * `.md3`. Parse errors reject with the parser's `ModelParseError`, and so does a file of no kind this reads
 * (UNSUPPORTED); files that do not make one model reject with a plain `Error` saying why.
 */
export async function openPlayable(files: ModelFile[], options: OpenOptions = {}): Promise<PlayableModel> {
  if (files.length === 0) throw new Error('no files given');
  if (playerFiles(files)) return withTextures(await openPlayer(files, countedStream(files, options)), options);
  const total = files.every((f) => typeof f.size === 'number') ? files.reduce((n, f) => n + (f.size ?? 0), 0) : undefined;
  const kinds: FileKind[] = [];
  const sniffed = new Map<ModelFile, AsyncIterable<Uint8Array>>();
  for (const f of files) {
    let kind = kindFromName(f.name);
    if (!kind) {
      const s = await sniff(f.source, options.signal);
      kind = s.kind;
      sniffed.set(f, s.chunks);
    }
    if (!kind) throw new ModelParseError(ErrorCode.Unsupported, `${f.name}: not a model file this reads (.md5mesh, .md5anim, .md2, .md3): no known extension, and its first bytes are no model's`, { offset: 0 });
    kinds.push(kind);
  }
  const primaries = files.filter((_, i) => kinds[i] !== 'md5anim');
  if (primaries.length === 0) throw new Error('an .md5anim plays on its .md5mesh: open them together');
  if (primaries.length > 1) throw new Error(`one model at a time: got ${primaries.map((f) => f.name).join(', ')}`);
  const kind = kinds[files.indexOf(primaries[0])];
  const anims = files.filter((_, i) => kinds[i] === 'md5anim');
  if (kind !== 'md5mesh' && anims.length) throw new Error(`.md5anim files play on an .md5mesh, not on an .${kind}`);
  const opener = OPENERS[kind];
  if (!opener) throw new Error(`.${kind} files are not supported by this build yet (supported: ${supportedFormats().join(', ')})`);

  let read = 0;
  async function* stream(file: ModelFile): AsyncGenerator<Uint8Array> {
    for await (const chunk of sniffed.get(file) ?? byteChunks(file.source, { signal: options.signal })) {
      read += chunk.length;
      options.onProgress?.(read, total, file.name);
      yield chunk;
    }
  }
  return withTextures(await opener([primaries[0], ...anims], stream), options);
}

async function withTextures(opened: PlayableModel, options: OpenOptions): Promise<PlayableModel> {
  if (options.textures) {
    const { materials, warnings } = await playableMaterials(opened.model, opened.parts.length, { ...options.textures, signal: options.signal });
    opened.materials = materials;
    opened.textureWarnings = warnings;
  }
  return opened;
}

/** Files read with progress counted over all of them (a player's parts). */
function countedStream(files: ModelFile[], options: OpenOptions): (file: ModelFile) => AsyncIterable<Uint8Array> {
  const total = files.every((f) => typeof f.size === 'number') ? files.reduce((n, f) => n + (f.size ?? 0), 0) : undefined;
  let read = 0;
  return async function* (file: ModelFile) {
    for await (const chunk of byteChunks(file.source, { signal: options.signal })) {
      read += chunk.length;
      options.onProgress?.(read, total, file.name);
      yield chunk;
    }
  };
}

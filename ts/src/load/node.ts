/** Models from file paths in Node, streamed (never read whole). */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { readingFile } from '../base/errors.js';
import type { Md5Anim, Md5Mesh } from '../base/model.js';
import { parseMd5AnimStream, parseMd5MeshStream } from '../formats/md5/stream.js';
import type { Md2Model, Md3Model } from '../base/model.js';
import { parseMd2Stream } from '../formats/md2/stream.js';
import { parseMd3Stream } from '../formats/md3/stream.js';
import type { ReadOptions } from '../base/source.js';

/** A path as messages name it (a file: URL as its path). */
export const pathText = (path: string | URL): string => (typeof path === 'string' ? path : path.protocol === 'file:' ? fileURLToPath(path) : path.href);

/** A file as a stream of chunks (64 KiB by default). */
export function fileChunks(path: string | URL, chunkSize = 64 * 1024): AsyncIterable<Uint8Array> {
  return createReadStream(path, { highWaterMark: chunkSize });
}

export function loadMd5Mesh(path: string | URL, options?: ReadOptions): Promise<Md5Mesh> {
  return readingFile(pathText(path), () => parseMd5MeshStream(fileChunks(path), options));
}

/** The file's size tells the parser how big the frame store will be: one allocation instead of doubling. */
export async function loadMd5Anim(path: string | URL, options?: ReadOptions): Promise<Md5Anim> {
  const sizeHint = options?.sizeHint ?? (await stat(path)).size;
  return readingFile(pathText(path), () => parseMd5AnimStream(fileChunks(path), { ...options, sizeHint }));
}

/** An MD2 file, streamed: only its header and then its declared ofs_end bytes are ever held. */
export function loadMd2(path: string | URL, options?: ReadOptions): Promise<Md2Model> {
  return readingFile(pathText(path), () => parseMd2Stream(fileChunks(path), options));
}

/** An MD3 file, streamed: only its header and then its declared ofsEnd bytes are ever held. */
export function loadMd3(path: string | URL, options?: ReadOptions): Promise<Md3Model> {
  return readingFile(pathText(path), () => parseMd3Stream(fileChunks(path), options));
}

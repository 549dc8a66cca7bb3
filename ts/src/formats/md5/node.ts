/** MD5 files from paths in Node, streamed (never read whole). */
import { stat } from 'node:fs/promises';
import { readingFile } from '../../base/errors.js';
import type { ReadOptions } from '../../base/source.js';
import { fileChunks, pathText } from '../../load/node.js';
import type { Md5Anim, Md5Mesh } from '../../base/model.js';
import { parseMd5AnimStream, parseMd5MeshStream } from './stream.js';

export function loadMd5Mesh(path: string | URL, options?: ReadOptions): Promise<Md5Mesh> {
  return readingFile(pathText(path), () => parseMd5MeshStream(fileChunks(path), options));
}

/** The file's size tells the parser how big the frame store will be: one allocation instead of doubling. */
export async function loadMd5Anim(path: string | URL, options?: ReadOptions): Promise<Md5Anim> {
  const sizeHint = options?.sizeHint ?? (await stat(path)).size;
  return readingFile(pathText(path), () => parseMd5AnimStream(fileChunks(path), { ...options, sizeHint }));
}

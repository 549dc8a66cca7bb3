/** MD5 from any byte source, parsed chunk by chunk as the bytes arrive. */
import type { Md5Anim, Md5Mesh } from '../../base/model.js';
import { knownSize, parseStream, type ByteSource, type ReadOptions } from '../../base/source.js';
import { Md5AnimParser } from './anim.js';
import { Md5MeshParser } from './mesh.js';

export function parseMd5MeshStream(source: ByteSource, options?: ReadOptions): Promise<Md5Mesh> {
  return parseStream(new Md5MeshParser(), source, options);
}

export function parseMd5AnimStream(source: ByteSource, options?: ReadOptions): Promise<Md5Anim> {
  return parseStream(new Md5AnimParser({ expectedBytes: knownSize(source, options) }), source, options);
}

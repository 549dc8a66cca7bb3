/** MD2 from any byte source (the same ones MD5 takes), honouring `signal` and `onProgress`. */
import type { Md2Model } from '../../base/model.js';
import { parseStream, type ByteSource, type ReadOptions } from '../../base/source.js';
import { Md2Parser } from './parser.js';

export function parseMd2Stream(source: ByteSource, options?: ReadOptions): Promise<Md2Model> {
  return parseStream(new Md2Parser(), source, options);
}

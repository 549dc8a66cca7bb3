/** MDL from any byte source (the same ones MD2 takes), honouring `signal` and `onProgress`. */
import type { MdlModel } from '../../base/model.js';
import { parseStream, type ByteSource, type ReadOptions } from '../../base/source.js';
import { MdlParser } from './parser.js';

export function parseMdlStream(source: ByteSource, options?: ReadOptions): Promise<MdlModel> {
  return parseStream(new MdlParser(), source, options);
}

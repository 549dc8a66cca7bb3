/** MD3 from any byte source (the same sources as MD5: bytes, fetch Response, ReadableStream, async iterables). */
import type { Md3Model } from '../../base/model.js';
import { parseStream, type ByteSource, type ReadOptions } from '../../base/source.js';
import { Md3Parser } from './parser.js';

/** Honours `signal` (ABORTED) and `onProgress`; buffers at most the header's `ofsEnd` bytes. */
export function parseMd3Stream(source: ByteSource, options?: ReadOptions): Promise<Md3Model> {
  return parseStream(new Md3Parser(), source, options);
}

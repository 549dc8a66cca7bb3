/** IQM from any byte source (bytes, fetch Response, ReadableStream, async iterables). */
import type { IqmModel } from '../../base/model.js';
import { parseStream, type ByteSource, type ReadOptions } from '../../base/source.js';
import { IqmParser } from './parser.js';

/** Honours `signal` (ABORTED) and `onProgress`; buffers at most the header's `filesize` bytes. */
export function parseIqmStream(source: ByteSource, options?: ReadOptions): Promise<IqmModel> {
  return parseStream(new IqmParser(), source, options);
}

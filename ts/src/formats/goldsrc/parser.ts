/**
 * Half-Life studio models from one buffer (`parseGoldsrc`) or pushed chunks (`GoldsrcParser`, driven by
 * `parseGoldsrcStream`): the bytes are kept up to the header's `length` (base/buffered-parser.ts: tables are placed
 * by offsets, in any order), the ident and version checked on the first chunk, then `decode.ts` reads the tables.
 */
import { ErrorCode } from '../../base/errors.js';
import { BufferedParser, parseBuffered, type BufferedFormat } from '../../base/buffered-parser.js';
import { parseStream, type ByteSource, type ReadOptions } from '../../base/source.js';
import { decodeGoldsrc } from './decode.js';
import { checkGoldsrcPrefix, fail, readGoldsrcHead, type GoldsrcHead } from './header.js';
import { SEQ_HEADER_BYTES } from './limits.js';
import type { GoldsrcModel } from './model.js';

const GOLDSRC_BUFFERED: BufferedFormat<GoldsrcHead, GoldsrcModel> = {
  parserName: 'GoldsrcParser',
  // a plain number: a property read at the top level is one a bundler must keep (ts/test/tree-shaking.test.ts)
  headerBytes: SEQ_HEADER_BYTES,
  checkPrefix: checkGoldsrcPrefix,
  readHeader: readGoldsrcHead,
  end: (h) => h.length,
  truncated: (h, kept) => fail(ErrorCode.Truncated, `input ended at byte ${kept}, before the header's length ${h.length}`, kept),
  decode: decodeGoldsrc,
};

/** One whole file in memory → model. Throws ModelParseError on any bad input. */
export function parseGoldsrc(input: Uint8Array | ArrayBuffer): GoldsrcModel {
  return parseBuffered(GOLDSRC_BUFFERED, input);
}

/** Push parser: `write` chunks of any size in order, then `end`. A failure is sticky. */
export class GoldsrcParser extends BufferedParser<GoldsrcHead, GoldsrcModel> {
  constructor() {
    super(GOLDSRC_BUFFERED);
  }
}

/** Honours `signal` (ABORTED) and `onProgress`; buffers at most the header's `length` bytes. */
export function parseGoldsrcStream(source: ByteSource, options?: ReadOptions): Promise<GoldsrcModel> {
  return parseStream(new GoldsrcParser(), source, options);
}

/**
 * MDS files from one buffer (`parseMds`) or pushed chunks (`MdsParser`, driven by `parseMdsStream`): the bytes are
 * kept up to the header's `ofsEnd` (base/buffered-parser.ts: frames, bones, surfaces and tags are placed by offsets,
 * in any order), the ident and version checked on the first chunk, then `decode.ts` reads the tables.
 */
import { ErrorCode } from '../../base/errors.js';
import { BufferedParser, parseBuffered, type BufferedFormat } from '../../base/buffered-parser.js';
import { parseStream, type ByteSource, type ReadOptions } from '../../base/source.js';
import { decodeMds } from './decode.js';
import { checkMdsPrefix, fail, readMdsHead, type MdsHead } from './header.js';
import type { MdsModel } from './model.js';

const MDS_BUFFERED: BufferedFormat<MdsHead, MdsModel> = {
  parserName: 'MdsParser',
  headerBytes: 120,
  checkPrefix: checkMdsPrefix,
  readHeader: readMdsHead,
  end: (h) => h.end,
  truncated: (h, kept) => fail(ErrorCode.Truncated, `input ended at byte ${kept}, before the header's ofsEnd ${h.end}`, kept),
  decode: decodeMds,
};

/** One whole file in memory → model. Throws ModelParseError on any bad input. */
export function parseMds(input: Uint8Array | ArrayBuffer): MdsModel {
  return parseBuffered(MDS_BUFFERED, input);
}

/** Push parser: `write` chunks of any size in order, then `end`. A failure is sticky. */
export class MdsParser extends BufferedParser<MdsHead, MdsModel> {
  constructor() {
    super(MDS_BUFFERED);
  }
}

/** Honours `signal` (ABORTED) and `onProgress`; buffers at most the header's `ofsEnd` bytes. */
export function parseMdsStream(source: ByteSource, options?: ReadOptions): Promise<MdsModel> {
  return parseStream(new MdsParser(), source, options);
}

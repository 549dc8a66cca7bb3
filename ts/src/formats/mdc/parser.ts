/**
 * MDC from one buffer (`parseMdc`) or pushed chunks (`MdcParser`, driven by `parseMdcStream`): offset-driven as MD3,
 * so the bytes are kept up to the header's ofsEnd (base/buffered-parser.ts grows the buffer as bytes arrive), the
 * magic and version checked on the first chunk, then `decode.ts` reads the blocks.
 */
import { BufferedParser, parseBuffered, type BufferedFormat } from '../../base/buffered-parser.js';
import { ErrorCode } from '../../base/errors.js';
import { parseStream, type ByteSource, type ReadOptions } from '../../base/source.js';
import { decodeMdc } from './decode.js';
import { checkMdcPrefix, fail, readMdcHeader, type MdcHeader } from './header.js';
import type { MdcModel } from './model.js';

const MDC_BUFFERED: BufferedFormat<MdcHeader, MdcModel> = {
  parserName: 'MdcParser',
  // HEADER_BYTES, as a plain number: a property read at the top level is one a bundler must keep
  headerBytes: 112,
  checkPrefix: checkMdcPrefix,
  readHeader: readMdcHeader,
  end: (h) => h.ofsEnd,
  truncated: (h, kept) => fail(ErrorCode.Truncated, `input ended before ofsEnd ${h.ofsEnd}`, kept),
  decode: decodeMdc,
};

/** One whole file in memory → model. Throws ModelParseError on any bad input. */
export function parseMdc(input: Uint8Array | ArrayBuffer): MdcModel {
  return parseBuffered(MDC_BUFFERED, input);
}

/** Push parser: `write` chunks of any size in order, then `end`. A failure is sticky. */
export class MdcParser extends BufferedParser<MdcHeader, MdcModel> {
  constructor() {
    super(MDC_BUFFERED);
  }
}

/** Honours `signal` (ABORTED) and `onProgress`; buffers at most the header's ofsEnd bytes. */
export function parseMdcStream(source: ByteSource, options?: ReadOptions): Promise<MdcModel> {
  return parseStream(new MdcParser(), source, options);
}

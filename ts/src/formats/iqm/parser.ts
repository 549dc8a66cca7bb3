/**
 * IQM parsing from one buffer (`parseIqm`) or pushed chunks (`IqmParser`, driven by `parseIqmStream`): the bytes are
 * kept up to the header's `filesize` (base/buffered-parser.ts: blocks are placed by offsets, in any order), the header
 * checked as it comes in (magic at 16 bytes, version at 20), then `decode.ts` reads the blocks.
 */
import { ErrorCode } from '../../base/errors.js';
import type { IqmModel } from '../../base/model.js';
import { BufferedParser, parseBuffered, type BufferedFormat } from '../../base/buffered-parser.js';
import { decodeIqm } from './decode.js';
import { checkIqmHeaderPrefix, fail, readIqmHeader, type IqmHeader } from './header.js';
import { HEADER_BYTES } from './layout.js';

const IQM_BUFFERED: BufferedFormat<IqmHeader, IqmModel> = {
  parserName: 'IqmParser',
  headerBytes: HEADER_BYTES,
  checkPrefix: checkIqmHeaderPrefix,
  readHeader: readIqmHeader,
  end: (h) => h.filesize,
  truncated: (h, kept) => fail(ErrorCode.Truncated, `input ended before filesize ${h.filesize}`, kept),
  decode: decodeIqm,
};

/** One whole file in memory → model. Throws ModelParseError on any bad input. */
export function parseIqm(input: Uint8Array | ArrayBuffer): IqmModel {
  return parseBuffered(IQM_BUFFERED, input);
}

/** Push parser: `write` chunks of any size in order, then `end`. A failure is sticky. */
export class IqmParser extends BufferedParser<IqmHeader, IqmModel> {
  constructor() {
    super(IQM_BUFFERED);
  }
}

/**
 * MD3 parsing from one buffer (`parseMd3`) or pushed chunks (`Md3Parser`, driven by `parseMd3Stream`).
 *
 * MD3 is offset-driven and its offsets may point backwards, so the push parser keeps the bytes — but only up to
 * the header's `ofsEnd` (bounded by nothing but its int32 field, as in ioquake3; base/buffered-parser.ts grows the
 * buffer as bytes arrive, never to the declared size up front). The header is validated as soon as its 108 bytes are
 * in (its magic and version before), so a wrong file fails on its first chunk. Bytes past `ofsEnd` are counted, not
 * kept (TRAILING_BYTES warning).
 */
import { ErrorCode } from '../../base/errors.js';
import type { Md3Model } from '../../base/model.js';
import { BufferedParser, parseBuffered, type BufferedFormat } from '../../base/buffered-parser.js';
import { decodeMd3 } from './decode.js';
import { HEADER_BYTES } from './layout.js';
import { checkMd3HeaderPrefix, fail, readMd3Header, type Md3Header } from './header.js';

const MD3_BUFFERED: BufferedFormat<Md3Header, Md3Model> = {
  parserName: 'Md3Parser',
  headerBytes: HEADER_BYTES,
  checkPrefix: checkMd3HeaderPrefix,
  readHeader: readMd3Header,
  end: (h) => h.ofsEnd,
  truncated: (h, kept) => fail(ErrorCode.Truncated, `input ended before ofsEnd ${h.ofsEnd}`, kept),
  decode: decodeMd3,
};

/** One whole file in memory → model. Throws ModelParseError on any bad input. */
export function parseMd3(input: Uint8Array | ArrayBuffer): Md3Model {
  return parseBuffered(MD3_BUFFERED, input);
}

/** Push parser: `write` chunks of any size in order, then `end`. A failure is sticky. */
export class Md3Parser extends BufferedParser<Md3Header, Md3Model> {
  constructor() {
    super(MD3_BUFFERED);
  }
}

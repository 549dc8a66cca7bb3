/**
 * MDM and MDX files from one buffer or pushed chunks: the bytes are kept up to the header's `ofsEnd`
 * (base/buffered-parser.ts), ident and version checked on the first chunk, then `decode.ts` reads the tables.
 */
import { ErrorCode } from '../../base/errors.js';
import { BufferedParser, parseBuffered, type BufferedFormat } from '../../base/buffered-parser.js';
import { parseStream, type ByteSource, type ReadOptions } from '../../base/source.js';
import { decodeMdm, decodeMdx } from './decode.js';
import { checkMdmPrefix, checkMdxPrefix, fail, readMdmHead, readMdxHead, type WolfHead } from './header.js';
import type { MdmModel, MdxModel } from './model.js';

const truncated = (h: WolfHead, kept: number) => fail(ErrorCode.Truncated, `input ended at byte ${kept}, before the header's ofsEnd ${h.end}`, kept);

const MDM_BUFFERED: BufferedFormat<WolfHead, MdmModel> = { parserName: 'MdmParser', headerBytes: 100, checkPrefix: checkMdmPrefix, readHeader: readMdmHead, end: (h) => h.end, truncated, decode: decodeMdm };
const MDX_BUFFERED: BufferedFormat<WolfHead, MdxModel> = { parserName: 'MdxParser', headerBytes: 96, checkPrefix: checkMdxPrefix, readHeader: readMdxHead, end: (h) => h.end, truncated, decode: decodeMdx };

export const parseMdm = (input: Uint8Array | ArrayBuffer): MdmModel => parseBuffered(MDM_BUFFERED, input);
export const parseMdx = (input: Uint8Array | ArrayBuffer): MdxModel => parseBuffered(MDX_BUFFERED, input);

export class MdmParser extends BufferedParser<WolfHead, MdmModel> {
  constructor() {
    super(MDM_BUFFERED);
  }
}
export class MdxParser extends BufferedParser<WolfHead, MdxModel> {
  constructor() {
    super(MDX_BUFFERED);
  }
}

export const parseMdmStream = (source: ByteSource, options?: ReadOptions): Promise<MdmModel> => parseStream(new MdmParser(), source, options);
export const parseMdxStream = (source: ByteSource, options?: ReadOptions): Promise<MdxModel> => parseStream(new MdxParser(), source, options);

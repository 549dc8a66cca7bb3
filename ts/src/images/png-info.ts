/**
 * What a PNG's header says, without inflating anything: the chunk structure is walked (lengths inside the file,
 * IHDR first with fields the PNG standard defines, PLTE before the data of a palette image, IDAT present, IEND last)
 * so a PNG handed on as it is (into a .glb, to a browser) is at least whole. The compressed data is left to whoever
 * decodes it.
 *
 * CRCs are checked as libpng checks them by default (`png_set_crc_action` PNG_CRC_DEFAULT; PNG specification 13.2,
 * "a CRC error in an ancillary chunk … the chunk may be ignored"): a critical chunk (upper-case first letter: IHDR,
 * PLTE, IDAT, IEND) with a bad CRC is an error (CRC_MISMATCH: libpng, and so Daemon and browsers built on it, refuse
 * the image); an ancillary chunk with a bad CRC is dropped by libpng with a warning, and here too it is a warning
 * (ANCILLARY_CRC), its place in `badAncillary` so a writer can leave it out (`withoutChunks`).
 */
import { crc32Update } from '../base/crc32.js';
import { ErrorCode, type ParseWarning } from '../base/errors.js';
import { fail, need, u32be } from './bytes.js';
import type { ImageInfo } from './types.js';

export const PNG_SIGNATURE = /* @__PURE__ */ Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** Bit depths each colour type allows (PNG specification, 11.2.2 IHDR). */
const DEPTHS: Record<number, readonly number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };
const COLOR_TYPE_NAMES: Record<number, string> = { 0: 'grey', 2: 'RGB', 3: 'palette', 4: 'grey + alpha', 6: 'RGBA' };

export interface PngInfo extends ImageInfo {
  bitDepth: number;
  colorType: number;
  interlaced: boolean;
  /** Ancillary chunks whose CRC is wrong (libpng drops them): where each starts and its whole length (12 + data). */
  badAncillary: { type: string; offset: number; bytes: number }[];
  warnings: ParseWarning[];
}

export function isPng(b: Uint8Array): boolean {
  return b.length >= 8 && PNG_SIGNATURE.every((v, i) => b[i] === v);
}

const chunkType = (b: Uint8Array, at: number) => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);

/** The CRC stored after a chunk's data equals the CRC of its type and data. */
const crcHolds = (b: Uint8Array, at: number, length: number) => crc32Update(0, b.subarray(at + 4, at + 8 + length)) === u32be(b, at + 8 + length);

/** A copy of the PNG `b` without the chunks listed (by offset and length, e.g. `badAncillary`). */
export function withoutChunks(b: Uint8Array, chunks: readonly { offset: number; bytes: number }[]): Uint8Array {
  const out = new Uint8Array(b.length - chunks.reduce((n, c) => n + c.bytes, 0));
  let from = 0;
  let to = 0;
  for (const c of [...chunks].sort((x, y) => x.offset - y.offset)) {
    out.set(b.subarray(from, c.offset), to);
    to += c.offset - from;
    from = c.offset + c.bytes;
  }
  out.set(b.subarray(from), to);
  return out;
}

/**
 * The width and height a PNG's IHDR declares (bytes 16–23), read from its first 24 bytes and nothing else: what a
 * decoder must check before it inflates (`decodePngRgba`), cheap on a file of any size. TRUNCATED, BAD_MAGIC or
 * MISSING_BLOCK when those bytes are not a PNG's signature and IHDR.
 */
export function pngSize(b: Uint8Array): { width: number; height: number } {
  need(b, 8, 'a PNG signature');
  if (!isPng(b)) fail(ErrorCode.BadMagic, 'not a PNG signature', 0);
  need(b, 8 + 8 + 8, 'a PNG IHDR chunk');
  if (chunkType(b, 12) !== 'IHDR' || u32be(b, 8) !== 13) fail(ErrorCode.MissingBlock, 'a PNG starts with a 13-byte IHDR chunk', 8);
  return { width: u32be(b, 16), height: u32be(b, 20) };
}

export function pngInfo(b: Uint8Array): PngInfo {
  need(b, 8, 'a PNG signature');
  if (!isPng(b)) fail(ErrorCode.BadMagic, 'not a PNG signature', 0);
  need(b, 8 + 8 + 13, 'a PNG IHDR chunk');
  if (chunkType(b, 12) !== 'IHDR' || u32be(b, 8) !== 13) fail(ErrorCode.MissingBlock, 'a PNG starts with a 13-byte IHDR chunk', 8);
  const width = u32be(b, 16);
  const height = u32be(b, 20);
  const [bitDepth, colorType, compression, filter, interlace] = [b[24], b[25], b[26], b[27], b[28]];
  if (width < 1 || height < 1 || width > 0x7fffffff || height > 0x7fffffff) fail(ErrorCode.BadCount, `PNG size ${width}×${height} (each must be in [1, 2³¹ − 1])`, 16);
  if (!DEPTHS[colorType]?.includes(bitDepth)) fail(ErrorCode.Unsupported, `PNG colour type ${colorType} with bit depth ${bitDepth} is not a PNG pixel format`, 24);
  if (compression !== 0 || filter !== 0 || interlace > 1) fail(ErrorCode.Unsupported, `PNG compression ${compression}, filter ${filter}, interlace ${interlace} (0, 0 and 0/1 are defined)`, 26);

  let hasAlpha = colorType === 4 || colorType === 6;
  let palette = false;
  let data = false;
  let end = -1;
  let at = 8;
  const warnings: ParseWarning[] = [];
  const badAncillary: PngInfo['badAncillary'] = [];
  while (at < b.length) {
    need(b, at + 8, 'a PNG chunk header');
    const length = u32be(b, at);
    const type = chunkType(b, at + 4);
    if (length > 0x7fffffff) fail(ErrorCode.BadCount, `PNG chunk ${type} declares ${length} bytes (at most 2³¹ − 1)`, at);
    if (at + 12 + length > b.length) fail(ErrorCode.Truncated, `PNG chunk ${type} of ${length} bytes runs past the end of the file`, b.length);
    if (!crcHolds(b, at, length)) {
      if ((b[at + 4] & 0x20) === 0) fail(ErrorCode.CrcMismatch, `PNG critical chunk ${type} at byte ${at} has a bad CRC (libpng refuses the image)`, at);
      badAncillary.push({ type, offset: at, bytes: 12 + length });
      warnings.push({ code: 'ANCILLARY_CRC', message: `PNG ancillary chunk ${type} at byte ${at} has a bad CRC: libpng and browsers drop the chunk and decode the image`, offset: at });
      at += 12 + length;
      continue;
    }
    if (type === 'PLTE') palette = true;
    else if (type === 'tRNS' && !data) hasAlpha = true;
    else if (type === 'IDAT') {
      if (colorType === 3 && !palette) fail(ErrorCode.MissingBlock, 'a palette PNG has no PLTE chunk before its image data', at);
      data = true;
    } else if (type === 'IEND') {
      end = at + 12;
      break;
    }
    at += 12 + length;
  }
  if (!data) fail(ErrorCode.MissingBlock, 'a PNG has no IDAT chunk', b.length);
  if (end < 0) fail(ErrorCode.Truncated, 'a PNG ends with an IEND chunk', b.length);
  if (end < b.length) warnings.push({ code: 'TRAILING_BYTES', message: `${b.length - end} bytes after IEND`, offset: end });
  const kind = `${COLOR_TYPE_NAMES[colorType]} ${bitDepth}-bit`;
  return { format: 'png', width, height, hasAlpha, bitDepth, colorType, interlaced: interlace === 1, detail: `PNG ${kind}${interlace ? ', Adam7' : ''}`, badAncillary, warnings };
}

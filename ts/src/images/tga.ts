/**
 * TGA (Truevision Targa) → RGBA8, top row first.
 *
 * Reads every variant the TGA 2.0 specification defines for 8-bit indices and 8/15/16/24/32-bit pixels: types 1/9
 * (colour-mapped, 15/16/24/32-bit map entries), 2/10 (true colour 15/16/24/32 bpp), 3/11 (grey 8 bpp, grey + alpha
 * 16 bpp), raw or RLE, any origin. Where the engines read a file, this reads it as they do (ioquake3
 * code/renderercommon/tr_image_tga.c `R_LoadTGA`, Doom 3 neo/renderer/Image_files.cpp `LoadTGA`, Quake 2
 * ref_gl/gl_image.c `LoadTGA`):
 * - a 32-bit pixel's fourth byte is its alpha whatever the descriptor's alpha-bit count says (the engines never look
 *   at bits 0–3, nor at a TGA 2.0 extension area);
 * - type 3 with 24 or 32 bpp is read as BGR(A), as the engines' shared switch on pixel size does;
 * - RLE packets run on across rows, and a packet running past the last pixel is cut there;
 * - a raw packet must be whole in the file, even past the last pixel (ioquake3 "file truncated").
 * Beyond the engines (which refuse these; the result carries an ENGINE_UNSUPPORTED warning): colour maps, 15/16-bit
 * pixels, RLE grey. 15/16-bit channels expand as ⌊v · 255 / 31⌋ (stb_image's and Pillow's rule); a 16-bit pixel's top
 * bit is alpha (1 = opaque) only when the descriptor declares an alpha bit, else the pixel is opaque. Descriptor bit
 * 4 (right-to-left) is honoured; the engines ignore it (RIGHT_TO_LEFT warning).
 *
 * Before the output is allocated the dimensions are checked against the bytes present: raw data must be all there,
 * and RLE data could at best give 128 pixels per (1 + pixel size) bytes, so a small file never costs a large buffer.
 */
import { ErrorCode, type ParseWarning } from '../base/errors.js';
import { fail, need, u16le } from './bytes.js';
import { checkDimensions, checkPixels, type DecodeLimits } from './dimensions.js';
import type { ImageInfo, RgbaImage } from './types.js';

export const TGA_HEADER_BYTES = 18;

/** Header field offsets. */
export const TGA_FIELD = {
  idLength: 0,
  colorMapType: 1,
  imageType: 2,
  mapFirst: 3,
  mapLength: 5,
  mapEntryBits: 7,
  width: 12,
  height: 14,
  pixelBits: 16,
  descriptor: 17,
} as const;

/** How one stored pixel becomes RGBA. */
const enum Pixel {
  Index8,
  Grey8,
  GreyAlpha16,
  Bgr15,
  Bgra16,
  Bgr24,
  Bgra32,
}

const BYTES_PER_PIXEL = [1, 1, 2, 2, 2, 3, 4];

/** ⌊v · 255 / 31⌋ for a 5-bit channel. */
const FIVE_TO_EIGHT = /* @__PURE__ */ Uint8Array.from({ length: 32 }, (_, v) => Math.floor((v * 255) / 31));

export interface TgaHeader {
  idLength: number;
  colorMapType: number;
  imageType: number;
  mapFirst: number;
  mapLength: number;
  mapEntryBits: number;
  width: number;
  height: number;
  pixelBits: number;
  descriptor: number;
  /** Derived: RLE packets (types 9, 10, 11). */
  rle: boolean;
  /** Derived: first row stored is the top one (descriptor bit 5). */
  topFirst: boolean;
  /** Derived: pixels stored right to left (descriptor bit 4). */
  rightToLeft: boolean;
  /** Derived: bits 0–3 of the descriptor. */
  alphaBits: number;
  /** Derived: where the colour map starts (after the ID field) and where the pixel data starts. */
  mapOffset: number;
  dataOffset: number;
}

/** The 18-byte header, validated: type, depths and dimensions known, ID field and colour map inside the file. */
export function readTgaHeader(b: Uint8Array): TgaHeader {
  need(b, TGA_HEADER_BYTES, 'a TGA header');
  const h: TgaHeader = {
    idLength: b[0],
    colorMapType: b[1],
    imageType: b[2],
    mapFirst: u16le(b, 3),
    mapLength: u16le(b, 5),
    mapEntryBits: b[7],
    width: u16le(b, 12),
    height: u16le(b, 14),
    pixelBits: b[16],
    descriptor: b[17],
    rle: b[2] >= 9,
    topFirst: (b[17] & 0x20) !== 0,
    rightToLeft: (b[17] & 0x10) !== 0,
    alphaBits: b[17] & 0x0f,
    mapOffset: TGA_HEADER_BYTES + b[0],
    dataOffset: 0,
  };
  if (h.colorMapType > 1) fail(ErrorCode.Unsupported, `TGA colour map type ${h.colorMapType} (only 0 and 1 are defined)`, TGA_FIELD.colorMapType);
  const base = h.imageType & 7;
  if (![1, 2, 3, 9, 10, 11].includes(h.imageType)) {
    fail(ErrorCode.Unsupported, `TGA image type ${h.imageType} (types 1, 2, 3, 9, 10 and 11 are read)`, TGA_FIELD.imageType);
  }
  pixelKind(h); // throws for a depth the type does not allow
  if (base === 1 && h.colorMapType !== 1) fail(ErrorCode.MissingBlock, `TGA type ${h.imageType} is colour-mapped but has no colour map`, TGA_FIELD.colorMapType);
  if (h.colorMapType === 1 && h.mapLength > 0 && ![15, 16, 24, 32].includes(h.mapEntryBits)) {
    fail(ErrorCode.Unsupported, `TGA colour map entries of ${h.mapEntryBits} bits (15, 16, 24 and 32 are read)`, TGA_FIELD.mapEntryBits);
  }
  checkDimensions(h.width, h.height, TGA_FIELD.width, 'TGA image');
  need(b, h.mapOffset, `the TGA ID field (${h.idLength} bytes)`);
  const mapBytes = h.colorMapType === 1 ? h.mapLength * Math.ceil(h.mapEntryBits / 8) : 0;
  h.dataOffset = h.mapOffset + mapBytes;
  need(b, h.dataOffset, `the TGA colour map (${h.mapLength} entries of ${h.mapEntryBits} bits)`);
  return h;
}

function pixelKind(h: TgaHeader): Pixel {
  const bits = h.pixelBits;
  const base = h.imageType & 7;
  const bad = (allowed: string): never =>
    fail(ErrorCode.Unsupported, `TGA type ${h.imageType} with ${bits}-bit pixels (this type is read with ${allowed})`, TGA_FIELD.pixelBits);
  if (base === 1) return bits === 8 ? Pixel.Index8 : bad('8-bit indices');
  if (bits === 24) return Pixel.Bgr24;
  if (bits === 32) return Pixel.Bgra32;
  if (base === 3) {
    if (bits === 8) return Pixel.Grey8;
    if (bits === 16) return Pixel.GreyAlpha16;
    return bad('8, 16, 24 or 32 bits');
  }
  if (bits === 15) return Pixel.Bgr15;
  if (bits === 16) return h.alphaBits > 0 ? Pixel.Bgra16 : Pixel.Bgr15;
  return bad('15, 16, 24 or 32 bits');
}

/** Whether ioquake3 / Doom 3 `LoadTGA` would load this header: types 2, 3, 10 without a colour map, 24/32 bpp (type 3 also 8). */
export function enginesLoad(h: TgaHeader): boolean {
  if (h.colorMapType !== 0) return false;
  if (h.imageType === 2 || h.imageType === 10) return h.pixelBits === 24 || h.pixelBits === 32;
  return h.imageType === 3 && (h.pixelBits === 8 || h.pixelBits === 24 || h.pixelBits === 32);
}

function hasAlpha(h: TgaHeader): boolean {
  const kind = pixelKind(h);
  if (kind === Pixel.Index8) return h.mapEntryBits === 32 || (h.mapEntryBits === 16 && h.alphaBits > 0);
  return kind === Pixel.Bgra32 || kind === Pixel.Bgra16 || kind === Pixel.GreyAlpha16;
}

const TYPE_NAMES: Record<number, string> = {
  1: 'colour-mapped',
  2: 'true colour',
  3: 'grey',
  9: 'RLE colour-mapped',
  10: 'RLE true colour',
  11: 'RLE grey',
};

/** Header facts without decoding. */
export function tgaInfo(b: Uint8Array): ImageInfo {
  const h = readTgaHeader(b);
  const map = h.colorMapType === 1 ? `, ${h.mapLength} map entries of ${h.mapEntryBits} bits` : '';
  const origin = `${h.topFirst ? 'top' : 'bottom'}-${h.rightToLeft ? 'right' : 'left'} origin`;
  return {
    format: 'tga',
    width: h.width,
    height: h.height,
    hasAlpha: hasAlpha(h),
    detail: `TGA type ${h.imageType} (${TYPE_NAMES[h.imageType]}), ${h.pixelBits} bpp${map}, ${origin}`,
  };
}

/**
 * The colour map as 256 RGBA entries, with `valid[i]` = 1 for the indices it defines: an 8-bit index names entry
 * `index` of a map whose stored entries are `mapFirst … mapFirst + mapLength − 1` (Pillow reads it the same way).
 */
function readColorMap(b: Uint8Array, h: TgaHeader): { map: Uint8Array; valid: Uint8Array } {
  const map = new Uint8Array(256 * 4);
  const valid = new Uint8Array(256);
  const kind = h.mapEntryBits === 32 ? Pixel.Bgra32 : h.mapEntryBits === 24 ? Pixel.Bgr24 : h.mapEntryBits === 16 && h.alphaBits > 0 ? Pixel.Bgra16 : Pixel.Bgr15;
  const size = BYTES_PER_PIXEL[kind];
  const last = Math.min(256, h.mapFirst + h.mapLength);
  for (let i = h.mapFirst; i < last; i++) {
    convert(kind, b, h.mapOffset + (i - h.mapFirst) * size, 1, map, i * 4, 4, map, valid);
    valid[i] = 1;
  }
  return { map, valid };
}

/**
 * Converts `count` stored pixels at `src[s…]` into RGBA at `dst[d…]`, stepping `step` (±4) bytes per pixel. `map`
 * and `valid` are the colour map for Index8 (an index outside it is INDEX_OUT_OF_RANGE at its byte).
 */
function convert(kind: Pixel, src: Uint8Array, s: number, count: number, dst: Uint8Array, d: number, step: number, map: Uint8Array, valid: Uint8Array): void {
  switch (kind) {
    case Pixel.Bgra32:
      for (let k = 0; k < count; k++, s += 4, d += step) {
        dst[d] = src[s + 2];
        dst[d + 1] = src[s + 1];
        dst[d + 2] = src[s];
        dst[d + 3] = src[s + 3];
      }
      return;
    case Pixel.Bgr24:
      for (let k = 0; k < count; k++, s += 3, d += step) {
        dst[d] = src[s + 2];
        dst[d + 1] = src[s + 1];
        dst[d + 2] = src[s];
        dst[d + 3] = 255;
      }
      return;
    case Pixel.Grey8:
      for (let k = 0; k < count; k++, s++, d += step) {
        const g = src[s];
        dst[d] = g;
        dst[d + 1] = g;
        dst[d + 2] = g;
        dst[d + 3] = 255;
      }
      return;
    case Pixel.GreyAlpha16:
      for (let k = 0; k < count; k++, s += 2, d += step) {
        const g = src[s];
        dst[d] = g;
        dst[d + 1] = g;
        dst[d + 2] = g;
        dst[d + 3] = src[s + 1];
      }
      return;
    case Pixel.Bgr15:
    case Pixel.Bgra16: {
      const withAlpha = kind === Pixel.Bgra16;
      for (let k = 0; k < count; k++, s += 2, d += step) {
        const v = src[s] | (src[s + 1] << 8);
        dst[d] = FIVE_TO_EIGHT[(v >> 10) & 31];
        dst[d + 1] = FIVE_TO_EIGHT[(v >> 5) & 31];
        dst[d + 2] = FIVE_TO_EIGHT[v & 31];
        dst[d + 3] = withAlpha && (v & 0x8000) === 0 ? 0 : 255;
      }
      return;
    }
    case Pixel.Index8:
      for (let k = 0; k < count; k++, s++, d += step) {
        const i = src[s];
        if (valid[i] === 0) fail(ErrorCode.IndexOutOfRange, `TGA pixel index ${i} outside the colour map (entries ${mapRange(valid)})`, s);
        const m = i * 4;
        dst[d] = map[m];
        dst[d + 1] = map[m + 1];
        dst[d + 2] = map[m + 2];
        dst[d + 3] = map[m + 3];
      }
  }
}

function mapRange(valid: Uint8Array): string {
  const first = valid.indexOf(1);
  return first < 0 ? 'none' : `${first}–${valid.lastIndexOf(1)}`;
}

/** Decodes a TGA file into RGBA8, top row first. Throws ModelParseError for anything malformed or unsupported. */
export function decodeTga(b: Uint8Array, limits: DecodeLimits = {}): RgbaImage {
  const h = readTgaHeader(b);
  const kind = pixelKind(h);
  const size = BYTES_PER_PIXEL[kind];
  const { width: w, height: rows } = h;
  const pixels = w * rows;
  const payload = b.length - h.dataOffset;
  if (!h.rle && pixels * size > payload) {
    fail(ErrorCode.Truncated, `TGA pixel data: ${w}×${rows} at ${size} bytes per pixel needs ${pixels * size} bytes; ${payload} follow the header`, b.length);
  }
  if (h.rle && pixels > Math.ceil(payload / (1 + size)) * 128) {
    fail(ErrorCode.Truncated, `TGA RLE data: ${payload} bytes cannot hold ${w}×${rows} pixels (at most 128 per ${1 + size}-byte packet)`, b.length);
  }
  // after the format's own checks (a file that cannot hold its pixels is TRUNCATED), before the output exists
  checkPixels(w, rows, TGA_FIELD.width, 'TGA image', limits);
  const { map, valid } = kind === Pixel.Index8 ? readColorMap(b, h) : { map: new Uint8Array(0), valid: new Uint8Array(0) };
  const rgba = new Uint8Array(pixels * 4);
  const rowBytes = w * 4;
  const step = h.rightToLeft ? -4 : 4;
  // Where file row r starts in the output: bottom-up files fill the last output row first.
  const rowStart = (r: number) => (h.topFirst ? r : rows - 1 - r) * rowBytes + (h.rightToLeft ? rowBytes - 4 : 0);

  let s = h.dataOffset;
  if (!h.rle) {
    for (let r = 0; r < rows; r++, s += w * size) convert(kind, b, s, w, rgba, rowStart(r), step, map, valid);
  } else {
    const n = b.length;
    const one = new Uint8Array(4);
    let row = 0;
    let col = 0;
    let d = rowStart(0);
    while (row < rows) {
      if (s >= n) fail(ErrorCode.Truncated, `TGA RLE data ends at row ${row} of ${rows}, column ${col}`, n);
      const header = b[s++];
      let count = (header & 0x7f) + 1;
      const run = header >= 0x80;
      const packetBytes = run ? size : count * size;
      if (s + packetBytes > n) fail(ErrorCode.Truncated, `TGA ${run ? 'run' : 'raw'} packet of ${count} pixels needs ${packetBytes} bytes; ${n - s} remain`, n);
      if (run) convert(kind, b, s, 1, one, 0, 4, map, valid);
      while (count > 0 && row < rows) {
        const take = Math.min(count, w - col);
        if (run) {
          for (let k = 0; k < take; k++, d += step) {
            rgba[d] = one[0];
            rgba[d + 1] = one[1];
            rgba[d + 2] = one[2];
            rgba[d + 3] = one[3];
          }
        } else {
          convert(kind, b, s, take, rgba, d, step, map, valid);
          s += take * size;
          d += take * step;
        }
        count -= take;
        col += take;
        if (col === w) {
          col = 0;
          row++;
          if (row < rows) d = rowStart(row);
        }
      }
      // A packet running past the last pixel is cut there (the engines' `goto breakOut`).
      s += run ? size : count * size;
    }
  }

  const warnings: ParseWarning[] = [];
  if (!enginesLoad(h)) {
    warnings.push({
      code: 'ENGINE_UNSUPPORTED',
      message: `TGA type ${h.imageType}, ${h.pixelBits} bpp${h.colorMapType ? ', colour map' : ''}: ioquake3 R_LoadTGA and Doom 3 LoadTGA refuse it (they load types 2, 3 and 10 with 24/32 bpp or 8-bit grey, no colour map)`,
      offset: TGA_FIELD.imageType,
    });
  }
  if (h.rightToLeft) {
    warnings.push({
      code: 'RIGHT_TO_LEFT',
      message: 'TGA descriptor bit 4 (right-to-left) is set: decoded mirrored back here; ioquake3 and Doom 3 ignore the bit',
      offset: TGA_FIELD.descriptor,
    });
  }
  return { kind: 'rgba', format: 'tga', width: w, height: rows, rgba, warnings };
}

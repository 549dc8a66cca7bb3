/**
 * BMP (Windows bitmap) → RGBA8, top row first. Not a Quake format, but model packs ship BMP skins (assimp's
 * dolphin.md2 names `dolphin_f.bmp`), and Doom 3 loads them (neo/renderer/Image_files.cpp `LoadBMP`: uncompressed,
 * 8, 24 or 32 bits per pixel).
 *
 * Read here: uncompressed (BI_RGB) 1, 4 and 8-bit paletted, 24 and 32-bit, bottom-up or top-down (negative height),
 * with a BITMAPCOREHEADER (12 bytes) or a BITMAPINFOHEADER or later (≥ 40 bytes). Everything else (RLE4/RLE8,
 * BI_BITFIELDS, embedded JPEG/PNG, 16 bpp) is UNSUPPORTED. Where Doom 3's loader and the format disagree this follows
 * the format: rows are padded to 4 bytes (Doom 3 reads them unpadded, which only matters for widths whose rows are
 * not a multiple of 4 bytes) and the palette follows the header whatever its size (Doom 3 assumes a 40-byte header).
 * A 32-bit pixel's fourth byte is its alpha, as in Doom 3, unless every pixel's is 0: then the byte is the format's
 * "reserved" and the image is opaque (what browsers do). A palette index past the stored palette is black.
 */
import { ErrorCode, type ParseWarning } from '../base/errors.js';
import { fail, i32le, need, u16le, u32le } from './bytes.js';
import { checkDimensions, checkPixels, type DecodeLimits } from './dimensions.js';
import type { ImageInfo, RgbaImage } from './types.js';

const FILE_HEADER_BYTES = 14;

const COMPRESSION_NAMES: Record<number, string> = { 0: 'BI_RGB', 1: 'BI_RLE8', 2: 'BI_RLE4', 3: 'BI_BITFIELDS', 4: 'BI_JPEG', 5: 'BI_PNG', 6: 'BI_ALPHABITFIELDS' };

export interface BmpHeader {
  width: number;
  height: number;
  topDown: boolean;
  bitsPerPixel: number;
  compression: number;
  /** Where the pixel rows start (bfOffBits). */
  dataOffset: number;
  /** Where the palette starts and how many entries it stores, and their size (4, or 3 with a core header). */
  paletteOffset: number;
  paletteEntries: number;
  paletteEntryBytes: number;
  /** Bytes per stored row (padded to 4). */
  rowBytes: number;
}

/** The file and DIB headers, validated for what this reader decodes. */
export function readBmpHeader(b: Uint8Array): BmpHeader {
  need(b, FILE_HEADER_BYTES + 4, 'a BMP header');
  if (b[0] !== 0x42 || b[1] !== 0x4d) fail(ErrorCode.BadMagic, 'a BMP starts with "BM"', 0);
  const dataOffset = u32le(b, 10);
  const dibBytes = u32le(b, 14);
  let width: number;
  let height: number;
  let bitsPerPixel: number;
  let compression = 0;
  let colorsUsed = 0;
  if (dibBytes === 12) {
    need(b, FILE_HEADER_BYTES + 12, 'a BMP core header');
    width = u16le(b, 18);
    height = u16le(b, 20);
    bitsPerPixel = u16le(b, 24);
  } else if (dibBytes >= 40) {
    need(b, FILE_HEADER_BYTES + 40, 'a BMP info header');
    width = i32le(b, 18);
    height = i32le(b, 22);
    bitsPerPixel = u16le(b, 28);
    compression = u32le(b, 30);
    colorsUsed = u32le(b, 46);
  } else {
    fail(ErrorCode.Unsupported, `BMP DIB header of ${dibBytes} bytes (12, or 40 and more, are read)`, 14);
  }
  const topDown = height < 0;
  height = Math.abs(height);
  if (compression !== 0) {
    fail(ErrorCode.Unsupported, `BMP compression ${COMPRESSION_NAMES[compression] ?? compression} (uncompressed BI_RGB is read)`, 30);
  }
  if (![1, 4, 8, 24, 32].includes(bitsPerPixel)) fail(ErrorCode.Unsupported, `BMP with ${bitsPerPixel} bits per pixel (1, 4, 8, 24 and 32 are read)`, dibBytes === 12 ? 24 : 28);
  checkDimensions(width, height, 18, 'BMP image');
  const paletteEntryBytes = dibBytes === 12 ? 3 : 4;
  const paletteOffset = FILE_HEADER_BYTES + dibBytes;
  let paletteEntries = 0;
  if (bitsPerPixel <= 8) {
    const max = 1 << bitsPerPixel;
    paletteEntries = colorsUsed === 0 || colorsUsed > max ? max : colorsUsed;
    // Only what lies between the headers and the pixels can be palette.
    paletteEntries = Math.max(0, Math.min(paletteEntries, Math.floor((Math.min(dataOffset, b.length) - paletteOffset) / paletteEntryBytes)));
  }
  const rowBytes = Math.ceil((width * bitsPerPixel) / 32) * 4;
  return { width, height, topDown, bitsPerPixel, compression, dataOffset, paletteOffset, paletteEntries, paletteEntryBytes, rowBytes };
}

/** Header facts without decoding. */
export function bmpInfo(b: Uint8Array): ImageInfo {
  const h = readBmpHeader(b);
  return {
    format: 'bmp',
    width: h.width,
    height: h.height,
    hasAlpha: h.bitsPerPixel === 32,
    detail: `BMP ${h.bitsPerPixel} bpp${h.bitsPerPixel <= 8 ? ` (${h.paletteEntries} palette entries)` : ''}, ${h.topDown ? 'top-down' : 'bottom-up'}`,
  };
}

/** Decodes a BMP file into RGBA8, top row first. Throws ModelParseError for anything malformed or unsupported. */
export function decodeBmp(b: Uint8Array, limits: DecodeLimits = {}): RgbaImage {
  const h = readBmpHeader(b);
  const { width: w, height: rows, bitsPerPixel: bpp, rowBytes } = h;
  if (h.dataOffset > b.length || rows * rowBytes > b.length - h.dataOffset) {
    fail(ErrorCode.Truncated, `BMP pixel rows: ${rows} of ${rowBytes} bytes from byte ${h.dataOffset} need ${h.dataOffset + rows * rowBytes} bytes; the file has ${b.length}`, b.length);
  }
  checkPixels(w, rows, 18, 'BMP image', limits); // after the format's checks, before the output exists
  const warnings: ParseWarning[] = [];
  // Palette as RGBA; entries past the stored ones stay black (opaque).
  const palette = new Uint8Array(256 * 4);
  for (let i = 0; i < 256; i++) palette[i * 4 + 3] = 255;
  for (let i = 0; i < h.paletteEntries; i++) {
    const p = h.paletteOffset + i * h.paletteEntryBytes;
    palette[i * 4] = b[p + 2];
    palette[i * 4 + 1] = b[p + 1];
    palette[i * 4 + 2] = b[p];
  }
  const rgba = new Uint8Array(w * rows * 4);
  let alphaSeen = 0;
  let beyondPalette = -1;
  for (let r = 0; r < rows; r++) {
    const s = h.dataOffset + r * rowBytes;
    let d = (h.topDown ? r : rows - 1 - r) * w * 4;
    if (bpp === 24 || bpp === 32) {
      const size = bpp >> 3;
      for (let x = 0, p = s; x < w; x++, p += size, d += 4) {
        rgba[d] = b[p + 2];
        rgba[d + 1] = b[p + 1];
        rgba[d + 2] = b[p];
        const a = size === 4 ? b[p + 3] : 255;
        rgba[d + 3] = a;
        alphaSeen |= a;
      }
    } else {
      const perByte = 8 / bpp;
      const mask = (1 << bpp) - 1;
      for (let x = 0; x < w; x++, d += 4) {
        const byte = b[s + Math.floor(x / perByte)];
        const i = (byte >> (8 - bpp * ((x % perByte) + 1))) & mask;
        if (i >= h.paletteEntries && beyondPalette < 0) beyondPalette = s + Math.floor(x / perByte);
        const m = i * 4;
        rgba[d] = palette[m];
        rgba[d + 1] = palette[m + 1];
        rgba[d + 2] = palette[m + 2];
        rgba[d + 3] = 255;
      }
    }
  }
  if (bpp === 32 && alphaSeen === 0) {
    for (let d = 3; d < rgba.length; d += 4) rgba[d] = 255;
    warnings.push({ code: 'ALPHA_ALL_ZERO', message: 'every 32-bit pixel has alpha byte 0: read as opaque (Doom 3 LoadBMP would draw it fully transparent)', offset: h.dataOffset });
  }
  if (beyondPalette >= 0) {
    warnings.push({ code: 'INDEX_PAST_PALETTE', message: `a pixel index past the ${h.paletteEntries} stored palette entries: drawn black`, offset: beyondPalette });
  }
  return { kind: 'rgba', format: 'bmp', width: w, height: rows, rgba, warnings };
}

/**
 * PCX (ZSoft Paintbrush) → RGBA8, top row first: 8-bit, RLE, one plane with the trailing 256-colour palette (Quake 2
 * skins and pics), or three planes (24-bit).
 *
 * Quake 2 ref_gl/gl_image.c `LoadPCX` (and Doom 3 neo/renderer/Image_files.cpp `LoadPCX`, the same code) is the
 * reference for what loads:
 * - manufacturer 0x0A, version 5, encoding 1 (RLE), 8 bits per pixel; the engine checks nothing else;
 * - a byte ≥ 0xC0 is a run of `byte & 0x3F` copies of the next byte (0xC0 is a run of none), any other byte is one
 *   pixel; a run is cut at the end of its scanline;
 * - the palette is the file's last 768 bytes, whether or not the 0x0C marker precedes them (a missing marker is a
 *   PALETTE_MARKER warning here), and the RLE data may be read up to the end of the file;
 * - the engines' size caps (Quake 2: width ≤ 640, height ≤ 480; Doom 3: 1024) are theirs, not the format's: not
 *   applied, the file's own size bounds what is decoded.
 * Where the engine's reading and the format disagree, this follows the format and agrees with the engine on every
 * file Quake 2's tools write: the width is `xmax − xmin + 1` (Quake 2 takes `xmax + 1`; xmin is 0 in its files) and a
 * scanline is `bytes_per_line` long when that is at least the width (Quake 2 assumes exactly the width; the two
 * agree on even widths, which the format requires for bytes_per_line). Three planes (24-bit PCX, which the engines
 * would read as garbage) are decoded as R, G and B planes per scanline.
 *
 * Alpha is 255 everywhere by default, as in the file. Quake 2 draws an 8-bit image through its global palette
 * (`d_8to24table`, from pics/colormap.pcx) in which index 255 is transparent (`GL_Upload8`); pass
 * `{ palette: pcxPalette(colormapPcx), transparentIndex: 255 }` to get the colours and alpha the engine uploads.
 */
import { ErrorCode, type ParseWarning } from '../base/errors.js';
import { fail, need, u16le } from './bytes.js';
import { checkDimensions, checkPixels, type DecodeLimits } from './dimensions.js';
import type { ImageInfo, RgbaImage } from './types.js';

export const PCX_HEADER_BYTES = 128;
const PALETTE_BYTES = 768;

export const PCX_FIELD = {
  manufacturer: 0,
  version: 1,
  encoding: 2,
  bitsPerPixel: 3,
  xmin: 4,
  ymin: 6,
  xmax: 8,
  ymax: 10,
  planes: 65,
  bytesPerLine: 66,
} as const;

export interface PcxHeader {
  version: number;
  planes: number;
  width: number;
  height: number;
  /** Bytes per plane per scanline as decoded: the header's bytes_per_line when at least the width, else the width. */
  stride: number;
}

export interface PcxOptions extends DecodeLimits {
  /** 768 bytes (256 RGB triples) to use instead of the file's own palette (8-bit images only), e.g. Quake 2's colormap.pcx. */
  palette?: Uint8Array;
  /** An index drawn with alpha 0 (Quake 2: 255). 8-bit images only. */
  transparentIndex?: number;
}

/** The 128-byte header, validated; the image's dimensions checked. */
export function readPcxHeader(b: Uint8Array): PcxHeader {
  need(b, PCX_HEADER_BYTES, 'a PCX header');
  if (b[0] !== 0x0a) fail(ErrorCode.BadMagic, `PCX manufacturer byte is 0x${b[0].toString(16)}, not 0x0a`, PCX_FIELD.manufacturer);
  if (b[1] !== 5) fail(ErrorCode.BadVersion, `PCX version ${b[1]}; Quake 2 and Doom 3 LoadPCX read version 5 (256 colours)`, PCX_FIELD.version);
  if (b[2] !== 1) fail(ErrorCode.Unsupported, `PCX encoding ${b[2]} (1, RLE, is the only one defined)`, PCX_FIELD.encoding);
  if (b[3] !== 8) fail(ErrorCode.Unsupported, `PCX with ${b[3]} bits per pixel (8 is read, as the engines do)`, PCX_FIELD.bitsPerPixel);
  const planes = b[PCX_FIELD.planes];
  if (planes !== 1 && planes !== 3) fail(ErrorCode.Unsupported, `PCX with ${planes} colour planes (1, paletted, and 3, RGB, are read)`, PCX_FIELD.planes);
  const [xmin, ymin, xmax, ymax] = [u16le(b, 4), u16le(b, 6), u16le(b, 8), u16le(b, 10)];
  const width = xmax - xmin + 1;
  const height = ymax - ymin + 1;
  checkDimensions(width, height, PCX_FIELD.xmin, `PCX window (${xmin}, ${ymin})–(${xmax}, ${ymax})`);
  const bytesPerLine = u16le(b, PCX_FIELD.bytesPerLine);
  return { version: b[1], planes, width, height, stride: Math.max(width, bytesPerLine) };
}

/** Header facts without decoding. */
export function pcxInfo(b: Uint8Array): ImageInfo {
  const h = readPcxHeader(b);
  return {
    format: 'pcx',
    width: h.width,
    height: h.height,
    hasAlpha: false,
    detail: `PCX v${h.version}, RLE, ${h.planes === 1 ? '8-bit paletted' : '24-bit (3 planes)'}, ${h.stride} bytes per scanline`,
  };
}

/** The palette of an 8-bit PCX: its last 768 bytes (256 RGB triples), as Quake 2 `LoadPCX` takes it. */
export function pcxPalette(b: Uint8Array): Uint8Array {
  const h = readPcxHeader(b);
  if (h.planes !== 1) fail(ErrorCode.Unsupported, 'a 24-bit PCX has no palette', PCX_FIELD.planes);
  need(b, PCX_HEADER_BYTES + PALETTE_BYTES, 'an 8-bit PCX with its 768-byte palette');
  return b.slice(b.length - PALETTE_BYTES);
}

/** Decodes a PCX file into RGBA8, top row first. Throws ModelParseError for anything malformed or unsupported. */
export function decodePcx(b: Uint8Array, options: PcxOptions = {}): RgbaImage {
  const h = readPcxHeader(b);
  const { width: w, height: rows, stride, planes } = h;
  const n = b.length;
  const warnings: ParseWarning[] = [];
  if (planes === 1) need(b, PCX_HEADER_BYTES + PALETTE_BYTES, 'an 8-bit PCX with its 768-byte palette');
  if (options.palette && options.palette.length < PALETTE_BYTES) {
    throw new RangeError(`options.palette has ${options.palette.length} bytes; 768 (256 RGB triples) are needed`);
  }
  // Every scanline of every plane is decoded: at best 63 pixels per 2 bytes of RLE.
  const lineBytes = stride * planes;
  const payload = n - PCX_HEADER_BYTES;
  if (lineBytes * rows > Math.ceil(payload / 2) * 63) {
    fail(ErrorCode.Truncated, `PCX RLE data: ${payload} bytes cannot hold ${rows} scanlines of ${lineBytes} bytes (at most 63 per 2-byte run)`, n);
  }
  checkPixels(w, rows, PCX_FIELD.xmin, 'PCX image', options); // after the format's checks, before the output exists

  const paletteAt = n - PALETTE_BYTES;
  const palette = planes === 1 ? (options.palette ?? b.subarray(paletteAt)) : new Uint8Array(0);
  const transparent = options.transparentIndex ?? -1;
  const line = new Uint8Array(lineBytes);
  const rgba = new Uint8Array(w * rows * 4);
  let s = PCX_HEADER_BYTES;
  for (let y = 0; y < rows; y++) {
    // One scanline (all planes): a run is cut at its end, as Quake 2 `LoadPCX` cuts it at the row's end.
    let x = 0;
    while (x < lineBytes) {
      if (s >= n) fail(ErrorCode.Truncated, `PCX RLE data ends in scanline ${y} of ${rows}`, n);
      let v = b[s++];
      let count = 1;
      if (v >= 0xc0) {
        count = v & 0x3f;
        if (s >= n) fail(ErrorCode.Truncated, `PCX run in scanline ${y} has no value byte`, n);
        v = b[s++];
      }
      const stop = Math.min(lineBytes, x + count);
      while (x < stop) line[x++] = v;
    }
    let d = y * w * 4;
    if (planes === 3) {
      for (let x = 0; x < w; x++, d += 4) {
        rgba[d] = line[x];
        rgba[d + 1] = line[stride + x];
        rgba[d + 2] = line[2 * stride + x];
        rgba[d + 3] = 255;
      }
    } else {
      for (let x = 0; x < w; x++, d += 4) {
        const i = line[x];
        const p = i * 3;
        rgba[d] = palette[p];
        rgba[d + 1] = palette[p + 1];
        rgba[d + 2] = palette[p + 2];
        rgba[d + 3] = i === transparent ? 0 : 255;
      }
    }
  }

  if (planes === 1) {
    if (b[paletteAt - 1] !== 0x0c) {
      warnings.push({ code: 'PALETTE_MARKER', message: 'no 0x0C marker before the last 768 bytes; they are taken as the palette anyway, as Quake 2 LoadPCX does', offset: paletteAt - 1 });
    }
    const dataEnd = b[paletteAt - 1] === 0x0c ? paletteAt - 1 : paletteAt;
    if (s > dataEnd) {
      warnings.push({ code: 'PIXELS_IN_PALETTE', message: `the RLE data runs ${s - dataEnd} bytes into the palette (Quake 2 LoadPCX reads it all the same)`, offset: dataEnd });
    }
  }
  return { kind: 'rgba', format: 'pcx', width: w, height: rows, rgba, warnings };
}

/**
 * The floor's front: any supported image's bytes → RGBA pixels (TGA, PCX, BMP, DDS) or the bytes as they are plus
 * their header facts (PNG, JPEG). What the exporters and the three.js adapter call, so both show the same pixels.
 */
import { bmpInfo, decodeBmp } from './bmp.js';
import { ddsInfo, decodeDds } from './dds.js';
import { requireImageFormat } from './detect.js';
import { jpegInfo } from './jpeg-info.js';
import { decodePcx, pcxInfo, type PcxOptions } from './pcx.js';
import { pngInfo } from './png-info.js';
import { decodeTga, tgaInfo } from './tga.js';
import type { DecodeLimits } from './dimensions.js';
import type { DecodedImage, ImageInfo } from './types.js';

export interface DecodeImageOptions extends DecodeLimits {
  /** For 8-bit PCX: a palette to use instead of the file's, and an index drawn transparent (see decodePcx). */
  pcx?: PcxOptions;
}

/**
 * Decodes `bytes` (format from the content, else from `nameHint`'s extension): TGA, PCX, BMP and DDS to RGBA8 top
 * row first, PNG and JPEG passed through with their size and alpha read from the header. Throws ModelParseError for a
 * malformed or unsupported file.
 */
export function decodeImage(bytes: Uint8Array, nameHint?: string, options: DecodeImageOptions = {}): DecodedImage {
  switch (requireImageFormat(bytes, nameHint)) {
    case 'tga':
      return decodeTga(bytes, options);
    case 'pcx':
      return decodePcx(bytes, { maxImagePixels: options.maxImagePixels, ...options.pcx });
    case 'bmp':
      return decodeBmp(bytes, options);
    case 'dds':
      return decodeDds(bytes, options);
    case 'png': {
      const i = pngInfo(bytes);
      return { kind: 'passthrough', format: 'png', mimeType: 'image/png', width: i.width, height: i.height, bytes, hasAlpha: i.hasAlpha, warnings: i.warnings };
    }
    case 'jpeg': {
      const i = jpegInfo(bytes);
      return { kind: 'passthrough', format: 'jpeg', mimeType: 'image/jpeg', width: i.width, height: i.height, bytes, hasAlpha: false, warnings: i.warnings };
    }
  }
}

/** The header facts of any supported image (size, alpha, a one-line description) without decoding its pixels. */
export function readImageInfo(bytes: Uint8Array, nameHint?: string): ImageInfo {
  const pick = ({ format, width, height, hasAlpha, detail }: ImageInfo): ImageInfo => ({ format, width, height, hasAlpha, detail });
  switch (requireImageFormat(bytes, nameHint)) {
    case 'tga':
      return tgaInfo(bytes);
    case 'pcx':
      return pcxInfo(bytes);
    case 'bmp':
      return bmpInfo(bytes);
    case 'dds':
      return ddsInfo(bytes);
    case 'png':
      return pick(pngInfo(bytes));
    case 'jpeg':
      return pick(jpegInfo(bytes));
  }
}

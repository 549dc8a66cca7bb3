/**
 * Which image format some bytes hold. PNG, JPEG, DDS and BMP announce themselves (signature, SOI, "DDS ", "BM") and
 * win over the name, since misnamed files are common in model packs and the bytes cannot be anything else; TGA has no
 * signature, so the name decides between TGA and PCX (and a file named .dds goes to the DDS reader, which names its
 * defect), and without a name a PCX header (0x0A, version ≤ 5, RLE) is tried before TGA's plausibility check (colour
 * map type 0/1, a defined image type, a defined pixel depth). A valid TGA never starts like a PNG, JPEG, DDS or BMP:
 * their second byte would be its colour map type, which is 0 or 1.
 */
import { ErrorCode } from '../base/errors.js';
import { fail } from './bytes.js';
import { isJpeg } from './jpeg-info.js';
import { isPng } from './png-info.js';
import type { ImageFormat } from './types.js';

/** The format a file name's extension names (any case), or null. */
export function imageFormatFromName(name: string): ImageFormat | null {
  const m = /\.([a-z0-9]+)$/i.exec(name);
  switch (m?.[1].toLowerCase()) {
    case 'tga':
      return 'tga';
    case 'pcx':
      return 'pcx';
    case 'bmp':
      return 'bmp';
    case 'dds':
      return 'dds';
    case 'png':
      return 'png';
    case 'jpg':
    case 'jpeg':
      return 'jpeg';
    default:
      return null;
  }
}

const isBmp = (b: Uint8Array) => b.length >= 2 && b[0] === 0x42 && b[1] === 0x4d;

const isDds = (b: Uint8Array) => b.length >= 4 && b[0] === 0x44 && b[1] === 0x44 && b[2] === 0x53 && b[3] === 0x20;

const looksLikePcx = (b: Uint8Array) => b.length >= 4 && b[0] === 0x0a && b[1] <= 5 && b[2] === 1 && [1, 2, 4, 8].includes(b[3]);

const looksLikeTga = (b: Uint8Array) =>
  b.length >= 18 && b[1] <= 1 && [1, 2, 3, 9, 10, 11].includes(b[2]) && [8, 15, 16, 24, 32].includes(b[16]);

/** The format of `bytes` (by content, then by `nameHint`'s extension), or null when it is none of the six. */
export function detectImageFormat(bytes: Uint8Array, nameHint?: string): ImageFormat | null {
  if (isPng(bytes)) return 'png';
  if (isJpeg(bytes)) return 'jpeg';
  if (isDds(bytes)) return 'dds';
  if (isBmp(bytes)) return 'bmp';
  const named = nameHint ? imageFormatFromName(nameHint) : null;
  // Named .dds without its magic: the DDS reader says what is wrong (too short, or not "DDS ").
  if (named === 'tga' || named === 'pcx' || named === 'dds') return named;
  if (named) return null; // named .png/.jpg/.bmp but not one: do not guess a TGA out of it
  if (looksLikePcx(bytes)) return 'pcx';
  if (looksLikeTga(bytes)) return 'tga';
  return null;
}

/** {@link detectImageFormat}, throwing when it finds nothing. */
export function requireImageFormat(bytes: Uint8Array, nameHint?: string): ImageFormat {
  const f = detectImageFormat(bytes, nameHint);
  if (f) return f;
  const named = nameHint ? imageFormatFromName(nameHint) : null;
  if (named) fail(ErrorCode.BadMagic, `${nameHint} is named .${named === 'jpeg' ? 'jpg' : named} but does not start like one`, 0);
  if (bytes.length === 0) fail(ErrorCode.Truncated, 'an empty file is no image', 0);
  fail(ErrorCode.Unsupported, `${nameHint ?? 'the file'} is not a TGA, PCX, BMP, DDS, PNG or JPEG`, 0);
}

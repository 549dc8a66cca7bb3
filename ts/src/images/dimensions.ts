/**
 * The one size rule every decoder applies before allocating its RGBA output. ioquake3's `R_LoadTGA`
 * (code/renderercommon/tr_image_tga.c) refuses an image whose `width · height · 4` exceeds 0x7FFFFFFF ("has an
 * invalid image size"); no id engine allocates more for one image, so neither do we. The decoders also check, before
 * calling this, that the file holds enough bytes (or RLE packets) for that many pixels, so a small file can never
 * make them allocate much: see docs/images.md ("Memory").
 */
import { ErrorCode } from '../base/errors.js';
import { overLimit, resourceLimits } from '../base/resource-limits.js';
import { fail } from './bytes.js';

/** ioquake3's bound on one decoded image: RGBA bytes, inclusive. */
export const MAX_RGBA_BYTES = 0x7fffffff;

/** The same bound in pixels: the default of every decoder's `maxPixels`. */
export const MAX_PIXELS = MAX_RGBA_BYTES >>> 2; // ⌊/4⌋

/**
 * Throws BAD_COUNT (at `fieldOffset`, where the width is stored) for a zero width or height — every engine refuses
 * those (ioquake3 "invalid image size", Doom 3 `R_LoadImage` frees a picture with `width < 1`) — or for an image of
 * more than `maxPixels` pixels (default {@link MAX_PIXELS}: over {@link MAX_RGBA_BYTES} of RGBA). This is the one
 * decoded-pixel check of the floor: every decoder calls it before allocating its output.
 */
export function checkDimensions(width: number, height: number, fieldOffset: number, what: string, maxPixels: number = MAX_PIXELS): void {
  if (width < 1 || height < 1) fail(ErrorCode.BadCount, `${what} is ${width}×${height}; both must be at least 1`, fieldOffset);
  if (width * height > maxPixels) {
    const bound = maxPixels === MAX_PIXELS ? `ioquake3's limit of ${MAX_RGBA_BYTES} RGBA bytes` : `the limit of ${maxPixels} pixels`;
    fail(ErrorCode.BadCount, `${what} is ${width}×${height}: ${width * height} pixels, over ${bound}`, fieldOffset);
  }
}

/** What every decoder takes besides its own options. */
export interface DecodeLimits {
  /** Most pixels the image may decode to. Default `ResourceLimits.maxImagePixels` (8192 × 8192; docs/security.md). */
  maxImagePixels?: number;
}

/**
 * Throws RESOURCE_LIMIT (at `fieldOffset`) for an image of more than `maxImagePixels` pixels, before its RGBA output
 * is allocated. Not an engine rule — ioquake3 loads up to {@link MAX_RGBA_BYTES} and scales down to the GPU's
 * texture size — but a bound on what one small file can make us allocate: an RLE TGA gives up to 128 pixels per
 * 2 bytes, so 8 MB of TGA (11 KB as a .pk3 member) declaring 23170 × 23170 would take 2 GB.
 */
export function checkPixels(width: number, height: number, fieldOffset: number, what: string, limits: DecodeLimits = {}): void {
  const max = limits.maxImagePixels ?? resourceLimits().maxImagePixels;
  if (width * height > max) throw overLimit(`${what} is ${width}×${height}, ${width * height} pixels`, 'maxImagePixels', max, fieldOffset);
}

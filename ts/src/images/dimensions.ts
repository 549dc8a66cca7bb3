/**
 * The one size rule every decoder applies before allocating its RGBA output. ioquake3's `R_LoadTGA`
 * (code/renderercommon/tr_image_tga.c) refuses an image whose `width · height · 4` exceeds 0x7FFFFFFF ("has an
 * invalid image size"); no id engine allocates more for one image, so neither do we. The decoders also check, before
 * calling this, that the file holds enough bytes (or RLE packets) for that many pixels, so a small file can never
 * make them allocate much: see docs/images.md ("Memory").
 */
import { ErrorCode } from '../base/errors.js';
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

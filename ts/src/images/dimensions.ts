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

/**
 * Throws BAD_COUNT (at `fieldOffset`, where the width is stored) for a zero width or height — every engine refuses
 * those (ioquake3 "invalid image size", Doom 3 `R_LoadImage` frees a picture with `width < 1`) — or for an image
 * over {@link MAX_RGBA_BYTES}.
 */
export function checkDimensions(width: number, height: number, fieldOffset: number, what: string): void {
  if (width < 1 || height < 1) fail(ErrorCode.BadCount, `${what} is ${width}×${height}; both must be at least 1`, fieldOffset);
  if (width * height * 4 > MAX_RGBA_BYTES) {
    fail(ErrorCode.BadCount, `${what} is ${width}×${height}: ${width * height * 4} RGBA bytes, over ioquake3's limit of ${MAX_RGBA_BYTES}`, fieldOffset);
  }
}

/**
 * A glTF texture's pixels, where an import needs them rather than the file: MDL quantises its skin to Quake's
 * palette, and the MD2 / MDL atlas (`gltf-atlas.ts`) copies each material's image into one skin. PNG through
 * images/png-decode.ts, TGA / PCX / BMP / DDS through images/decode.ts; JPEG is not decoded here (a warning).
 */
import type { Texture } from '@gltf-transform/core';
import type { ParseWarning } from '../base/errors.js';
import { decodeImage } from '../images/decode.js';
import { decodePngRgba } from '../images/png-decode.js';
import { nameOf } from './gltf-scene.js';

/** RGBA8, top row first. @internal */
export interface Pixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/**
 * A texture's pixels, or null with a GLTF_SKIN_NOT_DECODED warning ending in `fallback` (what the caller does
 * instead). Every decoder checks the size the image declares against `maxImagePixels` before it inflates or allocates
 * (a 70 KB PNG of 24,000² zeros is 2.3 GB of RGBA): over it, the warning names the limit. @internal
 */
export function texturePixels(texture: Texture | null, what: string, maxImagePixels: number, warnings: ParseWarning[], fallback = 'the skin is the base colour factor'): Pixels | null {
  const bytes = texture?.getImage();
  if (!texture || !bytes) return null;
  try {
    if (texture.getMimeType() === 'image/png' || (bytes[0] === 0x89 && bytes[1] === 0x50)) return decodePngRgba(bytes, { maxImagePixels });
    const img = decodeImage(bytes, nameOf(texture), { maxImagePixels });
    if (img.kind === 'rgba') return img;
    warnings.push({ code: 'GLTF_SKIN_NOT_DECODED', message: `the ${what} image "${nameOf(texture)}" is ${img.format.toUpperCase()}, which is not decoded here: ${fallback}`, offset: 0 });
  } catch (e) {
    warnings.push({ code: 'GLTF_SKIN_NOT_DECODED', message: `the ${what} image "${nameOf(texture)}" does not decode (${(e as Error).message}): ${fallback}`, offset: 0 });
  }
  return null;
}

/**
 * Source images → the bytes glTF and OBJ take: PNG re-encoded from TGA / PCX / BMP / DDS and from embedded pixels
 * (`encodePng`), PNG and JPEG as they are — less any ancillary chunk with a bad CRC, which libpng drops and stricter
 * decoders refuse. A module of its own: it carries the image codecs, which an export without textures does not need
 * (textures.ts `MakeImageSource`).
 */
import type { ParseWarning } from '../base/errors.js';
import { encodePng } from '../images/png-encode.js';
import { pngInfo, withoutChunks } from '../images/png-info.js';
import { decodeTexture } from '../load/texture-image.js';
import type { EmbeddedPixels } from '../materials/types.js';
import type { ExportImage, ImageSource, MakeImageSource } from './textures.js';

/** Source images → PNG / JPEG bytes, each path converted once; failures are warnings (one per path) and null. */
export class ImageConverter implements ImageSource {
  private readonly done = new Map<string, ExportImage | null>();

  constructor(private readonly images: ReadonlyMap<string, Uint8Array>, private readonly warnings: ParseWarning[], private readonly pixels: ReadonlyMap<string, EmbeddedPixels> = new Map()) {}

  get(path: string): ExportImage | null {
    let out = this.done.get(path);
    if (out === undefined) this.done.set(path, (out = this.convert(path)));
    return out;
  }

  private convert(path: string): ExportImage | null {
    const bytes = this.images.get(path);
    const decoded = bytes ? undefined : this.pixels.get(path);
    if (decoded) return rgbaImage(path, decoded.rgba, decoded.width, decoded.height);
    if (!bytes) {
      this.warnings.push({ code: 'TEXTURE_NOT_GIVEN', message: `${path}: found by the resolver but its bytes were not handed to the exporter: left untextured`, offset: 0 });
      return null;
    }
    const img = decodeTexture(path, bytes, this.warnings);
    if (!img) return null;
    if (img.kind === 'passthrough') {
      const jpeg = img.format === 'jpeg';
      const bad = jpeg || !img.warnings.some((w) => w.code === 'ANCILLARY_CRC') ? [] : pngInfo(img.bytes).badAncillary;
      const out = bad.length ? withoutChunks(img.bytes, bad) : img.bytes;
      return { path, mimeType: img.mimeType, extension: jpeg ? '.jpg' : '.png', bytes: out, width: img.width, height: img.height, hasAlpha: img.hasAlpha };
    }
    return rgbaImage(path, img.rgba, img.width, img.height);
  }
}

/** RGBA8 pixels as a PNG export image. */
function rgbaImage(path: string, rgba: Uint8Array, width: number, height: number): ExportImage {
  let hasAlpha = false;
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) { hasAlpha = true; break; }
  return { path, mimeType: 'image/png', extension: '.png', bytes: encodePng(rgba, width, height), width, height, hasAlpha };
}

/** The image source of some textures: an `ImageConverter` over their bytes and pixels. */
export const imageConverter: MakeImageSource = (textures, warnings) => new ImageConverter(textures.images, warnings, textures.pixels);

/**
 * Resolved materials (materials/, docs/materials.md) as what glTF and OBJ can carry, shared by both exporters:
 * the image bytes a file format takes (PNG re-encoded from TGA / PCX / BMP / DDS with `encodePng`, PNG and JPEG as
 * they are — less any ancillary chunk with a bad CRC, which libpng drops and stricter decoders refuse). The render
 * states, and which normal map a surface shows, are `materials/look.ts`'s, which the page and the three.js adapter
 * share (docs/gltf.md, "Textures and materials").
 *
 * The exporters take these as plain data and never read files: the caller resolves (MaterialResolver, or
 * `resolveModelTextures` in load/) and hands over the bytes of each found image by its path.
 */
import type { ParseWarning } from '../base/errors.js';
import { encodePng } from '../images/png-encode.js';
import { pngInfo, withoutChunks } from '../images/png-info.js';
import { decodeTexture } from '../load/texture-image.js';
import type { EmbeddedPixels, ResolvedMaterial } from '../materials/types.js';

/** What an exporter needs to texture a model: its resolved materials and the bytes of their images by path. */
export interface ResolvedTextures {
  /** One per surface / mesh / skin record (MaterialSet.materials). */
  materials: readonly ResolvedMaterial[];
  /** The bytes of each found image, keyed by `ResolvedImage.path`. An image missing here is left out, with a warning. */
  images: ReadonlyMap<string, Uint8Array>;
  /** Decoded pixels of embedded images (an MDL's skins: `ResolvedImage.embedded`), by path; encoded as PNG. */
  pixels?: ReadonlyMap<string, EmbeddedPixels>;
}

/** An image ready for a file format that reads PNG and JPEG only. */
export interface ExportImage {
  /** The source file's path (ResolvedImage.path). */
  path: string;
  mimeType: 'image/png' | 'image/jpeg';
  /** `.png` or `.jpg`. */
  extension: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  /** Whether the stored pixels carry alpha (a TGA with alpha re-encoded as RGBA PNG, a PNG with alpha). */
  hasAlpha: boolean;
}

/** An image written beside the model file (its URI / name, relative to it) and its bytes. */
export interface ImageFile {
  uri: string;
  bytes: Uint8Array;
}

/**
 * Adds `img` to `files` as `prefix + base name + extension` (`-2`, `-3` … where two sources share a name); its URI.
 * Characters other than letters, digits, `.`, `_` and `-` become `_`: the name is one file beside the output, and
 * MTL cannot quote a space.
 */
export function addImageFile(files: ImageFile[], prefix: string, img: ExportImage): string {
  const name = textureBaseName(img.path).replace(/[^A-Za-z0-9._-]/g, '_');
  let uri = prefix + name + img.extension;
  for (let n = 2; files.some((f) => f.uri === uri); n++) uri = `${prefix}${name}-${n}${img.extension}`;
  files.push({ uri, bytes: img.bytes });
  return uri;
}

/** `models/x/skin.tga` → `skin` (last path segment, extension dropped; `\` counts as a separator). */
export function textureBaseName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(0, dot) : last;
}

/** Source images → PNG / JPEG bytes, each path converted once; failures are warnings (one per path) and null. */
export class ImageConverter {
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

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
import type { EmbeddedPixels, ResolvedMaterial } from '../materials/types.js';

/** Each image path → the bytes a file format takes (or null, with a warning): `image-convert.ts`'s `ImageConverter`. */
export interface ImageSource {
  get(path: string): ExportImage | null;
}

/**
 * Makes the image source of some textures. A value handed in (`ResolvedTextures.convert`, the exporters' option
 * `imageConverter`) rather than imported here: the image codecs come with it (`image-convert.ts`), so an export
 * without textures does not carry them (docs/package.md, "What an app carries").
 */
export type MakeImageSource = (textures: ResolvedTextures, warnings: ParseWarning[]) => ImageSource;

/** What an exporter needs to texture a model: its resolved materials and the bytes of their images by path. */
export interface ResolvedTextures {
  /** One per surface / mesh / skin record (MaterialSet.materials). */
  materials: readonly ResolvedMaterial[];
  /** The bytes of each found image, keyed by `ResolvedImage.path`. An image missing here is left out, with a warning. */
  images: ReadonlyMap<string, Uint8Array>;
  /** Decoded pixels of embedded images (an MDL's skins: `ResolvedImage.embedded`), by path; encoded as PNG. */
  pixels?: ReadonlyMap<string, EmbeddedPixels>;
  /**
   * How the images become PNG / JPEG (`imageConverter` of `image-convert.ts`, with the codecs): `resolveModelTextures`
   * sets it. The stable door's `toGlb` takes it from here; `registry/gltf.ts`'s forms and `objMaterialLibrary`
   * convert without it.
   */
  convert?: MakeImageSource;
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

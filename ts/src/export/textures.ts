/**
 * Resolved materials (materials/, docs/materials.md) as what glTF and OBJ can carry, shared by both exporters:
 * the image bytes a file format takes (PNG re-encoded from TGA / PCX / BMP / DDS with `encodePng`, PNG and JPEG as
 * they are — less any ancillary chunk with a bad CRC, which libpng drops and stricter decoders refuse), and the render states mapped onto glTF's few (docs/gltf.md, "Textures and materials"):
 *
 * - alpha test → `MASK`: glTF keeps a fragment when alpha ≥ alphaCutoff, so `≥ c` (Quake 3 GE128) is c and `> c`
 *   (GT0, Doom 3 alphaTest) is c + half an 8-bit step, as the three.js adapter does; `< c` (LT128) has no glTF form:
 *   drawn opaque with `ALPHA_TEST_UNSUPPORTED`;
 * - blend SRC_ALPHA, ONE_MINUS_SRC_ALPHA → `BLEND`; additive (ONE ONE, SRC_ALPHA ONE: glows, fire) → the image as
 *   emissive over a black base, `OPAQUE` (glTF has no additive mode); multiply and other pairs → `OPAQUE` with
 *   `BLEND_APPROXIMATED`;
 * - `cull none` / `twoSided` → doubleSided; `surfaceparm nodraw` → `BLEND` with alpha 0 (present, invisible).
 *
 * The exporters take these as plain data and never read files: the caller resolves (MaterialResolver, or
 * `resolveModelTextures` in load/) and hands over the bytes of each found image by its path.
 */
import type { ParseWarning } from '../base/errors.js';
import { encodePng } from '../images/png-encode.js';
import { pngInfo, withoutChunks } from '../images/png-info.js';
import { decodeTexture } from '../load/texture-image.js';
import type { EmbeddedPixels, ResolvedImage, ResolvedMaterial } from '../materials/types.js';

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

/**
 * The resolved material of a surface: by index, and by player part when the materials are a player's (a lone MD3
 * whose node happens to be named `head` still matches its own materials).
 */
export function materialForSlot(materials: readonly ResolvedMaterial[], index: number, part: string | undefined): ResolvedMaterial | undefined {
  const wanted = materials.some((m) => m.part) ? part : undefined;
  return materials.find((m) => m.index === index && m.part === wanted);
}

/** The image a surface shows, or null: the found diffuse file (its first frame for an animMap). */
export const foundPath = (image: ResolvedImage | null): string | null => (image?.path && !image.builtin ? image.path : null);

/** A normal map glTF can take as is: a plain image or Doom 3's `addnormals(normalmap, …)` (its first image). */
export function normalPath(m: ResolvedMaterial, warnings: ParseWarning[]): string | null {
  const path = foundPath(m.normal);
  if (!path) return null;
  const program = m.normal?.program;
  if (program && !/^\s*addnormals\s*\(/i.test(program)) {
    warnings.push({ code: 'NORMAL_PROGRAM_SKIPPED', message: `${m.shaderName}: normal map ${program} is an image program glTF cannot run: exported without a normal map`, offset: 0 });
    return null;
  }
  return path;
}

/** How a surface meets the framebuffer in glTF terms (see the file comment). */
export interface AlphaLook {
  alphaMode: 'OPAQUE' | 'MASK' | 'BLEND';
  alphaCutoff?: number;
  /** The diffuse image as emissive over a black base (additive blends). */
  emissive: boolean;
  /** Base colour alpha 0: drawn invisible (`surfaceparm nodraw`). */
  invisible: boolean;
  doubleSided: boolean;
}

export function alphaLook(m: ResolvedMaterial, warnings: ParseWarning[]): AlphaLook {
  const name = m.shaderName || m.surface;
  const look: AlphaLook = { alphaMode: 'OPAQUE', emissive: false, invisible: false, doubleSided: m.sides !== 'front' };
  if (m.sides === 'back') warnings.push({ code: 'CULL_FRONT_APPROXIMATED', message: `${name}: culls front faces (cull back), which glTF cannot say: exported double-sided`, offset: 0 });
  if (m.nodraw) return { ...look, alphaMode: 'BLEND', invisible: true };
  if (m.alphaTest) {
    const { op, cutoff, written } = m.alphaTest;
    if (op === '>=') return { ...look, alphaMode: 'MASK', alphaCutoff: cutoff };
    if (op === '>') return { ...look, alphaMode: 'MASK', alphaCutoff: Math.min(1, cutoff + 1 / 510) };
    warnings.push({ code: 'ALPHA_TEST_UNSUPPORTED', message: `${name}: alpha test ${written} keeps alpha < ${cutoff}, which glTF cannot say: exported without it`, offset: 0 });
  }
  switch (m.blendMode) {
    case 'opaque':
      return look;
    case 'alpha':
      return { ...look, alphaMode: 'BLEND' };
    case 'additive':
      return { ...look, emissive: true };
    default:
      warnings.push({ code: 'BLEND_APPROXIMATED', message: `${name}: blendFunc ${m.blend?.src} ${m.blend?.dst} (${m.blendMode}) has no glTF form: exported opaque`, offset: 0 });
      return look;
  }
}

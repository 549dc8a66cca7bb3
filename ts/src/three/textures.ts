/**
 * Image files of a `FileSystem` as three.js textures, each file read and decoded once per load (a player's three
 * parts share their skin). The path is the material resolver's (the one the glTF exporter embeds), and it is read and
 * decoded the exporters' way (`load/texture-image.ts`: the image floor's `decodeImage`), so the adapter and a .glb show
 * the same image:
 * - TGA, PCX, BMP and DDS: decoded by the image floor to RGBA8 → a `DataTexture` (rows top first, `flipY` on as for an
 *   image, linear filtering, mipmaps) — in Node too;
 * - PNG and JPEG: the browser's to decode: three's `TextureLoader` on a blob URL of the bytes (revoked after), or,
 *   where there is no document (a worker), `createImageBitmap` flipped at decode time (three cannot flip an
 *   ImageBitmap on upload). Where neither exists (Node) they are skipped with one `TEXTURE_DECODER_UNAVAILABLE`.
 * Images the model carries (an MDL's skins) come decoded with its materials (`embedded`) and are uploaded as such.
 * Textures repeat unless the material clamps (Quake 3 `clampMap`, Doom 3 `clamp`); colour maps are sRGB.
 */
import { ClampToEdgeWrapping, DataTexture, LinearFilter, LinearMipmapLinearFilter, NoColorSpace, RepeatWrapping, SRGBColorSpace, Texture, TextureLoader, type LoadingManager } from 'three';
import type { ParseWarning } from '../base/errors.js';
import { decodeTexture, readTextureBytes } from '../load/texture-image.js';
import type { EmbeddedPixels } from '../materials/types.js';
import type { FileSystem } from '../vfs/file-system.js';

export type TextureRole = 'color' | 'data';

export interface TextureOptions {
  fs: FileSystem;
  manager: LoadingManager;
  warnings: ParseWarning[];
  signal?: AbortSignal;
  /**
   * Pixels the model carries (an MDL's palette skins, decoded with the materials: `MaterialSet.pixels`), by the
   * resolved image's path: read from here, not the file system. Asked when a texture is first wanted, as the
   * materials are resolved after the reader is made.
   */
  embedded?: () => ReadonlyMap<string, EmbeddedPixels> | undefined;
}

/** Decoded pixels (top row first) as a texture three uploads like an image: flipped, filtered, mipmapped. */
function pixelTexture(img: EmbeddedPixels): Texture {
  const t = new DataTexture(img.rgba, img.width, img.height);
  t.flipY = true;
  t.generateMipmaps = true;
  t.magFilter = LinearFilter;
  t.minFilter = LinearMipmapLinearFilter;
  t.needsUpdate = true;
  return t;
}

async function browserTexture(bytes: Uint8Array, mimeType: string, manager: LoadingManager): Promise<Texture | null> {
  const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType });
  if (typeof document !== 'undefined' && typeof URL.createObjectURL === 'function') {
    const url = URL.createObjectURL(blob);
    try {
      return await new TextureLoader(manager).loadAsync(url);
    } finally {
      URL.revokeObjectURL(url);
    }
  }
  if (typeof createImageBitmap === 'function') {
    const bitmap = await createImageBitmap(blob, { imageOrientation: 'flipY', premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
    const t = new Texture(bitmap as unknown as HTMLImageElement);
    t.flipY = false; // flipped when decoded
    t.needsUpdate = true;
    return t;
  }
  return null;
}

/** A reader of textures by path, caching each path's texture (or its failure) for the load. */
export function textureReader(options: TextureOptions): (path: string, role: TextureRole, clamp: boolean) => Promise<Texture | null> {
  const { fs, manager, warnings, signal, embedded } = options;
  const decoded = new Map<string, Promise<Texture | null>>();
  let noDecoder = false;

  const decode = async (path: string): Promise<Texture | null> => {
    const carried = embedded?.()?.get(path);
    if (carried) return pixelTexture(carried);
    const bytes = await readTextureBytes(fs, path, warnings, signal);
    const img = bytes ? decodeTexture(path, bytes, warnings) : null;
    if (!img) return null;
    if (img.kind === 'rgba') return pixelTexture(img);
    try {
      const t = await browserTexture(img.bytes, img.mimeType, manager);
      if (!t && !noDecoder) {
        noDecoder = true;
        warnings.push({ code: 'TEXTURE_DECODER_UNAVAILABLE', message: `no image decoder here (no document, no createImageBitmap): ${path} and other JPEG/PNG textures are skipped`, offset: 0 });
      }
      return t;
    } catch (e) {
      warnings.push({ code: 'TEXTURE_FAILED', message: `${path}: ${(e as Error)?.message ?? e}`, offset: 0 });
      return null;
    }
  };

  return async (path, role, clamp) => {
    let p = decoded.get(path.toLowerCase());
    if (!p) decoded.set(path.toLowerCase(), (p = decode(path)));
    const base = await p;
    if (!base) return null;
    // one decoded image, one texture per sampler setting (three shares the upload through `source`)
    const t = base.clone();
    t.colorSpace = role === 'color' ? SRGBColorSpace : NoColorSpace;
    t.wrapS = t.wrapT = clamp ? ClampToEdgeWrapping : RepeatWrapping;
    t.name = path;
    t.needsUpdate = true;
    return t;
  };
}

/**
 * Image files of a `FileSystem` as three.js textures, each file read and decoded once per load (a player's three
 * parts share their skin). Formats, by the found file's extension:
 * - TGA: three's `TGALoader` (pure JS: works in Node too) → a `DataTexture`, rows top first as TGALoader orders them,
 *   flipY on as it sets it;
 * - PCX: three has no decoder (ours is on its way, `ts/src/images/`). A same-name .png/.jpg/.jpeg/.tga beside it is
 *   used instead when there is one (Quake 2 ports' replacement textures: C1's arrow_blue.png), with `PCX_REPLACED`;
 *   otherwise the surface stays untextured with `PCX_UNSUPPORTED`;
 * - everything else (JPEG, PNG, BMP, WebP…) is the browser's to decode: three's `TextureLoader` on a blob URL of the
 *   bytes (revoked after), or, where there is no document (a worker), `createImageBitmap` flipped at decode time
 *   (three cannot flip an ImageBitmap on upload). Where neither exists (Node) textures are skipped with one
 *   `TEXTURE_DECODER_UNAVAILABLE` warning.
 * Textures repeat unless the material clamps (Quake 3 `clampMap`, Doom 3 `clamp`); colour maps are sRGB.
 */
import { ClampToEdgeWrapping, DataTexture, LinearMipmapLinearFilter, NoColorSpace, RepeatWrapping, SRGBColorSpace, Texture, TextureLoader, type LoadingManager } from 'three';
import { TGALoader } from 'three/examples/jsm/loaders/TGALoader.js';
import type { ParseWarning } from '../base/errors.js';
import type { FileSystem } from '../vfs/file-system.js';

export type TextureRole = 'color' | 'data';

export interface TextureOptions {
  fs: FileSystem;
  manager: LoadingManager;
  warnings: ParseWarning[];
  signal?: AbortSignal;
}

const MIME: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', bmp: 'image/bmp', webp: 'image/webp', gif: 'image/gif' };
const PCX_REPLACEMENTS = ['png', 'jpg', 'jpeg', 'tga'];

const extensionOf = (path: string) => /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';

function tgaTexture(bytes: Uint8Array, manager: LoadingManager): Texture {
  const data = new TGALoader(manager).parse(bytes.slice().buffer) as { data: Uint8Array; width: number; height: number; flipY?: boolean };
  const t = new DataTexture(data.data, data.width, data.height);
  t.flipY = data.flipY ?? true;
  t.generateMipmaps = true;
  t.minFilter = LinearMipmapLinearFilter;
  t.needsUpdate = true;
  return t;
}

async function browserTexture(bytes: Uint8Array, ext: string, manager: LoadingManager): Promise<Texture | null> {
  const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: MIME[ext] ?? 'application/octet-stream' });
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
  const { fs, manager, warnings, signal } = options;
  const decoded = new Map<string, Promise<Texture | null>>();
  let noDecoder = false;

  const decode = async (path: string): Promise<Texture | null> => {
    let ext = extensionOf(path);
    let file = await fs.file(path);
    if (ext === 'pcx') {
      const stem = path.slice(0, -3);
      let replacement = null;
      for (const x of PCX_REPLACEMENTS) if (!replacement) replacement = await fs.file(stem + x);
      if (!replacement) {
        warnings.push({ code: 'PCX_UNSUPPORTED', message: `${path}: three.js has no PCX decoder and no .png/.jpg/.tga of that name is beside it: the surface is untextured`, offset: 0 });
        return null;
      }
      warnings.push({ code: 'PCX_REPLACED', message: `${path}: three.js has no PCX decoder; using ${replacement.path} beside it (a Quake 2 port's replacement texture)`, offset: 0 });
      file = replacement;
      ext = extensionOf(replacement.path);
    }
    if (!file) {
      warnings.push({ code: 'TEXTURE_FAILED', message: `${path}: not found`, offset: 0 });
      return null;
    }
    const bytes = await file.bytes({ signal });
    try {
      if (ext === 'tga') return tgaTexture(bytes, manager);
      const t = await browserTexture(bytes, ext, manager);
      if (!t && !noDecoder) {
        noDecoder = true;
        warnings.push({ code: 'TEXTURE_DECODER_UNAVAILABLE', message: `no image decoder here (no document, no createImageBitmap): ${path} and other JPEG/PNG/BMP textures are skipped`, offset: 0 });
      }
      return t;
    } catch (e) {
      warnings.push({ code: 'TEXTURE_FAILED', message: `${file.path}: ${(e as Error)?.message ?? e}`, offset: 0 });
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

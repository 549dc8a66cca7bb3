/**
 * What a viewer needs to texture each part of a playable model: the image (decoded to RGBA8, or a PNG/JPEG's own
 * bytes for the browser's decoder) and how the part meets the framebuffer. The surfaces are resolved as the engines
 * resolve them (`load/textures.ts`: .skin files, shader scripts, .mtr, extension fallback), and the render states
 * are `materials/look.ts`'s `alphaLook`, the glTF exporter's reading of them too, so the page, the .glb and the
 * three.js adapter agree. A surface without an image is drawn untextured with one warning, never an exception.
 */
import { alphaLook, foundPath, materialForSlot } from '../materials/look.js';
import { decodeTexture } from '../load/texture-image.js';
import type { FileSystem } from '../vfs/file-system.js';
import type { EmbeddedPixels, MaterialWarning, ResolvedMaterial } from '../materials/types.js';
import type { PlayablePart } from './part.js';

/** A part's image: RGBA8, top row first (TGA, PCX, BMP), or the file's bytes (PNG, JPEG) with their MIME type. */
export type PlayableImage =
  | { width: number; height: number; rgba: Uint8Array }
  | { width: number; height: number; bytes: Uint8Array; mimeType: string };

export interface PlayableMaterial {
  /** The shader, material or skin name the part asked for. */
  name: string;
  /** The image file that was found, as the file system names it; null when none. */
  path: string | null;
  image: PlayableImage | null;
  /** OPAQUE; MASK (discard below `alphaCutoff`: alphaFunc, Doom 3 alphatest); BLEND (blendFunc blend). */
  alphaMode: 'OPAQUE' | 'MASK' | 'BLEND';
  alphaCutoff: number;
  /** blendFunc add (GL_ONE GL_ONE): the image added to what is behind. */
  additive: boolean;
  /** surfaceparm nodraw: not drawn. */
  invisible: boolean;
  /** cull none / twosided. */
  doubleSided: boolean;
  /** An image added unlit on top (an MDL skin's fullbright texels, black elsewhere); absent or null when none. */
  glow?: PlayableImage | null;
}

export interface PlayableTextureOptions {
  /** Where the model's skins, scripts and images are (a mounted game folder, an archive, dropped files). */
  fileSystem: FileSystem;
  /** The model's path inside `fileSystem` (`models/players/sarge/lower.md3`). */
  modelPath: string;
  /** MD3: `<model>_<skin>.skin`. */
  skin?: string;
  signal?: AbortSignal;
}

/** What a model's resolved textures give a viewer: the materials and the bytes of their images by path. */
export interface ResolvedModelTextures {
  materials: readonly ResolvedMaterial[];
  warnings: readonly MaterialWarning[];
  images: ReadonlyMap<string, Uint8Array>;
  /** Decoded pixels of embedded images (an MDL's skins: `ResolvedImage.embedded`), by path. */
  pixels?: ReadonlyMap<string, EmbeddedPixels>;
}

/** One material per part (each part's `slot`, else its index), and what went missing. */
export function playableMaterials(t: ResolvedModelTextures, parts: readonly PlayablePart[]): { materials: PlayableMaterial[]; warnings: MaterialWarning[] } {
  const warnings: MaterialWarning[] = [...t.warnings];
  const looks: { code: string; message: string; offset: number }[] = []; // alphaLook speaks ParseWarning
  const decoded = new Map<string, PlayableImage | null>();
  const image = (path: string): PlayableImage | null => {
    if (decoded.has(path)) return decoded.get(path)!;
    let out: PlayableImage | null = null;
    const bytes = t.images.get(path);
    const pixels = t.pixels?.get(path);
    const img = pixels ? null : bytes ? decodeTexture(path, bytes, warnings) : null;
    if (pixels) out = { width: pixels.width, height: pixels.height, rgba: pixels.rgba };
    else if (img) out = img.kind === 'rgba' ? { width: img.width, height: img.height, rgba: img.rgba } : { width: img.width, height: img.height, bytes: img.bytes, mimeType: img.mimeType };
    decoded.set(path, out);
    return out;
  };

  const materials: PlayableMaterial[] = [];
  for (const [i, part] of parts.entries()) {
    const m = materialForSlot(t.materials, part.slot?.surface ?? i, part.slot?.part);
    const path = m ? foundPath(m.diffuse) : null;
    const glowPath = m ? foundPath(m.emissive) : null;
    const look = m ? alphaLook(m, looks) : null;
    materials.push({
      name: m?.shaderName || m?.surface || '',
      path,
      image: path ? image(path) : null,
      alphaMode: look?.alphaMode ?? 'OPAQUE',
      alphaCutoff: look?.alphaCutoff ?? 0.5,
      additive: look?.emissive ?? false,
      invisible: look?.invisible ?? false,
      doubleSided: look?.doubleSided ?? true,
      ...(glowPath ? { glow: image(glowPath) } : {}),
    });
  }
  for (const w of looks) warnings.push({ code: w.code, message: w.message });
  return { materials, warnings };
}

/** The buffers a material holds, for transferring it to another thread. */
export function materialBuffers(materials: readonly PlayableMaterial[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const m of materials) {
    for (const img of [m.image, m.glow]) {
      if (!img) continue;
      const b = ('rgba' in img ? img.rgba : img.bytes).buffer;
      if (b instanceof ArrayBuffer) out.add(b);
    }
  }
  return [...out];
}

/**
 * What a viewer needs to texture each part of a playable model: the image (decoded to RGBA8, or a PNG/JPEG's own
 * bytes for the browser's decoder) and how the part meets the framebuffer. The surfaces are resolved as the engines
 * resolve them (`load/textures.ts`: .skin files, shader scripts, .mtr, extension fallback), and the render states
 * are the glTF exporter's reading of them (`export/textures.ts` `alphaLook`), so the page, the .glb and the three.js
 * adapter agree. A surface without an image is drawn untextured with one warning, never an exception.
 */
import type { MaterialWarning } from '../materials/types.js';
import type { Md2Model, Md3Model, Md5Mesh, MdlModel } from '../base/model.js';
import { alphaLook, foundPath, materialForSlot } from '../export/textures.js';
import { decodeImage } from '../images/decode.js';
import { resolveModelTextures } from '../load/textures.js';
import type { FileSystem } from '../vfs/file-system.js';

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

/** One material per part (`partCount` parts, in the model's own surface / mesh order), and what went missing. */
export async function playableMaterials(model: Md2Model | Md3Model | Md5Mesh | MdlModel | { lower: Md3Model; upper: Md3Model; head: Md3Model }, partCount: number, o: PlayableTextureOptions): Promise<{ materials: PlayableMaterial[]; warnings: MaterialWarning[] }> {
  const t = await resolveModelTextures(o.fileSystem, model, o.modelPath, { skin: o.skin, signal: o.signal });
  const warnings: MaterialWarning[] = [...t.warnings];
  const looks: { code: string; message: string; offset: number }[] = []; // alphaLook speaks ParseWarning
  const decoded = new Map<string, PlayableImage | null>();
  const image = (path: string): PlayableImage | null => {
    if (decoded.has(path)) return decoded.get(path)!;
    let out: PlayableImage | null = null;
    const bytes = t.images.get(path);
    const pixels = t.pixels?.get(path);
    if (pixels) out = { width: pixels.width, height: pixels.height, rgba: pixels.rgba };
    else if (bytes) {
      try {
        const img = decodeImage(bytes, path);
        out = img.kind === 'rgba' ? { width: img.width, height: img.height, rgba: img.rgba } : { width: img.width, height: img.height, bytes: img.bytes, mimeType: img.mimeType };
      } catch (e) {
        warnings.push({ code: 'TEXTURE_DECODE_FAILED', message: `${path}: ${(e as Error)?.message ?? e}: drawn untextured`, path });
      }
    }
    decoded.set(path, out);
    return out;
  };
  const materials: PlayableMaterial[] = [];
  // A player's parts are its lower, upper and head surfaces in order: each resolved by (part, surface).
  const slots = 'lower' in model ? (['lower', 'upper', 'head'] as const).flatMap((part) => model[part].surfaces.map((_, surface) => ({ part, surface }))) : null;
  for (let i = 0; i < partCount; i++) {
    const m = slots ? materialForSlot(t.materials, slots[i]?.surface ?? -1, slots[i]?.part) : materialForSlot(t.materials, i, undefined);
    const path = m ? foundPath(m.diffuse) : null;
    const glowPath = m ? foundPath(m.glow ?? null) : null;
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
    const img = m.image;
    if (!img) continue;
    const b = ('rgba' in img ? img.rgba : img.bytes).buffer;
    if (b instanceof ArrayBuffer) out.add(b);
  }
  return [...out];
}

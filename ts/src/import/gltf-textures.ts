/**
 * Shader and skin names from glTF materials, and the images to write beside them. Without `texturePath` a
 * surface's shader is its material's name — what our exporter writes (it names materials after the id shader or
 * skin), so id → glb → id keeps them. With `texturePath` (a game path such as `models/mapobjects/fox`), a
 * material with a base colour image names that image instead: `<texturePath>/<image>.png|.jpg` (MD5 without the
 * extension: Doom 3 material names carry none), and `textureFiles` gives each such image's bytes, to be written
 * under the game folder at that path — the engine then finds the model's texture by the name it holds.
 */
import type { Document, Material, Texture } from '@gltf-transform/core';
import { nameOf } from './gltf-scene.js';

export interface ImportTextureOptions {
  /** Game path the images go under; shaders and skins then name them (see above). */
  texturePath?: string;
}

export interface TextureFile {
  /** Game path: `<texturePath>/<name>.<ext>`. */
  path: string;
  bytes: Uint8Array;
  mimeType: string;
}

const EXTENSIONS: Record<string, string> = { 'image/png': '.png', 'image/jpeg': '.jpg', 'image/webp': '.webp', 'image/ktx2': '.ktx2' };

/** @internal */
export interface MaterialNames {
  /** The shader / skin name a primitive with `material` gets ('' for none). */
  nameOf(material: Material | null): string;
  /** The images the names refer to (empty without texturePath). */
  files: TextureFile[];
}

/** A file-name-safe stem for the texture's image. */
function stem(texture: Texture, index: number): string {
  const uri: unknown = texture.getURI();
  const uriBase = (typeof uri === 'string' ? uri : '').replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  const raw = nameOf(texture) || uriBase || `texture${index}`;
  return raw.replace(/[^A-Za-z0-9_-]+/g, '_') || `texture${index}`;
}

/** @internal */
export function materialNames(doc: Document, options: ImportTextureOptions & { extension: boolean }): MaterialNames {
  const files: TextureFile[] = [];
  const byTexture = new Map<Texture, string>();
  const used = new Set<string>();
  const prefix = options.texturePath?.replace(/[\\/]+$/, '');
  const nameFor = (material: Material | null): string => {
    if (!material) return '';
    const texture = prefix === undefined ? null : material.getBaseColorTexture();
    const bytes = texture?.getImage();
    if (!texture || !bytes) return nameOf(material);
    let path = byTexture.get(texture);
    if (path === undefined) {
      const ext = EXTENSIONS[texture.getMimeType()] ?? '';
      let base = stem(texture, byTexture.size);
      while (used.has(base)) base += '_';
      used.add(base);
      const file = `${prefix ? `${prefix}/` : ''}${base}`;
      files.push({ path: file + ext, bytes, mimeType: texture.getMimeType() });
      path = options.extension ? file + ext : file;
      byTexture.set(texture, path);
    }
    return path;
  };
  return { nameOf: nameFor, files };
}

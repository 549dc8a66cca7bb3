/**
 * glTF materials named after id shaders (MD5 `shader`, MD3 surface shaders) and skins (MD2), one per distinct
 * name. Texture images are referenced by URI only when the caller says where the textures are: id names
 * are engine paths (`models/weapons/rifle/rifle`, `…/skin.pcx`), not files next to the glTF, so guessing
 * would give broken links. glTF core reads only PNG and JPEG, hence the `.png` default extension.
 */
import type { GltfBuilder } from './gltf-builder.js';

export interface TextureOptions {
  /**
   * Folder (relative to the glTF file, or a URL) holding the textures: a material named `a/b/skin.tga`
   * refers to `FOLDER/skin` + `textureExtension`. Omitted → materials carry names only.
   */
  textureFolder?: string;
  /** Extension of the image files in `textureFolder`, with its dot (default `.png`). */
  textureExtension?: string;
  /** Full control instead: the image URI for a shader/skin name, or undefined for none. */
  textureUri?: (name: string) => string | undefined;
}

/** `models/x/skin.tga` → `skin` (last path segment, extension dropped; `\` counts as a separator). */
export function textureBaseName(name: string): string {
  const last = name.split(/[\\/]/).pop() ?? '';
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(0, dot) : last;
}

export function textureUriFor(name: string, options: TextureOptions): string | undefined {
  if (options.textureUri) return options.textureUri(name);
  if (options.textureFolder === undefined || !name) return undefined;
  const base = textureBaseName(name);
  if (!base) return undefined;
  const folder = options.textureFolder.replace(/[\\/]+$/, '');
  const file = base + (options.textureExtension ?? '.png');
  return encodeURI(folder ? `${folder}/${file}` : file);
}

/** One material per distinct name, created on first use. */
export class MaterialTable {
  private readonly byName = new Map<string, number>();

  constructor(private readonly builder: GltfBuilder, private readonly options: TextureOptions) {}

  index(name: string): number {
    const known = this.byName.get(name);
    if (known !== undefined) return known;
    const b = this.builder;
    const uri = textureUriFor(name, this.options);
    // id models are lit as plain diffuse surfaces: not metallic, fully rough.
    const pbr: { baseColorTexture?: { index: number }; metallicFactor: number; roughnessFactor: number } = { metallicFactor: 0, roughnessFactor: 1 };
    if (uri) {
      const image = b.add('images', { uri, name: textureBaseName(name) });
      pbr.baseColorTexture = { index: b.add('textures', { source: image, name: textureBaseName(name) }) };
    }
    const index = b.add('materials', { name: name || 'default', pbrMetallicRoughness: pbr });
    this.byName.set(name, index);
    return index;
  }
}

/**
 * glTF materials. With resolved textures (`textures`: the MaterialResolver's materials and their image bytes, see
 * textures.ts) each surface gets its own look — base colour, normal map, alpha mode, double-sidedness — and the
 * images go into the file (GLB: the binary buffer; `.gltf` via `gltfFiles`: PNG/JPEG files beside it).
 * Without them, materials are named after id shaders (MD5 `shader`, MD3 surface shaders) and skins (MD2), one
 * per distinct name, and reference images by URI only when the caller says where they are (`textureFolder`):
 * id names are engine paths (`models/weapons/rifle/rifle`, `…/skin.pcx`), not files next to the glTF.
 */
import type { ParseWarning } from '../base/errors.js';
import type { ResolvedMaterial } from '../materials/types.js';
import type { GltfBuilder, GltfMaterial } from './gltf-builder.js';
import { alphaLook, foundPath, materialForSlot, normalPath } from '../materials/look.js';
import { addImageFile, textureBaseName, type ExportImage, type ImageFile, type ImageSource, type MakeImageSource, type ResolvedTextures } from './textures.js';

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
  /**
   * Resolved materials and the bytes of their images (wins over the options above for the surfaces it covers).
   * Node: `resolveModelTextures` / `loadPlayer` give one; anywhere: a `MaterialResolver` plus `fs.file(path)`.
   */
  textures?: ResolvedTextures;
  /**
   * How `textures`' images become PNG / JPEG when they bring no `convert` of their own (`imageConverter` of
   * export/image-convert.ts: `registry/gltf.ts` passes it). Neither: the images are left out, with a warning.
   */
  imageConverter?: MakeImageSource;
  /**
   * Images as files beside a `.gltf` instead of in its buffer: each image's URI is this prefix + its base name +
   * `.png`/`.jpg` (`gltfFiles` sets it; `GltfResult.imageFiles` lists them).
   */
  imageFilePrefix?: string;
}

export type { ImageFile };

export function textureUriFor(name: string, options: TextureOptions): string | undefined {
  if (options.textureUri) return options.textureUri(name);
  if (options.textureFolder === undefined || !name) return undefined;
  const base = textureBaseName(name);
  if (!base) return undefined;
  const folder = options.textureFolder.replace(/[\\/]+$/, '');
  const file = base + (options.textureExtension ?? '.png');
  return encodeURI(folder ? `${folder}/${file}` : file);
}

/**
 * Says which of a shader's other stages the material leaves out (effect layers: scrolling or environment-mapped
 * stages, stages blended over the diffuse): glTF has one base colour and one emissive image.
 */
function droppedStages(m: ResolvedMaterial, warnings: ParseWarning[]): void {
  const left = m.others.filter((o) => o.role === 'stage' && o.path).map((o) => o.name);
  if (left.length === 0) return;
  const diffuse = m.diffuse?.name ? ` with its diffuse stage ${m.diffuse.name}` : '';
  warnings.push({ code: 'STAGE_DROPPED', message: `${m.shaderName || m.surface}: the stage${left.length > 1 ? 's' : ''} drawing ${left.join(', ')} ha${left.length > 1 ? 've' : 's'} no glTF form: exported${diffuse}`, offset: 0 });
}

/** One material per distinct name (or resolved look), created on first use. */
export class MaterialTable {
  private readonly byKey = new Map<string, number>();
  private readonly textureByKey = new Map<string, number>();
  private readonly imageByPath = new Map<string, number>();
  private converter: ImageSource | null;
  private clampSampler = -1;
  /** Images placed as files (with `imageFilePrefix`). */
  readonly imageFiles: ImageFile[] = [];

  constructor(private readonly builder: GltfBuilder, private options: TextureOptions, private readonly warnings: ParseWarning[] = []) {
    this.converter = options.textures ? this.sourceOf(options.textures, options.imageConverter) : null;
  }

  private sourceOf(textures: ResolvedTextures, fallback: MakeImageSource | undefined): ImageSource {
    const make = textures.convert ?? fallback;
    if (make) return make(textures, this.warnings);
    // textures built by hand, given to the stable door's toGlb (which carries no codecs of its own)
    const told = new Set<string>();
    return {
      get: (path) => {
        if (told.has(path)) return null;
        told.add(path);
        this.warnings.push({ code: 'TEXTURE_NOT_GIVEN', message: `${path}: the textures came without an image converter (resolveModelTextures gives one): left untextured`, offset: 0 });
        return null;
      },
    };
  }

  /**
   * Textures a model carries in itself (an MDL's embedded skins), used only when the caller resolved none: textures
   * given in the options (replacement skins found in a game folder) win. Called by an exporter before its first `index`.
   */
  carry(textures: () => ResolvedTextures): void {
    if (this.options.textures) return;
    const t = textures();
    this.options = { ...this.options, textures: t };
    this.converter = this.sourceOf(t, this.options.imageConverter);
  }

  /**
   * The material of a surface named `name` (shader / skin name); `slot` (its index, and its player part) picks its
   * resolved material when `textures` are given.
   */
  index(name: string, slot?: { index: number; part?: string }): number {
    const resolved = slot && this.options.textures ? materialForSlot(this.options.textures.materials, slot.index, slot.part) : undefined;
    if (resolved) return this.resolvedIndex(resolved);
    const key = `n:${name}`;
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const b = this.builder;
    const uri = textureUriFor(name, this.options);
    // id models are lit as plain diffuse surfaces: not metallic, fully rough.
    const pbr: NonNullable<GltfMaterial['pbrMetallicRoughness']> = { metallicFactor: 0, roughnessFactor: 1 };
    if (uri) {
      const image = b.add('images', { uri, name: textureBaseName(name) });
      pbr.baseColorTexture = { index: b.add('textures', { source: image, name: textureBaseName(name) }) };
    }
    const index = b.add('materials', { name: name || 'default', pbrMetallicRoughness: pbr });
    this.byKey.set(key, index);
    return index;
  }

  private resolvedIndex(m: ResolvedMaterial): number {
    const diffuse = foundPath(m.diffuse);
    const glow = foundPath(m.emissive);
    const key = 'r:' + JSON.stringify([m.shaderName, diffuse, m.normal?.path, glow, m.blend, m.alphaTest, m.sides, m.nodraw, m.clamp]);
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const look = alphaLook(m, this.warnings);
    const base = diffuse ? this.texture(diffuse, m.clamp) : null;
    const normal = normalPath(m, this.warnings);
    const normalTexture = normal ? this.texture(normal, m.clamp) : null;
    const material: GltfMaterial = { name: m.shaderName || m.surface || 'default', pbrMetallicRoughness: { metallicFactor: 0, roughnessFactor: 1 } };
    const pbr = material.pbrMetallicRoughness!;
    if (look.emissive && base !== null) {
      pbr.baseColorFactor = [0, 0, 0, 1];
      material.emissiveTexture = { index: base };
      material.emissiveFactor = [1, 1, 1];
    } else if (base !== null) pbr.baseColorTexture = { index: base };
    const glowTexture = glow && !look.emissive ? this.texture(glow, m.clamp) : null;
    if (glowTexture !== null) {
      material.emissiveTexture = { index: glowTexture };
      material.emissiveFactor = [1, 1, 1];
    }
    droppedStages(m, this.warnings);
    // Daemon's / XreaL's specularMap (Doom 3's `blend specularmap`): Blinn-Phong colour and gloss, which glTF's
    // metallic-roughness has no slot for; said, and named in extras for a tool that wants it
    const specular = foundPath(m.specular);
    if (specular) this.warnings.push({ code: 'SPECULAR_MAP_DROPPED', message: `${m.shaderName || m.surface}: its specular map ${specular} has no glTF metallic-roughness form: exported without it (named in the material's extras.specularMap)`, offset: 0 });
    if (look.invisible) pbr.baseColorFactor = [1, 1, 1, 0];
    if (normalTexture !== null) material.normalTexture = { index: normalTexture };
    if (look.alphaMode !== 'OPAQUE') material.alphaMode = look.alphaMode;
    if (look.alphaCutoff !== undefined) material.alphaCutoff = look.alphaCutoff;
    if (look.doubleSided) material.doubleSided = true;
    material.extras = { surface: m.surface, shader: m.shaderName, ...(diffuse ? { image: diffuse } : {}), ...(specular ? { specularMap: specular } : {}), ...(m.nodraw ? { nodraw: true } : {}) };
    const index = this.builder.add('materials', material);
    this.byKey.set(key, index);
    return index;
  }

  /** A texture of the image at `path` (one glTF image per path, one texture per image and wrap), or null. */
  private texture(path: string, clamp: boolean): number | null {
    const key = `${clamp ? 'c' : 'r'}:${path}`;
    const known = this.textureByKey.get(key);
    if (known !== undefined) return known;
    const image = this.image(path);
    if (image === null) return null;
    const CLAMP_TO_EDGE = 33071;
    if (clamp && this.clampSampler < 0) this.clampSampler = this.builder.add('samplers', { wrapS: CLAMP_TO_EDGE, wrapT: CLAMP_TO_EDGE });
    const index = this.builder.add('textures', { source: image, name: textureBaseName(path), ...(clamp ? { sampler: this.clampSampler } : {}) });
    this.textureByKey.set(key, index);
    return index;
  }

  private image(path: string): number | null {
    const known = this.imageByPath.get(path);
    if (known !== undefined) return known;
    const img = this.converter?.get(path);
    if (!img) return null;
    const index = this.builder.add('images', this.placeImage(img));
    this.imageByPath.set(path, index);
    return index;
  }

  private placeImage(img: ExportImage) {
    const name = textureBaseName(img.path);
    const prefix = this.options.imageFilePrefix;
    if (prefix === undefined) return { bufferView: this.builder.view(img.bytes), mimeType: img.mimeType, name };
    return { uri: encodeURI(addImageFile(this.imageFiles, prefix, img)), name };
  }
}

/**
 * "Resolve the textures of this model from a FileSystem" in one call: the material resolver (materials/) picks each
 * surface's images and render states the way its engine does, then the images glTF/OBJ export needs (diffuse and
 * normal maps) are read, each path once. The result is what `toGlb(model, { textures })` and `objMaterials` take.
 * No Node built-ins: a mounted game folder, an archive, dropped files or URLs all work.
 */
import type { Md2Model, Md3Model, Md5Mesh, MdlModel } from '../base/model.js';
import { resolveMdlMaterials } from '../materials/mdl.js';
import { MaterialResolver, type MaterialSet } from '../materials/resolver.js';
import type { EmbeddedPixels } from '../materials/types.js';
import type { FileSystem } from '../vfs/file-system.js';

/** A Quake 3 player's parts, as `{ lower, upper, head }` or an `Md3Player`-like `{ models: { … } }`. */
export type PlayerParts = { lower: Md3Model; upper: Md3Model; head: Md3Model } | { models: { lower: Md3Model; upper: Md3Model; head: Md3Model } };

export type TexturedModel = Md2Model | Md3Model | Md5Mesh | MdlModel | PlayerParts;

export interface ResolveTexturesOptions {
  /** MD3: `<model>_<skin>.skin` beside it; player: `<part>_<skin>.skin` (default `default`). */
  skin?: string;
  /** A resolver to reuse (its shader library and lookups are cached): many models of one game folder. */
  resolver?: MaterialResolver;
  signal?: AbortSignal;
}

/** The resolved materials, their warnings, and the bytes of every found diffuse / normal / glow image by path. */
export interface ModelTextures extends MaterialSet {
  images: Map<string, Uint8Array>;
  /** An MDL's embedded skins, decoded (materials/mdl.ts), by path. */
  pixels?: Map<string, EmbeddedPixels>;
}

function playerModels(model: TexturedModel): { lower: Md3Model; upper: Md3Model; head: Md3Model } | null {
  if ('models' in model) return model.models;
  if ('lower' in model && 'upper' in model && 'head' in model) return model;
  return null;
}

/**
 * Resolves `model`'s materials in `fs` and reads their images. `modelPath` is the model's path inside `fs`
 * (`models/mapobjects/stasis/stasis.md3`), or for a player its folder (`models/players/sarge`). Missing files are
 * warnings, never exceptions.
 */
export async function resolveModelTextures(fs: FileSystem, model: TexturedModel, modelPath: string, options: ResolveTexturesOptions = {}): Promise<ModelTextures> {
  const resolver = options.resolver ?? new MaterialResolver(fs, { signal: options.signal });
  const player = playerModels(model);
  let set: MaterialSet;
  let pixels: Map<string, EmbeddedPixels> | undefined;
  if (player) set = await resolver.player(player, modelPath, { skin: options.skin });
  else {
    const m = model as Md2Model | Md3Model | Md5Mesh | MdlModel;
    if (m.format === 'mdl') {
      const mdl = await resolveMdlMaterials(fs, m, modelPath, { signal: options.signal });
      set = mdl;
      pixels = mdl.pixels;
    } else if (m.format === 'md3') set = await resolver.md3(m, modelPath, options.skin ? { skin: options.skin } : {});
    else if (m.format === 'md2') set = await resolver.md2(m, modelPath);
    else set = await resolver.md5(m, modelPath);
  }
  const images = new Map<string, Uint8Array>();
  const warnings = [...set.warnings];
  for (const m of set.materials) {
    for (const image of [m.diffuse, m.normal, m.glow ?? null]) {
      const path = image?.path;
      if (!path || image.embedded || images.has(path)) continue;
      const file = await fs.file(path);
      if (!file) {
        warnings.push({ code: 'IMAGE_UNREADABLE', message: `${path}: found while resolving but not readable now`, path });
        continue;
      }
      images.set(path, await file.bytes({ signal: options.signal }));
    }
  }
  return { materials: set.materials, warnings, images, ...(pixels ? { pixels } : {}) };
}

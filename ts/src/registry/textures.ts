/**
 * "Resolve the textures of this model from a FileSystem" in one call: the model's registration finds each surface's
 * images and render states the way its engine does (`FormatEntry.materials`: skins, shader scripts, .mtr …), then
 * the images glTF/OBJ export needs (diffuse and normal maps) are read, each path once (`load/texture-image.ts`: the
 * read the three.js adapter makes too). The result is what `toGlb(model, { textures })` and `objMaterials` take. No
 * Node built-ins: a mounted game folder, an archive, dropped files or URLs all work.
 */
import { MaterialResolver, type MaterialSet } from '../materials/resolver.js';
import type { FileSystem, VfsFile } from '../vfs/file-system.js';
import { readTextureBytes } from '../load/texture-image.js';
import { imageConverter } from '../export/image-convert.js';
import type { MakeImageSource } from '../export/textures.js';
import { ownerAmong, type ModelEntry } from '../formats/entry.js';
import { isModelSet } from '../load/is-model-set.js';
import type { ModelSet } from '../load/model-set.js';
import { DEFAULT_FORMATS } from './formats.js';

/**
 * A model whose textures can be resolved: a model set read through registrations (its registration finds them: the
 * format is not looked for again), or a parsed model `D` of a format among `formats` (found by its data) or of the
 * `registration` given. Open: a format of the app's own too.
 */
export type TexturedModel<D = unknown> = ModelSet<D, ModelEntry<D>> | D;

export interface ResolveTexturesOptions {
  /** MD3: `<model>_<skin>.skin` beside it; player: `<part>_<skin>.skin` (default `default`). */
  skin?: string;
  /** A resolver to reuse (its shader library and lookups are cached): many models of one game folder. */
  resolver?: MaterialResolver;
  signal?: AbortSignal;
  /** The formats to find a bare model's among (default: `DEFAULT_FORMATS`; a format's `ModelEntry`, `md3Model`, works too). A set's own registration is used instead. */
  formats?: readonly ModelEntry[];
  /** The bare model's registration, when the caller knows it (it read the model): used, not looked for. */
  registration?: ModelEntry;
}

/**
 * The resolved materials, their warnings, and the bytes of every found diffuse / normal / glow image by path (an
 * embedded image's decoded pixels are in `pixels`, from the resolution).
 */
export interface ModelTextures extends MaterialSet {
  images: Map<string, Uint8Array>;
  /** How the images become PNG / JPEG in an export (the image codecs): `toGlb(model, { textures })` uses it. */
  convert: MakeImageSource;
}

/**
 * Resolves `model`'s materials in `fs` and reads their images. `modelPath` is the model's path inside `fs`
 * (`models/mapobjects/stasis/stasis.md3`), or for a player its folder (`models/players/sarge`); a set's own path
 * when left out. Missing files are warnings, never exceptions; a format without materials resolves to none.
 */
export async function resolveModelTextures(fs: FileSystem, model: TexturedModel, modelPath?: string, options: ResolveTexturesOptions = {}): Promise<ModelTextures> {
  const resolver = options.resolver ?? new MaterialResolver(fs, { signal: options.signal });
  const set = isModelSet<ModelEntry>(model) ? model : null;
  const entry = set ? set.registration : (options.registration ?? ownerAmong(model, options.formats ?? DEFAULT_FORMATS));
  const data = set ? set.data : model;
  const at = modelPath ?? set?.path;
  if (at === undefined) throw new TypeError('resolveModelTextures: a parsed model needs its path in the file system (modelPath)');
  const found: MaterialSet = entry.materials ? await entry.materials(resolver, data, at, { skin: options.skin }) : { materials: [], warnings: [] };
  const images = new Map<string, Uint8Array>();
  const warnings = [...found.warnings];
  for (const m of found.materials) {
    for (const image of [m.diffuse, m.normal, m.emissive]) {
      const path = image?.path;
      if (!path || image.embedded || images.has(path)) continue;
      const bytes = await readTextureBytes(fs, path, warnings, options.signal);
      if (bytes) images.set(path, bytes);
    }
  }
  // Each warning's file by its origin (which archive of a mounted game folder holds it), for messages: each path
  // looked up once, however many warnings name it.
  const files = new Map<string, Promise<VfsFile | null>>();
  const fileOf = (path: string) => files.get(path) ?? files.set(path, fs.file(path)).get(path)!;
  const named = await Promise.all(warnings.map(async (w) => (w.path && !w.origin ? { ...w, ...originOf(await fileOf(w.path)) } : w)));
  return { materials: found.materials, warnings: named, images, ...(found.pixels ? { pixels: found.pixels } : {}), convert: imageConverter };
}

const originOf = (f: VfsFile | null) => (f ? { origin: f.origin } : {});

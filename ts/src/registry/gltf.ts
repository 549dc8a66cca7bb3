/**
 * glTF export of any registered format: `toGlb(model, options)` → one `.glb` file's bytes, `toGltf(model, options)`
 * → `.gltf` JSON text + the `.bin` it points at, `gltfFiles(model, outName, options)` → the files to write for an
 * output name ending in `.glb` or `.gltf` (`gltf-meshopt.ts`: `toGlbMeshopt`, with EXT_meshopt_compression).
 *
 * Each takes a model set (`openModelSet`, `openModelOnDisk`) or a parsed model. A set carries the registration that
 * read it: its exporter is that registration's `gltf`, and its companions and side files become the options as the
 * registration says (`gltf-options.ts` `setGltfOptions`) — the format is not looked for again. A bare model's format
 * is found by its data (`owns`) among the formats (`DEFAULT_FORMATS` unless given). The exporter is loaded on first
 * use, so all of these are async. These are the defaulting forms of `/advanced` and `/write`: a bundler that puts what
 * `import()` loads into one file (esbuild without splitting) carries every registration's capabilities into an app
 * that calls them without `formats` — the stable `toGlb` (`export.ts`) has no default list for that reason
 * (docs/package.md, "What an app carries").
 */
import { buildGltfDocument, gltfFilesOf, type GltfOptions, type GltfResult } from '../export/gltf.js';
import type { ImageFile } from '../export/gltf-material.js';
import { imageConverter } from '../export/image-convert.js';
import { ownerAmong, type GltfAdd, type ModelEntry } from '../formats/entry.js';
import { isModelSet } from '../load/is-model-set.js';
import type { ModelSet } from '../load/model-set.js';
import { DEFAULT_FORMATS } from './formats.js';
import { setGltfOptions } from './gltf-options.js';

/**
 * What `toGlb` / `toGltf` accept: a model set read through registrations (its companions played as animations), or
 * a parsed model `D` of a format among the options' `formats` (an md5mesh's anims in the options). Open: whatever a
 * registration's `owns` recognises, a format of the app's own too.
 */
export type GltfModel<D = unknown> = ModelSet<D, ModelEntry<D>> | D;

export interface GltfExportOptions extends GltfOptions {
  /** The formats to find a bare model's exporter among (default: `DEFAULT_FORMATS`; a format's `ModelEntry`, `md3Model`, works too). A set's own registration is used instead. */
  formats?: readonly ModelEntry[];
}

/** The model's data, its exporter (loaded) and the options it exports with: a set's from its registration, a model's found by its data. */
async function exportOf(model: GltfModel, options: GltfExportOptions): Promise<{ data: unknown; add: GltfAdd<unknown>; options: GltfExportOptions }> {
  const set = isModelSet<ModelEntry>(model) ? model : null;
  const entry = set ? set.registration : ownerAmong(model, options.formats ?? DEFAULT_FORMATS);
  if (!entry.gltf) throw new TypeError(`${entry.title}: no glTF export for this format`);
  const add = await entry.gltf.load();
  return set ? { data: set.data, add, options: setGltfOptions(set, options) } : { data: model, add, options };
}

/** Builds the glTF document for a model; `toGlb` / `toGltf` serialise it. */
export async function buildGltf(model: GltfModel, options: GltfExportOptions = {}): Promise<GltfResult> {
  const e = await exportOf(model, options);
  const o = { imageConverter, ...e.options };
  return buildGltfDocument((ctx, result) => e.add(ctx, e.data, o.name ?? 'model', o, result), o);
}

/** The model as one binary glTF (`.glb`) file. */
export async function toGlb(model: GltfModel, options: GltfExportOptions = {}): Promise<Uint8Array> {
  return (await buildGltf(model, options)).builder.glb();
}

/**
 * The model as `.gltf` JSON text whose buffer is the separate file `binUri` (default `model.bin`); with
 * `imageFilePrefix`, `images` are the texture files it refers to (else textures are in the buffer).
 */
export async function toGltf(model: GltfModel, options: GltfExportOptions & { binUri?: string } = {}): Promise<{ json: string; bin: Uint8Array; images: ImageFile[] }> {
  const result = await buildGltf(model, options);
  return { ...result.builder.gltf(options.binUri ?? 'model.bin'), images: result.imageFiles };
}

/**
 * The files to write for an output path: `x.glb` → one file (textures inside); `x.gltf` → `x.gltf` + `x.bin` and
 * the texture images as `x_<image>.png`/`.jpg` (next to it, referenced by name). Throws a RangeError for any other
 * extension.
 */
export async function gltfFiles(model: GltfModel, outPath: string, options: GltfExportOptions = {}): Promise<{ path: string; bytes: Uint8Array }[]> {
  const e = await exportOf(model, options);
  return gltfFilesOf((o) => buildGltfDocument((ctx, result) => e.add(ctx, e.data, o.name ?? 'model', o, result), o), outPath, { imageConverter, ...e.options });
}

/**
 * glTF export of any registered format: `toGlb(model, options)` → one `.glb` file's bytes, `toGltf(model, options)`
 * → `.gltf` JSON text + the `.bin` it points at, `gltfFiles(model, outName, options)` → the files to write for an
 * output name ending in `.glb` or `.gltf` (`gltf-meshopt.ts`: `toGlbMeshopt`, with EXT_meshopt_compression). The model's format is
 * found by its data (`FormatEntry.owns`); its exporter is the registration's `gltf.add`.
 */
import type { ModelSet } from '../load/model-set.js';
import { buildGltfDocument, gltfFilesOf, type GltfOptions, type GltfResult } from '../export/gltf.js';
import type { ImageFile } from '../export/gltf-material.js';
import { ownerAmong, type FormatEntry, type ModelEntry } from '../formats/entry.js';
import type { RegisteredModel } from './formats.js';
import { DEFAULT_MODELS } from './models.js';

/** What `toGlb` / `toGltf` accept: a parsed model of a registered format (an md5mesh's anims in the options). */
export type GltfModel = RegisteredModel;

export interface GltfExportOptions extends GltfOptions {
  /**
   * The formats to find the model's exporter among (default: every format this package reads; registrations, or their
   * `ModelEntry`s).
   */
  formats?: readonly ModelEntry[];
}

function exporterOf(model: unknown, formats: readonly ModelEntry[] = DEFAULT_MODELS): ModelEntry {
  const entry = ownerAmong(model, formats);
  if (!entry.gltf) throw new TypeError(`${entry.title}: no glTF export for this format`);
  return entry;
}

/** Builds the glTF document for a model; `toGlb` / `toGltf` serialise it. */
export function buildGltf(model: GltfModel, options: GltfExportOptions = {}): GltfResult {
  const entry = exporterOf(model, options.formats);
  return buildGltfDocument((ctx, result) => entry.gltf!.add(ctx, model, options.name ?? 'model', options, result), options);
}

/**
 * A model set (a model with the files that play on it) as `toGlb` takes it: the data, its companions as anims — or
 * as its registration's `gltfOptions` says (IQM: the clips an `iqm.cfg` or a `.framegroups` makes; pass the
 * registrations, `DEFAULT_FORMATS`, for that: the default `ModelEntry`s read no files).
 */
export function setGltfOptions(set: ModelSet, options: GltfOptions, formats: readonly ModelEntry[] = DEFAULT_MODELS): GltfOptions {
  const own = (formats.find((f) => f.owns(set.data)) as FormatEntry | undefined)?.gltfOptions;
  if (own) return own(set, options);
  return set.companions.length ? { ...options, anims: set.companions.map((c) => ({ name: c.name, anim: c.data as never })) } : options;
}

/** The model as one binary glTF (`.glb`) file. */
export function toGlb(model: GltfModel, options: GltfExportOptions = {}): Uint8Array {
  return buildGltf(model, options).builder.glb();
}

/**
 * The model as `.gltf` JSON text whose buffer is the separate file `binUri` (default `model.bin`); with
 * `imageFilePrefix`, `images` are the texture files it refers to (else textures are in the buffer).
 */
export function toGltf(model: GltfModel, options: GltfExportOptions & { binUri?: string } = {}): { json: string; bin: Uint8Array; images: ImageFile[] } {
  const result = buildGltf(model, options);
  return { ...result.builder.gltf(options.binUri ?? 'model.bin'), images: result.imageFiles };
}

/**
 * The files to write for an output path: `x.glb` → one file (textures inside); `x.gltf` → `x.gltf` + `x.bin` and
 * the texture images as `x_<image>.png`/`.jpg` (next to it, referenced by name). Throws a RangeError for any other
 * extension.
 */
export function gltfFiles(model: GltfModel, outPath: string, options: GltfExportOptions = {}): { path: string; bytes: Uint8Array }[] {
  return gltfFilesOf((o) => buildGltf(model, o), outPath, options);
}

/**
 * glTF export of any registered format: `toGlb(model, options)` → one `.glb` file's bytes, `toGltf(model, options)`
 * → `.gltf` JSON text + the `.bin` it points at, `gltfFiles(model, outName, options)` → the files to write for an
 * output name ending in `.glb` or `.gltf` (`gltf-meshopt.ts`: `toGlbMeshopt`, with EXT_meshopt_compression). The model's format is
 * found by its data (`owns`) among the formats (`DEFAULT_MODELS` unless given: registry/models.ts says why); its
 * exporter is the entry's `gltf`, loaded on first use — so all of these are async. A model set's options:
 * `gltf-options.ts` `setGltfOptions`.
 */
import { buildGltfDocument, gltfFilesOf, type GltfOptions, type GltfResult } from '../export/gltf.js';
import type { ImageFile } from '../export/gltf-material.js';
import { imageConverter } from '../export/image-convert.js';
import { ownerAmong, type GltfAdd, type ModelEntry } from '../formats/entry.js';
import type { RegisteredModel } from './formats.js';
import { DEFAULT_MODELS } from './models.js';

/** What `toGlb` / `toGltf` accept: a parsed model of a registered format (an md5mesh's anims in the options). */
export type GltfModel = RegisteredModel;

export interface GltfExportOptions extends GltfOptions {
  /** The formats to find the model's exporter among (default: every format this package reads, `DEFAULT_MODELS`; registrations work too). */
  formats?: readonly ModelEntry[];
}

/** The exporter of `model`'s format, loaded. */
async function exporterOf(model: unknown, formats: readonly ModelEntry[] = DEFAULT_MODELS): Promise<GltfAdd<unknown>> {
  const entry = ownerAmong(model, formats);
  if (!entry.gltf) throw new TypeError(`${entry.title}: no glTF export for this format`);
  return entry.gltf.load();
}

/** Builds the glTF document for a model; `toGlb` / `toGltf` serialise it. */
export async function buildGltf(model: GltfModel, options: GltfExportOptions = {}): Promise<GltfResult> {
  const add = await exporterOf(model, options.formats);
  const o = { imageConverter, ...options };
  return buildGltfDocument((ctx, result) => add(ctx, model, o.name ?? 'model', o, result), o);
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
  const add = await exporterOf(model, options.formats);
  return gltfFilesOf((o) => buildGltfDocument((ctx, result) => add(ctx, model, o.name ?? 'model', o, result), o), outPath, { imageConverter, ...options });
}

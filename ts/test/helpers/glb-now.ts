/**
 * `toGlb` without awaiting it, for code that must stay synchronous (the fuzz targets' `use`, run inside the
 * synchronous invariant check): every default format's exporter is loaded here once, at import, then each call builds
 * the document as `toGlb` does (registry/gltf.ts).
 */
import { buildGltfDocument, type GltfOptions } from '../../src/export/gltf.js';
import { imageConverter } from '../../src/export/image-convert.js';
import { ownerAmong, type FormatEntry, type GltfAdd } from '../../src/formats/entry.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';

const exporters = new Map<FormatEntry, GltfAdd<unknown>>(await Promise.all(DEFAULT_FORMATS.filter((f) => f.gltf).map(async (f) => [f, await f.gltf!.load()] as const)));

/** The model as one `.glb`, synchronously (a format without glTF export: a TypeError, as `toGlb`'s). */
export function toGlbNow(model: unknown, options: GltfOptions = {}): Uint8Array {
  const entry = ownerAmong(model, DEFAULT_FORMATS);
  const add = exporters.get(entry);
  if (!add) throw new TypeError(`${entry.title}: no glTF export for this format`);
  const o = { imageConverter, ...options };
  return buildGltfDocument((ctx, result) => add(ctx, model, o.name ?? 'model', o, result), o).builder.glb();
}

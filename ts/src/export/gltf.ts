/**
 * glTF 2.0 export, the public entry points: `toGlb(model, options)` → one `.glb` file's bytes,
 * `toGltf(model, options)` → `.gltf` JSON text + the `.bin` it points at, `gltfFiles(model, outName, options)`
 * → the files to write for an output name ending in `.glb` or `.gltf`. Browser and Node alike (no Node
 * built-ins); docs/gltf.md describes the mapping of each format.
 */
import type { ParseWarning } from '../errors.js';
import type { Md5Anim, Md5Mesh } from '../model.js';
import { axes } from './gltf-axes.js';
import { GltfBuilder } from './gltf-builder.js';
import { MaterialTable, type TextureOptions } from './gltf-material.js';
import { addMd5, type Md5GltfStats, type NamedMd5Anim } from './gltf-md5.js';

export type { NamedMd5Anim, Md5GltfStats };

/** What `toGlb` / `toGltf` accept. */
export type GltfModel = Md5Mesh;

export interface GltfOptions extends TextureOptions {
  /** MD5: the md5anims to include, one glTF animation each (a bare anim is named `anim<i>`). */
  anims?: (NamedMd5Anim | Md5Anim)[];
  /** Convert id's Z-up to glTF's Y-up, (x, y, z) → (x, z, −y). Default true (glTF requires Y up). */
  yUp?: boolean;
  /** Name of the glTF scene (e.g. the input file's name). */
  name?: string;
  /** Receives recoverable oddities (`WEIGHTS_DROPPED`, `NO_NORMAL`, …). */
  warnings?: ParseWarning[];
}

export interface GltfResult {
  builder: GltfBuilder;
  warnings: ParseWarning[];
  /** MD5 only: the skin's influence statistics. */
  md5?: Md5GltfStats;
}

/** Builds the glTF document for a model; `toGlb` / `toGltf` serialise it. */
export function buildGltf(model: GltfModel, options: GltfOptions = {}): GltfResult {
  const builder = new GltfBuilder();
  const warnings: ParseWarning[] = [];
  const ctx = { builder, axes: axes(options.yUp ?? true), materials: new MaterialTable(builder, options), warnings };
  const result: GltfResult = { builder, warnings };
  let rootNodes: number[];
  switch (model.format) {
    case 'md5mesh': {
      const anims = (options.anims ?? []).map((a, i) => ('anim' in a ? a : { name: `anim${i}`, anim: a }));
      const out = addMd5(ctx, model, anims);
      rootNodes = out.rootNodes;
      result.md5 = out.stats;
      break;
    }
    default:
      throw new TypeError(`glTF export does not handle ${(model as { format?: string }).format ?? 'this value'}`);
  }
  builder.add('scenes', { name: options.name ?? 'model', nodes: rootNodes });
  options.warnings?.push(...warnings);
  return result;
}

/** The model as one binary glTF (`.glb`) file. */
export function toGlb(model: GltfModel, options: GltfOptions = {}): Uint8Array {
  return buildGltf(model, options).builder.glb();
}

/** The model as `.gltf` JSON text whose buffer is the separate file `binUri` (default `model.bin`). */
export function toGltf(model: GltfModel, options: GltfOptions & { binUri?: string } = {}): { json: string; bin: Uint8Array } {
  return buildGltf(model, options).builder.gltf(options.binUri ?? 'model.bin');
}

/**
 * The files to write for an output path: `x.glb` → one file; `x.gltf` → `x.gltf` + `x.bin` (next to it,
 * referenced by name). Throws a RangeError for any other extension.
 */
export function gltfFiles(model: GltfModel, outPath: string, options: GltfOptions = {}): { path: string; bytes: Uint8Array }[] {
  const lower = outPath.toLowerCase();
  if (lower.endsWith('.glb')) return [{ path: outPath, bytes: toGlb(model, options) }];
  if (!lower.endsWith('.gltf')) throw new RangeError(`${outPath}: glTF output must end in .glb or .gltf`);
  const binPath = outPath.slice(0, -5) + '.bin';
  const binUri = binPath.split(/[\\/]/).pop() as string;
  const { json, bin } = toGltf(model, { ...options, binUri });
  return [{ path: outPath, bytes: new TextEncoder().encode(json) }, { path: binPath, bytes: bin }];
}

/**
 * glTF 2.0 export, the public entry points: `toGlb(model, options)` → one `.glb` file's bytes,
 * `toGltf(model, options)` → `.gltf` JSON text + the `.bin` it points at, `gltfFiles(model, outName, options)`
 * → the files to write for an output name ending in `.glb` or `.gltf`. Browser and Node alike (no Node
 * built-ins); docs/gltf.md describes the mapping of each format.
 */
import type { ParseWarning } from '../base/errors.js';
import type { PoseBackend } from '../kernels/backend.js';
import { createTsBackend } from '../kernels/ts-backend.js';
import type { Md2Model, Md3Model, Md5Anim, Md5Mesh, MdlModel } from '../base/model.js';
import { axes } from './gltf-axes.js';
import { GltfBuilder } from './gltf-builder.js';
import { MaterialTable, type ImageFile, type TextureOptions } from './gltf-material.js';
import { addMd2, type Md2ExportOptions } from './gltf-md2.js';
import { addMd3 } from './gltf-md3.js';
import { addMd5, type Md5GltfStats, type NamedMd5Anim } from './gltf-md5.js';
import { addMdl, mdlEmbeddedTextures, type MdlExportOptions } from './gltf-mdl.js';
import type { GltfClip } from './gltf-morph.js';
import type { ExportContext } from './gltf-context.js';
import { addPlayer, type GltfPlayer } from './gltf-player.js';

export type { GltfClip, GltfPlayer, NamedMd5Anim, Md5GltfStats };

/** What `toGlb` / `toGltf` accept: an md5mesh (anims in the options), an MD2, an MD3, an MDL, or a Quake 3 player. */
export type GltfModel = Md5Mesh | Md2Model | Md3Model | MdlModel | GltfPlayer;

/**
 * `clips`, `fps`, `interpolation` (MD2, MD3, player without animation.cfg) and `md2Frames` (MD2) are described
 * in gltf-md2.ts / gltf-morph.ts and docs/gltf.md.
 */
export interface GltfOptions extends TextureOptions, Md2ExportOptions, MdlExportOptions {
  /** MD5: the md5anims to include, one glTF animation each (a bare anim is named `anim<i>`). */
  anims?: (NamedMd5Anim | Md5Anim)[];
  /** Convert id's Z-up to glTF's Y-up, (x, y, z) → (x, z, −y). Default true (glTF requires Y up). */
  yUp?: boolean;
  /** Name of the glTF scene (e.g. the input file's name). */
  name?: string;
  /** Receives recoverable oddities (`WEIGHTS_DROPPED`, `NO_NORMAL`, …). */
  warnings?: ParseWarning[];
  /** The backend whose kernels decode frames and bind poses (default: a TS backend; the result is the same). */
  backend?: PoseBackend;
  /**
   * MD2, MD3, players: KHR_mesh_quantization — integer positions on the model's grid, snorm8 normals, byte morph
   * weights (default true; docs/gltf.md "Compact output" gives the error bound). `false` writes float32 throughout.
   */
  quantize?: boolean;
}

export interface GltfResult {
  builder: GltfBuilder;
  warnings: ParseWarning[];
  /** MD5 only: the skin's influence statistics. */
  md5?: Md5GltfStats;
  /** With `imageFilePrefix`: the images to write beside the .gltf (their URIs are relative to it). */
  imageFiles: ImageFile[];
}

/** Builds the glTF document for a model; `toGlb` / `toGltf` serialise it. */
export function buildGltf(model: GltfModel, options: GltfOptions = {}): GltfResult {
  const builder = new GltfBuilder();
  const warnings: ParseWarning[] = [];
  const backend = options.backend ?? createTsBackend();
  // An MDL carries its skins: without resolved textures, its embedded ones (LibreQuake's palette) are used.
  const textures = options.textures ?? (!('models' in model) && model.format === 'mdl' ? mdlEmbeddedTextures(model, options.name ?? 'model') : undefined);
  const materials = new MaterialTable(builder, textures ? { ...options, textures } : options, warnings);
  const ctx = { builder, axes: axes(options.yUp ?? true), materials, warnings, backend, quantize: options.quantize ?? true };
  const result: GltfResult = { builder, warnings, imageFiles: materials.imageFiles };
  const name = options.name ?? 'model';
  let rootNodes: number[];
  try {
    rootNodes = addModel(ctx, model, name, options, result);
  } finally {
    if (!options.backend) backend.dispose();
  }
  builder.add('scenes', { name, ...(rootNodes.length ? { nodes: rootNodes } : {}) });
  options.warnings?.push(...warnings);
  return result;
}

/** Adds the model's nodes, meshes and animations; returns the nodes for the scene root. */
function addModel(ctx: ExportContext, model: GltfModel, name: string, options: GltfOptions, result: GltfResult): number[] {
  if ('models' in model) return addPlayer(ctx, model, name, options).rootNodes;
  switch (model.format) {
    case 'md5mesh': {
      const anims = (options.anims ?? []).map((a, i) => ('anim' in a ? a : { name: `anim${i}`, anim: a }));
      const out = addMd5(ctx, model, anims);
      result.md5 = out.stats;
      return out.rootNodes;
    }
    case 'md2':
      return addMd2(ctx, model, name, options).rootNodes;
    case 'md3':
      return addMd3(ctx, model, name, options).rootNodes;
    case 'mdl':
      return addMdl(ctx, model, name, options).rootNodes;
    default:
      throw new TypeError(`glTF export does not handle ${(model as { format?: string }).format ?? 'this value'}`);
  }
}

/** The model as one binary glTF (`.glb`) file. */
export function toGlb(model: GltfModel, options: GltfOptions = {}): Uint8Array {
  return buildGltf(model, options).builder.glb();
}

/**
 * The model as `.gltf` JSON text whose buffer is the separate file `binUri` (default `model.bin`); with
 * `imageFilePrefix`, `images` are the texture files it refers to (else textures are in the buffer).
 */
export function toGltf(model: GltfModel, options: GltfOptions & { binUri?: string } = {}): { json: string; bin: Uint8Array; images: ImageFile[] } {
  const result = buildGltf(model, options);
  return { ...result.builder.gltf(options.binUri ?? 'model.bin'), images: result.imageFiles };
}

/**
 * The files to write for an output path: `x.glb` → one file (textures inside); `x.gltf` → `x.gltf` + `x.bin` and
 * the texture images as `x_<image>.png`/`.jpg` (next to it, referenced by name). Throws a RangeError for any other
 * extension.
 */
export function gltfFiles(model: GltfModel, outPath: string, options: GltfOptions = {}): { path: string; bytes: Uint8Array }[] {
  const lower = outPath.toLowerCase();
  if (lower.endsWith('.glb')) return [{ path: outPath, bytes: toGlb(model, options) }];
  if (!lower.endsWith('.gltf')) throw new RangeError(`${outPath}: glTF output must end in .glb or .gltf`);
  const binPath = outPath.slice(0, -5) + '.bin';
  const binUri = binPath.split(/[\\/]/).pop() as string;
  const folder = binPath.slice(0, binPath.length - binUri.length);
  const { json, bin, images } = toGltf(model, { ...options, binUri, imageFilePrefix: binUri.slice(0, -4) + '_' });
  return [{ path: outPath, bytes: new TextEncoder().encode(json) }, { path: binPath, bytes: bin }, ...images.map((i) => ({ path: folder + i.uri, bytes: i.bytes }))];
}

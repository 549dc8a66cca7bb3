/**
 * glTF 2.0 export: a document built by a format's exporter (`gltf-md5.ts`, `gltf-md2.ts` …) into one context, and
 * the files it becomes. The public `toGlb` / `toGltf` / `gltfFiles` pick the exporter through the format registry
 * (`registry/gltf.ts`). Browser and Node alike (no Node built-ins); docs/gltf.md describes each format's mapping.
 */
import type { ParseWarning } from '../base/errors.js';
import type { PoseBackend } from '../kernels/backend.js';
import { createTsBackend } from '../kernels/ts-backend.js';
import type { Md5Anim } from '../base/model.js';
import { axes } from './gltf-axes.js';
import { GltfBuilder } from './gltf-builder.js';
import { MaterialTable, type ImageFile, type TextureOptions } from './gltf-material.js';
import type { GltfClip, MorphExportOptions } from './gltf-morph.js';
import type { ExportContext } from './gltf-context.js';

export type { GltfClip };

export interface Md2ExportOptions extends MorphExportOptions {
  /** 'morph' (default): one mesh with a morph target per frame; 'nodes': one node (and mesh) per frame. */
  md2Frames?: 'morph' | 'nodes';
  /**
   * The quantised position grid (with `quantize`, the default): 'source' (default) is fine enough that every frame
   * reads back onto the file's own per-frame grid (gltf-quantize.ts `md2SourceGrid`); 'box' is 255 steps over the
   * box every frame fits in — smaller, but coarser than the file where the model moves far across its frames.
   */
  md2Grid?: 'source' | 'box';
}

export interface MdlExportOptions extends MorphExportOptions {
  /** MDL: which skin record the mesh is drawn with (the entity's skinnum; default 0). */
  mdlSkin?: number;
}

/** An md5anim and the name its glTF animation gets (its file name without extension, by convention). */
export interface NamedMd5Anim {
  name: string;
  anim: Md5Anim;
  /**
   * Per-frame joint scales of the weights' offsets (frameCount × jointCount, frame-major): q2pro's `.md5scale`
   * (formats/md5/md5scale.ts); a scale of 0 hides what only that joint holds, its children unscaled.
   */
  scales?: Float32Array;
  /**
   * Its pairing with the mesh was checked and its ENGINE_LIMIT warnings given already (a model set's companion:
   * `openModelSet` warns on the anim's file): the export does not say them a second time.
   */
  warned?: boolean;
}

/** What keeping at most four influences per vertex dropped. */
export interface InfluenceStats {
  /** Vertices with more than 4 distinct joints, whose smallest influences were dropped. */
  verticesLostWeight: number;
  /** The largest share of a vertex's total bias that was dropped (0 when none was). */
  maxLostWeight: number;
  /** Vertices by distinct-joint count: `jointsPerVertex[k]` vertices have k + 1 joints. */
  jointsPerVertex: number[];
}

/** MD5's skin statistics in a glTF export. */
export type Md5GltfStats = InfluenceStats;

/**
 * `clips`, `fps`, `interpolation` (MD2, MD3, MDL, player without animation.cfg), `md2Frames` (MD2) and `mdlSkin`
 * (MDL) are described in gltf-md2.ts / gltf-mdl.ts / gltf-morph.ts and docs/gltf.md.
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

/**
 * Builds a glTF document: `add` puts a model's nodes, meshes and animations into the context and returns the
 * scene's root nodes (a format's exporter: `addMd2`, `addMd5` …; the registry picks it, `registry/gltf.ts`).
 */
export function buildGltfDocument(add: (ctx: ExportContext, result: GltfResult) => number[], options: GltfOptions = {}): GltfResult {
  const builder = new GltfBuilder();
  const warnings: ParseWarning[] = [];
  const backend = options.backend ?? createTsBackend();
  const materials = new MaterialTable(builder, options, warnings);
  const ctx = { builder, axes: axes(options.yUp ?? true), materials, warnings, backend, quantize: options.quantize ?? true };
  const result: GltfResult = { builder, warnings, imageFiles: materials.imageFiles };
  const name = options.name ?? 'model';
  let rootNodes: number[];
  try {
    rootNodes = add(ctx, result);
  } finally {
    if (!options.backend) backend.dispose();
  }
  builder.add('scenes', { name, ...(rootNodes.length ? { nodes: rootNodes } : {}) });
  options.warnings?.push(...warnings);
  return result;
}

/**
 * The files to write for an output path: `x.glb` → one file (textures inside); `x.gltf` → `x.gltf` + `x.bin` and
 * the texture images as `x_<image>.png`/`.jpg` (next to it, referenced by name). Throws a RangeError for any other
 * extension.
 */
export function gltfFilesOf(build: (options: GltfOptions & { binUri?: string }) => GltfResult, outPath: string, options: GltfOptions = {}): { path: string; bytes: Uint8Array }[] {
  const lower = outPath.toLowerCase();
  if (lower.endsWith('.glb')) return [{ path: outPath, bytes: build(options).builder.glb() }];
  if (!lower.endsWith('.gltf')) throw new RangeError(`${outPath}: glTF output must end in .glb or .gltf`);
  const binPath = outPath.slice(0, -5) + '.bin';
  const binUri = binPath.split(/[\\/]/).pop() as string;
  const folder = binPath.slice(0, binPath.length - binUri.length);
  const result = build({ ...options, binUri, imageFilePrefix: binUri.slice(0, -4) + '_' });
  const { json, bin } = result.builder.gltf(binUri);
  return [{ path: outPath, bytes: new TextEncoder().encode(json) }, { path: binPath, bytes: bin }, ...result.imageFiles.map((i) => ({ path: folder + i.uri, bytes: i.bytes }))];
}

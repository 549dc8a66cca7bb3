/**
 * What `importGltf` (registry/import-gltf.ts) takes and gives per target format, as types: its overloads name them,
 * and it reaches each format's import through the format's registration (`writer.model`), never its room. The
 * functions are the rooms' (`formats/md3/from-gltf.ts` `gltfToMd3`, `formats/md2/from-gltf.ts` `gltfToMd2`); MD5's
 * shapes are `gltf-md5.ts`'s, which MD5 and IQM share.
 */
import type { Md2Model, Md3Model } from '../base/model.js';
import type { ImportTextureOptions, TextureFile } from './gltf-textures.js';

export interface GltfToMd3Options extends ImportTextureOptions {
  /** Frames per second animations are sampled at (default 15). */
  fps?: number;
  /** Without `fps`: each animation at its own even key rate (every key kept), else at 15 (`animationRates`). */
  keyRate?: boolean;
  /** Uniform scale applied to positions and tag origins (default 1). */
  scale?: number;
  /** The model name in the header (default ''). */
  name?: string;
  /**
   * At most this many frames in all (default: `maxImportFrames` of the input's `limits` or the process's
   * `ResourceLimits`, 65,536): more is UNWRITABLE, naming the limit, before any frame is sampled.
   */
  maxFrames?: number;
  /**
   * At most this many bytes of MD3 frames, tags and vertices (default: `maxImportBytes`, 64 MiB; MD3's int32 offsets
   * address 2³¹ − 1): more is UNWRITABLE, naming the limit, before anything is sampled. Meshes used by many nodes
   * and long animations make an output far bigger than the file.
   */
  maxBytes?: number;
}

/** The MD3 and the images its shaders name (with `texturePath`; gltf-textures.ts). */
export type ImportedMd3 = Md3Model & { textures: TextureFile[] };

export interface GltfToMd2Options extends ImportTextureOptions {
  /** Frames per second animations are sampled at (default 10, Quake 2's). */
  fps?: number;
  /** Without `fps`: each animation at its own even key rate (every key kept), else at 10 (`animationRates`). */
  keyRate?: boolean;
  /** Uniform scale applied to positions (default 1). */
  scale?: number;
  /**
   * Primitives with different materials: pack their base colour images into one skin (`import/gltf-atlas.ts`), written
   * as `<texturePath>/<atlasName>.png` (default true). false: the first primitive's material is the skin of all
   * (GLTF_MATERIALS_MERGED), as MD2's one skin set draws them.
   */
  atlas?: boolean;
  /** The atlas image's file name without extension (default `skin`). */
  atlasName?: string;
  /** The skin size st pixels are counted in when the material has no baseColor texture (default 256 × 256). */
  skinSize?: { width: number; height: number };
  /**
   * At most this many frames in all (default: `maxImportFrames` of the input's `limits` or the process's
   * `ResourceLimits`, 65,536): more is UNWRITABLE, naming the limit, before any frame is sampled.
   */
  maxFrames?: number;
  /**
   * At most this many bytes of quantised vertices sampled before merging (4 × glTF vertices × frames; default:
   * `maxImportBytes`, 64 MiB): more is UNWRITABLE, naming the limit, before anything is sampled. Meshes used by many
   * nodes and long animations make an output far bigger than the file.
   */
  maxBytes?: number;
}

/**
 * What an import tells of the skin it packed its materials into (import/gltf-atlas.ts): how many materials, and the
 * one factor their images shrank by to fit (1: texel for texel). Here, with the other shapes of what an import gives,
 * so that a type-only reader of `idtech-models/write` does not need glTF Transform's types.
 */
export interface AtlasSummary {
  materials: number;
  scale: number;
}

/** The MD2 and the images its skin names (with `texturePath`; gltf-textures.ts). */
export type ImportedMd2 = Md2Model & { textures: TextureFile[]; atlas: AtlasSummary | null };

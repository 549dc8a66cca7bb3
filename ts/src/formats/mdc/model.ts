/**
 * A parsed MDC as the file stores it: every header field, the surfaces' base frames (MD3 records) and compressed
 * frames (one uint32 per vertex) with the two per-frame lookup tables, the tag names once and the compressed tags per
 * frame. Nothing is decoded here: `to-md3.ts` decodes the frames and tags as the engine draws them, into an
 * `Md3Model` that every MD3 door (poser, kernels, glTF/OBJ, viewer) takes unchanged.
 */
import type { ParseWarning } from '../../base/errors.js';

export interface MdcSurface {
  /** As stored (the engine overwrites it with SF_MDC at load and never checks it: ET's files hold 7, assimp's 0). */
  ident: number;
  /** Latin-1, cut at the first NUL. */
  name: string;
  flags: number;
  numCompFrames: number;
  numBaseFrames: number;
  vertexCount: number;
  triangleCount: number;
  /** Shader paths and the stored int32 index (the engine overwrites it at load). */
  shaders: { name: string; index: number }[];
  /** 3 per triangle, each < vertexCount (checked). */
  triangles: Uint32Array;
  /** 2 per vertex, shared by all frames. */
  st: Float32Array;
  /** numBaseFrames × vertexCount records of 4 int16: x, y, z (×1/64), packed lat/lng normal (MD3's md3XyzNormal_t). */
  baseXyzNormals: Int16Array;
  /** numCompFrames × vertexCount words: bits 0–23 the offset from the base frame (8 bits an axis), 24–31 the normal's index in the 256-entry table. */
  compressed: Uint32Array;
  /** Per frame: its base frame (each in 0..numBaseFrames-1, checked). */
  frameBaseFrames: Int16Array;
  /** Per frame: its compressed frame, or negative for a frame stored whole (each < numCompFrames, checked; ignored by the engine when numCompFrames is 0). */
  frameCompFrames: Int16Array;
}

export interface MdcModel {
  format: 'mdc';
  /** 2. */
  version: number;
  name: string;
  flags: number;
  frameCount: number;
  /** Header numSkins, as stored (unused by the engine). */
  numSkins: number;
  /** The header's offsets, as stored. */
  offsets: { frames: number; tagNames: number; tags: number; surfaces: number; end: number };
  /** md3Frame_t per frame. */
  frameNames: string[];
  frameMins: Float32Array;
  frameMaxs: Float32Array;
  frameLocalOrigins: Float32Array;
  frameRadii: Float32Array;
  tagCount: number;
  tagNames: string[];
  /** Frame-major, 3 int16 per tag per frame: the origin × 1/64. */
  tagXyz: Int16Array;
  /** Frame-major, 3 int16 per tag per frame: pitch, yaw, roll × MDC_TAG_ANGLE_SCALE degrees. */
  tagAngles: Int16Array;
  surfaces: MdcSurface[];
  warnings: ParseWarning[];
}

/**
 * One interface for the hot path, implemented twice: by the WASM modules (`wasm-kernels.ts`, SIMD128 or
 * scalar build) over buffers in their linear memory, and by plain TS (`ts-kernels.ts`) over ordinary typed
 * arrays. Callers allocate every buffer up front through the backend, write inputs into `buffer.view`,
 * call kernels, and read outputs from `buffer.view`.
 *
 * View lifetime: a WASM buffer's `view` is re-created when the module's memory grows, so read `.view`
 * again after any allocation rather than keeping an old typed array; the data itself stays put.
 */
export type BackendName = 'wasm-simd' | 'wasm-scalar' | 'ts';
export type BackendChoice = BackendName | 'wasm' | 'auto';

export type Typed = Float32Array | Uint32Array | Int32Array | Uint8Array | Int16Array;

export interface KernelBuffer<T extends Typed> {
  /** Element count. */
  readonly length: number;
  /** Address in the module's linear memory (0 for the TS backend). */
  readonly ptr: number;
  /** The elements; for WASM a view on linear memory (see view lifetime above). */
  readonly view: T;
}

export type F32 = KernelBuffer<Float32Array>;
export type U32 = KernelBuffer<Uint32Array>;
export type I32 = KernelBuffer<Int32Array>;
export type U8 = KernelBuffer<Uint8Array>;
export type I16 = KernelBuffer<Int16Array>;

export interface PoseBackend {
  readonly name: BackendName;
  f32(length: number): F32;
  u32(length: number): U32;
  i32(length: number): I32;
  u8(length: number): U8;
  i16(length: number): I16;
  /** Give a buffer back (WASM frees it; TS drops it). */
  release(buffer: KernelBuffer<Typed>): void;

  /** −1 when valid, else the first joint whose parent is not −1 and not below it. */
  validateParents(parents: I32): number;
  /** −1 when valid, else the first joint whose flagged components run past `componentCount`. */
  validateAnim(flags: U8, startIndex: U32, componentCount: number): number;
  /** −1 valid, −2 inconsistent shape or `dest` not a permutation, else the first weight naming a joint ≥ jointCount. */
  validateSkin(jointCount: number, groupSizes: U32, joints: U32, weights: F32, dest: U32 | null): number;

  /** Frame `frameIndex` of `frames` (componentCount floats each) → local pose (8 floats per joint). */
  composeFrame(flags: U8, startIndex: U32, baseframe: F32, frames: F32, frameIndex: number, componentCount: number, outLocal: F32): void;
  interpolateLocal(a: F32, b: F32, t: number, outLocal: F32): void;
  localToObject(parents: I32, local: F32, outObject: F32): void;
  poseMatrices(object: F32, outMatrices: F32): void;
  /**
   * Skin a stream grouped by weight count (`groupSizes[c − 1]` vertices with c weights). With `dest`, stream
   * vertex i goes to slot dest[i] (file order); with null, to slot i (grouped order). RangeError on bad shapes.
   */
  skinPositions(matrices: F32, groupSizes: U32, joints: U32, weights: F32, dest: U32 | null, outPositions: F32): void;
  skinNormals(matrices: F32, groupSizes: U32, joints: U32, normalWeights: F32, dest: U32 | null, outNormals: F32): void;
  /** Several frames in one call: frame i's positions at out[i · V · 3]. RangeError on a bad frame index or shape. */
  skinFrames(anim: AnimBuffers, skin: SkinBuffers, frameIndices: U32, scratch: PoseScratch, out: F32): void;

  /**
   * MD2 vertex animation: the blend of frames a and b (t in [0, 1]) of `frames` (4 bytes per vertex,
   * frame-major) → `vertexCount × 3` floats in each output, starting at vertex `outVertexOffset`.
   * RangeError on a frame index past the end or a short buffer.
   */
  md2Blend(frames: U8, scales: F32, translates: F32, vertexCount: number, frameA: number, frameB: number, t: number, normalTable: F32, outPositions: F32, outNormals: F32, outVertexOffset: number): void;
  /** MD3 vertex animation of one surface (4 int16 per vertex, frame-major); otherwise as `md2Blend`. */
  md3Blend(xyzNormals: I16, vertexCount: number, frameA: number, frameB: number, t: number, angleTable: F32, outPositions: F32, outNormals: F32, outVertexOffset: number): void;
}

/** An md5anim in kernel buffers. */
export interface AnimBuffers {
  parents: I32;
  flags: U8;
  startIndex: U32;
  baseframe: F32;
  frames: F32;
  componentCount: number;
}

/** A grouped skin stream in kernel buffers (`dest` null: grouped output order). */
export interface SkinBuffers {
  groupSizes: U32;
  joints: U32;
  weights: F32;
  dest: U32 | null;
}

/** Caller-owned scratch for a pose: local and object poses, joint matrices. */
export interface PoseScratch {
  local: F32;
  object: F32;
  matrices: F32;
}

/**
 * The morph kernels' output contract, checked the same way by both backends: `vertexCount` vertices (3 floats each)
 * from vertex `offset` must fit in both outputs. RangeError otherwise.
 */
export function checkOutputRange(positions: F32, normals: F32, offset: number, vertexCount: number): void {
  const end = (offset + vertexCount) * 3;
  if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(vertexCount) || vertexCount < 0 || end > positions.length || end > normals.length) {
    throw new RangeError('vertex offset past the output');
  }
}

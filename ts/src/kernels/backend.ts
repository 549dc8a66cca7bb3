/**
 * The backend contract: **memory** (buffers the kernels read and write) and **kernels** (jobs run over those
 * buffers), implemented twice — by WASM (`wasm-backend.ts`, SIMD128 or scalar build, buffers in the module's
 * linear memory, each job passed as one descriptor pointer) and by plain TS (`ts-backend.ts`, ordinary typed
 * arrays, the kernels of `ts-kernels.ts`). Callers allocate every buffer up front through `memory`, write inputs
 * into `buffer.view`, build their jobs once, and run them as often as they like.
 *
 * Validation and running stay separate (ozz-animation's jobs): `validate*` report the first index a kernel would
 * follow out of range (−1 when none); the run kernels check only that shapes agree and throw RangeError when they
 * do not, having written nothing.
 *
 * View lifetime: a WASM buffer's `view` is re-created when the module's memory grows, so read `.view` again after
 * any allocation rather than keeping an old typed array; the data itself stays put. A released buffer (and every
 * buffer of a disposed backend) throws on use.
 */
export type BackendName = 'wasm-simd' | 'wasm-scalar' | 'ts';
export type BackendChoice = BackendName | 'wasm' | 'auto';

export type Typed = Float32Array | Uint32Array | Int32Array | Uint8Array | Int16Array | Uint16Array;

export interface KernelBuffer<T extends Typed> {
  /** Element count. */
  readonly length: number;
  /** Address in the module's linear memory (0 for the TS backend). */
  readonly ptr: number;
  /** The elements; for WASM a view on linear memory (see view lifetime above). Throws once released. */
  readonly view: T;
}

export type F32 = KernelBuffer<Float32Array>;
export type U32 = KernelBuffer<Uint32Array>;
export type I32 = KernelBuffer<Int32Array>;
export type U8 = KernelBuffer<Uint8Array>;
export type I16 = KernelBuffer<Int16Array>;
export type U16 = KernelBuffer<Uint16Array>;

/** Where kernel buffers live. */
export interface KernelMemory {
  f32(length: number): F32;
  u32(length: number): U32;
  i32(length: number): I32;
  u8(length: number): U8;
  i16(length: number): I16;
  u16(length: number): U16;
  /** Give a buffer back (WASM frees it; TS drops it). Using it afterwards throws. */
  release(buffer: KernelBuffer<Typed>): void;
}

// --- jobs: one kernel call's inputs and outputs (mirrors crates/wasm/src/jobs.rs field for field) -------------

export interface ValidateParentsJob {
  parents: I32;
}
export interface ValidateAnimJob {
  flags: U8;
  startIndex: U32;
  baseframe: F32;
  componentCount: number;
}
export interface ValidateSkinJob {
  jointCount: number;
  groupSizes: U32;
  joints: U32;
  weights: F32;
  /** null: grouped output order. */
  dest: U32 | null;
}
/** Frame `frame` of `frames` (componentCount floats each) → local pose (8 floats per joint) in `out`. */
export interface ComposeJob {
  flags: U8;
  startIndex: U32;
  baseframe: F32;
  frames: F32;
  componentCount: number;
  frame: number;
  out: F32;
}
/** Two local poses blended (lerp translations, shortest-path slerp rotations) by `t` into `out`. */
export interface InterpolateJob {
  a: F32;
  b: F32;
  t: number;
  out: F32;
}
/** Local → object space, parents first. */
export interface LocalToObjectJob {
  parents: I32;
  local: F32;
  out: F32;
}
/** Object poses → 3×4 joint matrices (16 floats each). */
export interface MatricesJob {
  object: F32;
  out: F32;
}
/** Joint matrices with joint j's 3×3 part times `scales[j]` into `out`, translations copied (q2pro's `.md5scale`). */
export interface ScaleMatricesJob {
  matrices: F32;
  scales: F32;
  out: F32;
}
/**
 * A stream grouped by weight count (`groupSizes[c − 1]` vertices with c weights) skinned by `matrices`. With
 * `dest`, stream vertex i goes to slot dest[i] (file order); with null, to slot i (grouped order). Positions take
 * weights `x·b y·b z·b b`; normals (and tangents) `nx·b ny·b nz·b 0`, renormalised.
 */
export interface SkinJob {
  matrices: F32;
  groupSizes: U32;
  joints: U32;
  weights: F32;
  dest: U32 | null;
  out: F32;
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
/** Several frames posed and skinned in one call: frame i's positions at out[i · V · 3] (the first `frameCount` indices). */
export interface SkinFramesJob {
  anim: AnimBuffers;
  skin: SkinBuffers;
  frameIndices: U32;
  frameCount: number;
  scratch: PoseScratch;
  out: F32;
}
/** MD2: frames a and b of `frames` (4 bytes per vertex, frame-major) blended by t into `vertexCount` outputs from vertex `outVertexOffset`. */
export interface Md2BlendJob {
  frames: U8;
  scales: F32;
  translates: F32;
  /** `MD2_NORMAL_TABLE` (tables.ts) */
  normalTable: F32;
  vertexCount: number;
  frameA: number;
  frameB: number;
  t: number;
  outPositions: F32;
  outNormals: F32;
  outVertexOffset: number;
}
/** MD3: one surface's frames a and b (4 int16 per vertex, frame-major) blended by t, as {@link Md2BlendJob}. */
export interface Md3BlendJob {
  xyzNormals: I16;
  /** `md3DecodedNormals()` (tables.ts; `md3NormalBuffer(backend)` holds one copy per backend) */
  normalTable: F32;
  vertexCount: number;
  frameA: number;
  frameB: number;
  t: number;
  outPositions: F32;
  outNormals: F32;
  outVertexOffset: number;
}
/** Vertices [firstVertex, firstVertex + vertexCount) of both outputs moved by a 3×4 placement, in place. */
export interface TransformJob {
  matrix: F32;
  positions: F32;
  normals: F32;
  firstVertex: number;
  vertexCount: number;
}

/** Linear-blend-skinning indices (4 per vertex) against `jointCount`: weighted ones must name a joint. */
export interface ValidateLbsJob {
  jointCount: number;
  indices: U8;
  /** Byte weights, or null when `weightsF32` is given. */
  weightsU8: U8 | null;
  weightsF32: F32 | null;
}
/** IQM joints → bind and inverse bind matrices (ioquake3's row-major 3×4, 12 floats each). */
export interface IqmBindJob {
  parents: I32;
  translate: F32;
  rotate: F32;
  scale: F32;
  bind: F32;
  invBind: F32;
}
/**
 * IQM frames `frameA` → `frameB` at `t` (ioquake3 ComputePoseMats with oldframe a, frame b, backlerp 1 − t) → each
 * joint's skinning matrix, column-major 4×4 (`LBS_MATRIX_STRIDE`) into `out`. `scratch`: 2 · poses · 10 floats.
 */
export interface IqmPoseJob {
  parents: I32;
  masks: U32;
  offsets: F32;
  scales: F32;
  frames: U16;
  frameCount: number;
  frameChannels: number;
  bind: F32;
  invBind: F32;
  scratch: F32;
  out: F32;
  frameA: number;
  frameB: number;
  t: number;
}
/** What `iqmSkinFrames` poses from: an {@link IqmPoseJob}'s skeleton and frames (an `IqmPoseJob` itself will do). */
export type IqmFramesPose = Pick<IqmPoseJob, 'parents' | 'masks' | 'offsets' | 'scales' | 'frames' | 'frameCount' | 'frameChannels' | 'bind' | 'invBind'>;
/** The bind-pose vertices a bake skins: an {@link LbsSkinJob}'s positions, indices and weights (exactly one of the two). */
export type IqmBakeSkin = Pick<LbsSkinJob, 'positions' | 'indices' | 'weightsU8' | 'weightsF32'>;
/**
 * Several IQM frames posed and skinned in one call (each frame alone, as `iqmPose` with a = b, then `lbsSkin` of the
 * positions): frame i's positions at out[i · V · 3] (the first `frameCount` indices). `scratch`: 2 · poses · 10
 * floats; `matrices`: one pose's.
 */
export interface IqmSkinFramesJob {
  pose: IqmFramesPose;
  skin: IqmBakeSkin;
  frameIndices: U32;
  frameCount: number;
  scratch: F32;
  matrices: F32;
  out: F32;
}
/**
 * Bind-pose vertices skinned by up to four column-major joint matrices each (ioquake3 RB_IQMSurfaceAnim; glTF's
 * skins too): positions, and normals / tangents (null to skip) through the blended matrix's cofactors, renormalised.
 * Exactly one of `weightsU8` (÷ 255) and `weightsF32`.
 */
export interface LbsSkinJob {
  matrices: F32;
  positions: F32;
  normals: F32 | null;
  tangents: F32 | null;
  indices: U8;
  weightsU8: U8 | null;
  weightsF32: F32 | null;
  outPositions: F32;
  outNormals: F32 | null;
  outTangents: F32 | null;
}

/**
 * A crowd's joint palettes in one call (`crates/core/src/crowd.rs`): for each of the first `instanceCount` instances,
 * keys `instanceKeys[2i]` and `instanceKeys[2i + 1]` of `keys` (each `parents.length · CROWD_KEY_STRIDE` floats:
 * translation, unit rotation, scale per joint) blended by `instanceBlend[2i]` (translation lerped, rotation slerped)
 * and `instanceBlend[2i + 1]` (scale), composed parents first and through `invBind` (row-major 3×4 per joint) into
 * `out`: instance i's joint j at `(i · joints + j) · CROWD_PALETTE_STRIDE`, row-major 3×4. `scratch`: joints · 12 floats.
 */
export interface CrowdPalettesJob {
  parents: I32;
  invBind: F32;
  keys: F32;
  instanceKeys: U32;
  instanceBlend: F32;
  scratch: F32;
  out: F32;
  instanceCount: number;
}

/**
 * The kernels, one job each. Validators return −1 when valid; runners throw RangeError on shapes that disagree (the
 * WASM SIMD128 skinning kernels also on a joint or destination index out of range: validate first).
 */
export interface PoseKernels {
  /** The first joint whose parent is not −1 and not below it. */
  validateParents(job: ValidateParentsJob): number;
  /** −2 inconsistent shapes, else the first joint whose flagged components run past `componentCount`. */
  validateAnim(job: ValidateAnimJob): number;
  /** −2 inconsistent shape or `dest` not a permutation, else the first weight naming a joint ≥ jointCount. */
  validateSkin(job: ValidateSkinJob): number;
  composeFrame(job: ComposeJob): void;
  interpolateLocal(job: InterpolateJob): void;
  localToObject(job: LocalToObjectJob): void;
  poseMatrices(job: MatricesJob): void;
  scaleMatrices(job: ScaleMatricesJob): void;
  skinPositions(job: SkinJob): void;
  skinNormals(job: SkinJob): void;
  skinFrames(job: SkinFramesJob): void;
  md2Blend(job: Md2BlendJob): void;
  md3Blend(job: Md3BlendJob): void;
  transformVertices(job: TransformJob): void;
  /** −2 a weights array shorter than the indices, else the first weighted blend index naming a missing joint. */
  validateLbs(job: ValidateLbsJob): number;
  iqmBind(job: IqmBindJob): void;
  iqmPose(job: IqmPoseJob): void;
  lbsSkin(job: LbsSkinJob): void;
  iqmSkinFrames(job: IqmSkinFramesJob): void;
  /**
   * A crowd's joint palettes in one job (`crates/core/src/crowd.rs`). The WASM backends carry it; the TS backend leaves
   * it out, so an app that poses one model on TS carries no crowd code: a crowd on TS runs the mirror
   * (`ts-crowd-kernels.ts` `crowdPalettesJob`), which comes with the crowd (`crowd/skinned-crowd.ts` `runCrowdPalettes`).
   */
  crowdPalettes?(job: CrowdPalettesJob): void;
}

export interface PoseBackend {
  readonly name: BackendName;
  readonly memory: KernelMemory;
  readonly kernels: PoseKernels;
  /** True once disposed: every buffer is released and every call throws. */
  readonly disposed: boolean;
  /** Release everything this backend allocated (posers built on it become unusable). Idempotent. */
  dispose(): void;
}

/** The RangeError every backend throws when a kernel refuses a job's shapes. */
export function refused(kernel: string, why = 'buffer shapes disagree'): never {
  throw new RangeError(`${kernel}: ${why}`);
}

/** The error for anything used after `dispose()` / `release()`. */
export function disposedError(what: string): Error {
  return new Error(`${what} was disposed: create a new one`);
}

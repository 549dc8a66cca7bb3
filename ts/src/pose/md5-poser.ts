/**
 * Poses and skins an md5mesh, in its bind pose or by an md5anim, on one backend. Every buffer the kernels
 * use is allocated once here (nothing is allocated per frame); outputs are read from `positions` and
 * `normals`, which stay valid until the next pose call on this poser (or until another allocation grows
 * the WASM memory: read them again after any call rather than keeping the typed array).
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import type { Md5Anim, Md5Mesh } from '../base/model.js';
import type { F32, I32, PoseBackend, U32, U8 } from '../kernels/backend.js';
import { MATRIX_STRIDE, POSE_STRIDE, WEIGHT_STRIDE } from '../kernels/layout.js';
import { bindPose, buildSkinStream, buildTangentStream, type Md5SkinStream } from './skin-stream.js';

/** The frames to blend for a time, the way Doom 3 plays an anim: the last frame closes the cycle. */
export interface FrameBlend {
  frame1: number;
  frame2: number;
  /** Weight of frame2, in [0, 1). */
  t: number;
}

/**
 * Time in seconds → two frames and a blend factor. A cycle lasts (frameCount − 1) / frameRate seconds: frame
 * frameCount − 1 is where the cycle ends (and, looping, frame 0 begins again). Without `loop`, times past the
 * end hold the last frame and times before 0 hold the first.
 */
export function frameAtTime(anim: Pick<Md5Anim, 'frameCount' | 'frameRate'>, seconds: number, loop = true): FrameBlend {
  const last = anim.frameCount - 1;
  if (last <= 0 || !Number.isFinite(seconds)) return { frame1: 0, frame2: 0, t: 0 };
  const ft = seconds * anim.frameRate;
  let f = Math.floor(ft);
  let t = ft - f;
  if (loop) {
    f = ((f % last) + last) % last;
  } else if (f >= last) {
    return { frame1: last, frame2: last, t: 0 };
  } else if (f < 0) {
    return { frame1: 0, frame2: 0, t: 0 };
  }
  if (t < 0) t = 0;
  return { frame1: f, frame2: f + 1, t };
}

/** Throws ANIM_MESH_MISMATCH unless the anim's joints have the mesh's names and parents, in order. */
export function assertAnimMatchesMesh(mesh: Md5Mesh, anim: Md5Anim): void {
  const mj = mesh.joints;
  const fail = (detail: string) => {
    throw new ModelParseError(ErrorCode.AnimMeshMismatch, detail, { offset: 0 });
  };
  if (anim.jointCount !== mj.count) fail(`the anim has ${anim.jointCount} joints, the mesh ${mj.count}`);
  for (let j = 0; j < mj.count; j++) {
    if (anim.names[j] !== mj.names[j]) fail(`joint ${j} is "${anim.names[j]}" in the anim but "${mj.names[j]}" in the mesh`);
    if (anim.parents[j] !== mj.parents[j]) fail(`joint ${j} ("${mj.names[j]}") has parent ${anim.parents[j]} in the anim but ${mj.parents[j]} in the mesh`);
  }
}

interface AttachedAnim {
  anim: Md5Anim;
  flags: U8;
  startIndex: U32;
  baseframe: F32;
  frames: F32;
}

export class Md5Poser {
  readonly backend: PoseBackend;
  readonly mesh: Md5Mesh;
  readonly stream: Md5SkinStream;
  readonly jointCount: number;
  readonly vertexCount: number;

  private readonly parents: I32;
  private readonly bind: F32;
  private readonly localA: F32;
  private readonly localB: F32;
  private readonly local: F32;
  private readonly object: F32;
  private readonly matrices: F32;
  private readonly groupSizes: U32;
  private readonly dest: U32 | null;
  private readonly joints: U32;
  private readonly weights: F32;
  private readonly normalWeights: F32;
  private tangentBuffers: { weights: F32; out: F32 } | null = null;
  private readonly outPositions: F32;
  private readonly outNormals: F32;
  private animBuffers: AttachedAnim | null = null;
  private batch: { indices: U32; out: F32 } | null = null;

  /**
   * `order: 'file'` (default) writes outputs in the file's vertex order (meshes back to back);
   * `'grouped'` writes them in the skinning stream's order (vertices grouped by weight count — no scatter);
   * draw those with `groupedTriangles(mesh, poser.stream)`.
   */
  readonly order: 'file' | 'grouped';

  constructor(backend: PoseBackend, mesh: Md5Mesh, options: { order?: 'file' | 'grouped'; stream?: Md5SkinStream; tangents?: boolean } = {}) {
    const stream = options.stream ?? buildSkinStream(mesh);
    this.order = options.order ?? 'file';
    this.backend = backend;
    this.mesh = mesh;
    this.stream = stream;
    const n = (this.jointCount = mesh.joints.count);
    this.vertexCount = stream.vertexCount;
    const b = backend;
    this.parents = b.i32(n);
    this.bind = b.f32(n * POSE_STRIDE);
    this.localA = b.f32(n * POSE_STRIDE);
    this.localB = b.f32(n * POSE_STRIDE);
    this.local = b.f32(n * POSE_STRIDE);
    this.object = b.f32(n * POSE_STRIDE);
    this.matrices = b.f32(n * MATRIX_STRIDE);
    this.groupSizes = b.u32(stream.groupSizes.length);
    this.dest = this.order === 'file' ? b.u32(stream.vertexCount) : null;
    this.joints = b.u32(stream.weightTotal);
    this.weights = b.f32(stream.weightTotal * WEIGHT_STRIDE);
    this.normalWeights = b.f32(stream.weightTotal * WEIGHT_STRIDE);
    this.outPositions = b.f32(stream.vertexCount * 3);
    this.outNormals = b.f32(stream.vertexCount * 3);
    const tangents = options.tangents ? buildTangentStream(mesh, stream) : null;
    if (tangents) {
      this.tangentBuffers = { weights: b.f32(stream.weightTotal * WEIGHT_STRIDE), out: b.f32(stream.vertexCount * 3) };
      const signs = tangents.tangentSigns;
      this.tangentSigns = this.order === 'file' ? signs : signs.map((_, i) => signs[stream.streamToFile[i]]);
    }
    // All allocation is done: write the inputs once (views read after the last allocation).
    this.parents.view.set(mesh.joints.parents);
    this.bind.view.set(bindPose(mesh));
    this.groupSizes.view.set(stream.groupSizes);
    this.dest?.view.set(stream.streamToFile);
    this.joints.view.set(stream.joints);
    this.weights.view.set(stream.weights);
    this.normalWeights.view.set(stream.normalWeights);
    if (tangents) this.tangentBuffers!.weights.view.set(tangents.tangentWeights);
    const badParent = b.validateParents(this.parents);
    if (badParent >= 0) throw new ModelParseError(ErrorCode.IndexOutOfRange, `joint ${badParent} has parent ${mesh.joints.parents[badParent]}, not below it`, { offset: 0 });
    const badWeight = b.validateSkin(n, this.groupSizes, this.joints, this.weights, this.dest);
    if (badWeight !== -1) throw new ModelParseError(ErrorCode.IndexOutOfRange, badWeight === -2 ? 'skin stream is inconsistent' : `skin weight ${badWeight} names joint ${stream.joints[badWeight]} of ${n}`, { offset: 0 });
  }

  /** Skinned positions, 3 floats per vertex, meshes one after another (see `stream.meshVertexStart`). */
  get positions(): Float32Array {
    return this.outPositions.view;
  }
  /** Skinned unit normals, 3 floats per vertex. */
  get normals(): Float32Array {
    return this.outNormals.view;
  }
  /**
   * Skinned unit tangents (along +u), 3 floats per vertex, when the poser was made with `{ tangents: true }`
   * (skinned together with the normals); null otherwise. Bitangent = tangentSigns[v] · (normal × tangent).
   */
  get tangents(): Float32Array | null {
    return this.tangentBuffers?.out.view ?? null;
  }
  /** Per output vertex, ±1: the bitangent's handedness (see `tangents`); null without tangents. */
  readonly tangentSigns: Float32Array | null = null;
  /** Joint matrices of the last pose: 16 floats per joint, a row-major 3×4 (rows `m·0 m·1 m·2 t·`) then `0 0 0 0`. */
  get jointMatrices(): Float32Array {
    return this.matrices.view;
  }
  get anim(): Md5Anim | null {
    return this.animBuffers?.anim ?? null;
  }

  /** Attach an anim (its frames are copied into the backend once), or detach with null. */
  setAnim(anim: Md5Anim | null): void {
    this.releaseAnim();
    if (!anim) return;
    assertAnimMatchesMesh(this.mesh, anim);
    const b = this.backend;
    const ab: AttachedAnim = {
      anim,
      flags: b.u8(anim.jointCount),
      startIndex: b.u32(anim.jointCount),
      baseframe: b.f32(anim.baseframe.length),
      frames: b.f32(anim.frames.length),
    };
    ab.flags.view.set(anim.flags);
    ab.startIndex.view.set(anim.startIndices);
    ab.baseframe.view.set(anim.baseframe);
    ab.frames.view.set(anim.frames);
    const bad = b.validateAnim(ab.flags, ab.startIndex, anim.componentCount);
    this.animBuffers = ab;
    if (bad >= 0) {
      this.releaseAnim();
      throw new ModelParseError(ErrorCode.BadCount, `joint ${bad}'s animated components run past the ${anim.componentCount} per frame`, { offset: 0 });
    }
  }

  /** The mesh's own joints (bind pose). */
  poseBind(withNormals = true): void {
    this.backend.poseMatrices(this.bind, this.matrices);
    this.skin(withNormals);
  }

  /** One frame of the attached anim, exactly (no interpolation). */
  poseFrame(frame: number, withNormals = true): void {
    this.poseJoints(frame);
    this.skin(withNormals);
  }

  /** The skeleton only (compose → object space → `jointMatrices`), no skinning; `skin()` can follow. */
  poseJoints(frame: number): void {
    const ab = this.requireAnim();
    this.checkFrame(ab.anim, frame);
    const b = this.backend;
    b.composeFrame(ab.flags, ab.startIndex, ab.baseframe, ab.frames, frame, ab.anim.componentCount, this.local);
    b.localToObject(this.parents, this.local, this.object);
    b.poseMatrices(this.object, this.matrices);
  }

  /** Two frames blended in local space (lerp translations, slerp rotations), then skinned. */
  poseBlend(frame1: number, frame2: number, t: number, withNormals = true): void {
    const ab = this.requireAnim();
    this.checkFrame(ab.anim, frame1);
    this.checkFrame(ab.anim, frame2);
    const b = this.backend;
    const cc = ab.anim.componentCount;
    b.composeFrame(ab.flags, ab.startIndex, ab.baseframe, ab.frames, frame1, cc, this.localA);
    b.composeFrame(ab.flags, ab.startIndex, ab.baseframe, ab.frames, frame2, cc, this.localB);
    b.interpolateLocal(this.localA, this.localB, t, this.local);
    b.localToObject(this.parents, this.local, this.object);
    b.poseMatrices(this.object, this.matrices);
    this.skin(withNormals);
  }

  /** The attached anim at a time in seconds (looping by default), interpolated as the engine does. */
  poseTime(seconds: number, loop = true, withNormals = true): FrameBlend {
    const blend = frameAtTime(this.requireAnim().anim, seconds, loop);
    this.poseBlend(blend.frame1, blend.frame2, blend.t, withNormals);
    return blend;
  }

  /** Give every buffer back to the backend. */
  dispose(): void {
    this.releaseAnim();
    if (this.batch) {
      this.backend.release(this.batch.indices);
      this.backend.release(this.batch.out);
      this.batch = null;
    }
    if (this.tangentBuffers) {
      this.backend.release(this.tangentBuffers.weights);
      this.backend.release(this.tangentBuffers.out);
      this.tangentBuffers = null;
    }
    for (const buf of [this.parents, this.bind, this.localA, this.localB, this.local, this.object, this.matrices, this.groupSizes, this.joints, this.weights, this.normalWeights, this.outPositions, this.outNormals, ...(this.dest ? [this.dest] : [])]) {
      this.backend.release(buf);
    }
  }

  /**
   * Pose and skin several frames of the attached anim in one call (one boundary crossing for WASM). Returns
   * frame i's positions at [i · vertexCount · 3, (i + 1) · vertexCount · 3), in this poser's output order. The
   * array is a view on a batch buffer: valid until the next `poseFrames` call (a larger batch re-allocates)
   * or, for WASM, until the module's memory grows; copy what you keep. `jointMatrices` end at the last frame.
   */
  poseFrames(frames: ArrayLike<number>): Float32Array {
    const ab = this.requireAnim();
    for (let i = 0; i < frames.length; i++) this.checkFrame(ab.anim, frames[i]);
    const b = this.backend;
    const need = frames.length * this.vertexCount * 3;
    if (!this.batch || this.batch.indices.length < frames.length || this.batch.out.length < need) {
      if (this.batch) {
        b.release(this.batch.indices);
        b.release(this.batch.out);
      }
      this.batch = { indices: b.u32(Math.max(1, frames.length)), out: b.f32(Math.max(3, need)) };
    }
    const { indices, out } = this.batch;
    const idx = indices.view;
    for (let i = 0; i < frames.length; i++) idx[i] = frames[i];
    b.skinFrames(
      { parents: this.parents, flags: ab.flags, startIndex: ab.startIndex, baseframe: ab.baseframe, frames: ab.frames, componentCount: ab.anim.componentCount },
      { groupSizes: this.groupSizes, joints: this.joints, weights: this.weights, dest: this.dest },
      { ptr: indices.ptr, length: frames.length, get view() { return indices.view.subarray(0, frames.length); } },
      { local: this.local, object: this.object, matrices: this.matrices },
      { ptr: out.ptr, length: need, get view() { return out.view.subarray(0, need); } },
    );
    return out.view.subarray(0, need);
  }

  /** Skin the vertices with the current `jointMatrices` (the last pose). */
  skin(withNormals = true): void {
    const b = this.backend;
    b.skinPositions(this.matrices, this.groupSizes, this.joints, this.weights, this.dest, this.outPositions);
    if (!withNormals) return;
    b.skinNormals(this.matrices, this.groupSizes, this.joints, this.normalWeights, this.dest, this.outNormals);
    if (this.tangentBuffers) b.skinNormals(this.matrices, this.groupSizes, this.joints, this.tangentBuffers.weights, this.dest, this.tangentBuffers.out);
  }

  private requireAnim(): AttachedAnim {
    if (!this.animBuffers) throw new Error('no anim attached: call setAnim(anim) first');
    return this.animBuffers;
  }

  private checkFrame(anim: Md5Anim, frame: number): void {
    if (!Number.isInteger(frame) || frame < 0 || frame >= anim.frameCount) {
      throw new RangeError(`frame ${frame} is outside 0..${anim.frameCount - 1}`);
    }
  }

  private releaseAnim(): void {
    const ab = this.animBuffers;
    if (!ab) return;
    for (const buf of [ab.flags, ab.startIndex, ab.baseframe, ab.frames]) this.backend.release(buf);
    this.animBuffers = null;
  }
}

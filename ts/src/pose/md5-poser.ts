/**
 * Poses and skins an md5mesh, in its bind pose or by an md5anim, on one backend. Every buffer the kernels use is
 * allocated, and every job built, once here (and an anim's in `setAnim`): a pose runs prepared jobs, nothing is
 * allocated per frame. Outputs are read from `positions` and `normals`, which stay valid until the next pose call
 * on this poser (or until another allocation grows the WASM memory: read them again after any call rather than
 * keeping the typed array).
 *
 * Every `pose*` method returns the poser itself (like `Md2Poser`, `Md3Poser` and `Md3Player`); what was posed is
 * in `blend`. After `dispose()` every call throws.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import type { Md5Anim, Md5Mesh } from '../base/model.js';
import { animMeshVerdict, type AnimMeshFiles } from './anim-mesh-match.js';
import { disposedError, type ComposeJob, type F32, type I32, type InterpolateJob, type KernelBuffer, type LocalToObjectJob, type MatricesJob, type PoseBackend, type ScaleMatricesJob, type SkinJob, type Typed, type U32 } from '../kernels/backend.js';
import { MATRIX_STRIDE, POSE_STRIDE, WEIGHT_STRIDE } from '../kernels/layout.js';
import { BAKE_RUN_FRAMES, bakeInRuns } from './bake-runs.js';
import { localPoseUnder } from './md5-hierarchy.js';
import { bindPose, buildSkinStream, buildTangentStream, type Md5SkinStream } from './skin-stream.js';
import { frameAtTime, type FrameBlend } from './timing.js';

export type { AnimMeshFiles };

/**
 * Throws ANIM_MESH_MISMATCH (naming the anim's file and the joint) unless the anim can play on the mesh as Daemon
 * plays it (`pose/anim-mesh-match.ts`: same joint count, names equal ignoring case); returns an
 * `ENGINE_LIMIT` warning per accepted difference (a parent, a name's letter case), which Doom 3 refuses.
 */
export function assertAnimMatchesMesh(mesh: Md5Mesh, anim: Md5Anim, files: AnimMeshFiles = {}): ParseWarning[] {
  const verdict = animMeshVerdict(mesh.joints, anim, files);
  if (verdict.refusal !== null) throw new ModelParseError(ErrorCode.AnimMeshMismatch, verdict.refusal, { offset: 0, where: verdict.where });
  return verdict.warnings;
}

/** The error for a `validateParents` / `validateSkin` result (first bad joint, first bad weight, −2), or null when both are fine. */
export function skinError(mesh: Md5Mesh, stream: Md5SkinStream, badParent: number, badWeight: number): ModelParseError | null {
  if (badParent >= 0) return new ModelParseError(ErrorCode.IndexOutOfRange, `joint ${badParent} has parent ${mesh.joints.parents[badParent]}, not below it`, { offset: 0 });
  if (badWeight === -1) return null;
  return new ModelParseError(ErrorCode.IndexOutOfRange, badWeight === -2 ? 'skin stream is inconsistent' : `skin weight ${badWeight} names joint ${stream.joints[badWeight]} of ${mesh.joints.count}`, { offset: 0 });
}

/** The error for a `validateAnim` result other than −1 (the first bad joint, or −2). */
export function animError(anim: Md5Anim, bad: number): ModelParseError {
  return new ModelParseError(ErrorCode.BadCount, bad === -2 ? "the anim's per-joint arrays disagree with its joint count" : `joint ${bad}'s animated components run past the ${anim.componentCount} per frame`, { offset: 0 });
}

interface AttachedAnim {
  anim: Md5Anim;
  buffers: KernelBuffer<Typed>[];
  composeA: ComposeJob;
  composeB: ComposeJob;
  compose: ComposeJob;
  flagsBuf: ComposeJob['flags'];
  startBuf: ComposeJob['startIndex'];
  baseBuf: F32;
  framesBuf: F32;
}

export interface Md5PoserOptions {
  /**
   * `'file'` (default) writes outputs in the file's vertex order (meshes back to back); `'grouped'` in the skinning
   * stream's order (vertices grouped by weight count — no scatter); draw those with `groupedTriangles(mesh, poser.stream)`.
   */
  order?: 'file' | 'grouped';
  /** A skin stream built before (`buildSkinStream`), shared by posers of one mesh. */
  stream?: Md5SkinStream;
  /** Also skin bind tangents (along +u) with the normals: `tangents`, `tangentSigns`. */
  tangents?: boolean;
}

export class Md5Poser {
  readonly backend: PoseBackend;
  readonly mesh: Md5Mesh;
  readonly stream: Md5SkinStream;
  readonly jointCount: number;
  readonly vertexCount: number;
  readonly order: 'file' | 'grouped';
  /** Per output vertex, ±1: the bitangent's handedness (see `tangents`); null without tangents. */
  readonly tangentSigns: Float32Array | null = null;

  private readonly owned: KernelBuffer<Typed>[] = [];
  private readonly parents: I32;
  private readonly bind: F32;
  private readonly localA: F32;
  private readonly localB: F32;
  private readonly local: F32;
  private readonly object: F32;
  /** `meshLocalPose`'s output when the anim's parents differ (plain memory: no kernel reads it), made on first use. */
  private reparented: Float32Array | null = null;
  private readonly matrices: F32;
  private readonly skinBuffers: { groupSizes: U32; joints: U32; weights: F32; dest: U32 | null };
  private readonly outPositions: F32;
  private readonly outNormals: F32;
  private readonly outTangents: F32 | null = null;
  // Jobs, built once: running one is a kernel call on buffers that never move.
  private readonly bindMatricesJob: MatricesJob;
  private readonly interpolateJob: InterpolateJob;
  private readonly toObjectJob: LocalToObjectJob;
  private readonly matricesJob: MatricesJob;
  private readonly skinPositionsJob: SkinJob;
  private readonly skinNormalsJob: SkinJob;
  private readonly skinTangentsJob: SkinJob | null = null;
  private attached: AttachedAnim | null = null;
  /** The attached anim's per-frame joint scales (`setScales`: q2pro's `.md5scale`), in the backend; null: none. */
  private scaling: { values: Float32Array; scales: F32; scaled: F32; job: ScaleMatricesJob; positions: SkinJob; frame: number } | null = null;
  /** `skinWithScales`'s buffers, made on its first call (one scale per joint, the scaled matrices). */
  private held: { scales: F32; job: ScaleMatricesJob; positions: SkinJob } | null = null;
  private attachedWarnings: ParseWarning[] = [];
  private batch: { indices: U32; out: F32; matrices: F32 } | null = null;
  /** What the last pose showed (one object, updated in place: no allocation per pose); null: the bind pose. */
  private readonly shown: FrameBlend = { frame1: 0, frame2: 0, t: 0 };
  private boundPose = true;
  private disposed = false;

  constructor(backend: PoseBackend, mesh: Md5Mesh, options: Md5PoserOptions = {}) {
    const stream = options.stream ?? buildSkinStream(mesh);
    this.order = options.order ?? 'file';
    this.backend = backend;
    this.mesh = mesh;
    this.stream = stream;
    const n = (this.jointCount = mesh.joints.count);
    this.vertexCount = stream.vertexCount;
    const m = backend.memory;
    const own = <B extends KernelBuffer<Typed>>(b: B): B => (this.owned.push(b), b);
    this.parents = own(m.i32(n));
    this.bind = own(m.f32(n * POSE_STRIDE));
    this.localA = own(m.f32(n * POSE_STRIDE));
    this.localB = own(m.f32(n * POSE_STRIDE));
    this.local = own(m.f32(n * POSE_STRIDE));
    this.object = own(m.f32(n * POSE_STRIDE));
    this.matrices = own(m.f32(n * MATRIX_STRIDE));
    const sk = (this.skinBuffers = {
      groupSizes: own(m.u32(stream.groupSizes.length)),
      joints: own(m.u32(stream.weightTotal)),
      weights: own(m.f32(stream.weightTotal * WEIGHT_STRIDE)),
      dest: this.order === 'file' ? own(m.u32(stream.vertexCount)) : null,
    });
    const normalWeights = own(m.f32(stream.weightTotal * WEIGHT_STRIDE));
    this.outPositions = own(m.f32(stream.vertexCount * 3));
    this.outNormals = own(m.f32(stream.vertexCount * 3));
    const tangents = options.tangents ? buildTangentStream(mesh, stream) : null;
    const tangentWeights = tangents ? own(m.f32(stream.weightTotal * WEIGHT_STRIDE)) : null;
    if (tangents) {
      this.outTangents = own(m.f32(stream.vertexCount * 3));
      const signs = tangents.tangentSigns;
      this.tangentSigns = this.order === 'file' ? signs : signs.map((_, i) => signs[stream.streamToFile[i]]);
    }
    // All allocation is done: write the inputs once (views read after the last allocation).
    this.parents.view.set(mesh.joints.parents);
    this.bind.view.set(bindPose(mesh));
    sk.groupSizes.view.set(stream.groupSizes);
    sk.dest?.view.set(stream.streamToFile);
    sk.joints.view.set(stream.joints);
    sk.weights.view.set(stream.weights);
    normalWeights.view.set(stream.normalWeights);
    if (tangents) tangentWeights!.view.set(tangents.tangentWeights);

    this.bindMatricesJob = { object: this.bind, out: this.matrices };
    this.interpolateJob = { a: this.localA, b: this.localB, t: 0, out: this.local };
    this.toObjectJob = { parents: this.parents, local: this.local, out: this.object };
    this.matricesJob = { object: this.object, out: this.matrices };
    this.skinPositionsJob = { matrices: this.matrices, ...sk, out: this.outPositions };
    this.skinNormalsJob = { matrices: this.matrices, ...sk, weights: normalWeights, out: this.outNormals };
    if (tangents) this.skinTangentsJob = { matrices: this.matrices, ...sk, weights: tangentWeights!, out: this.outTangents! };

    const k = backend.kernels;
    const badParent = k.validateParents({ parents: this.parents });
    const badWeight = badParent >= 0 ? -1 : k.validateSkin({ jointCount: n, ...sk });
    const error = skinError(mesh, stream, badParent, badWeight);
    if (error) {
      this.dispose();
      throw error;
    }
  }

  /** Skinned positions, 3 floats per vertex, meshes one after another (see `stream.meshVertexStart`). */
  get positions(): Float32Array {
    return this.alive().outPositions.view;
  }
  /** Skinned unit normals, 3 floats per vertex. */
  get normals(): Float32Array {
    return this.alive().outNormals.view;
  }
  /**
   * Skinned unit tangents (along +u), 3 floats per vertex, when the poser was made with `{ tangents: true }`
   * (skinned together with the normals); null otherwise. Bitangent = tangentSigns[v] · (normal × tangent).
   */
  get tangents(): Float32Array | null {
    return this.alive().outTangents?.view ?? null;
  }
  /** Joint matrices of the last pose: 16 floats per joint, a row-major 3×4 (rows `m·0 m·1 m·2 t·`) then `0 0 0 0`. */
  get jointMatrices(): Float32Array {
    return this.alive().matrices.view;
  }
  get anim(): Md5Anim | null {
    return this.alive().attached?.anim ?? null;
  }
  /** What `setAnim` accepted that Doom 3 would refuse (ENGINE_LIMIT: a parent, a name's letter case); [] otherwise. */
  get animWarnings(): readonly ParseWarning[] {
    return this.attachedWarnings;
  }
  /** What the last pose showed: two frames and frame2's weight (frame1 = frame2, t = 0 for one frame); null for the bind pose. */
  get blend(): FrameBlend | null {
    return this.alive().boundPose ? null : this.shown;
  }

  private show(frame1: number, frame2: number, t: number): void {
    this.shown.frame1 = frame1;
    this.shown.frame2 = frame2;
    this.shown.t = t;
    this.boundPose = false;
  }

  /** Attach an anim (its frames are copied into the backend once), or detach with null. */
  setAnim(anim: Md5Anim | null): this {
    this.alive();
    this.releaseAnim();
    if (!anim) return this;
    const warnings = assertAnimMatchesMesh(this.mesh, anim);
    // Daemon composes with the anim's parents (RE_BuildSkeleton, CG_TransformSkeleton); the bind pose needs none.
    this.parents.view.set(anim.parents);
    const m = this.backend.memory;
    const flags = m.u8(anim.jointCount);
    const startIndex = m.u32(anim.jointCount);
    const baseframe = m.f32(anim.baseframe.length);
    const frames = m.f32(anim.frames.length);
    flags.view.set(anim.flags);
    startIndex.view.set(anim.startIndices);
    baseframe.view.set(anim.baseframe);
    frames.view.set(anim.frames);
    const base = { flags, startIndex, baseframe, frames, componentCount: anim.componentCount, frame: 0 };
    this.attached = {
      anim,
      buffers: [flags, startIndex, baseframe, frames],
      composeA: { ...base, out: this.localA },
      composeB: { ...base, out: this.localB },
      compose: { ...base, out: this.local },
      flagsBuf: flags,
      startBuf: startIndex,
      baseBuf: baseframe,
      framesBuf: frames,
    };
    const k = this.backend.kernels;
    const badParent = k.validateParents({ parents: this.parents });
    if (badParent >= 0) {
      this.releaseAnim();
      throw new ModelParseError(ErrorCode.IndexOutOfRange, `joint ${badParent} has parent ${anim.parents[badParent]} in the anim, not below it`, { offset: 0 });
    }
    const bad = k.validateAnim({ flags, startIndex, baseframe, componentCount: anim.componentCount });
    if (bad !== -1) {
      this.releaseAnim();
      throw animError(anim, bad);
    }
    this.attachedWarnings = warnings;
    return this;
  }

  /** The mesh's own joints (bind pose). */
  poseBind(withNormals = true): this {
    this.alive();
    this.backend.kernels.poseMatrices(this.bindMatricesJob);
    this.boundPose = true;
    return this.skin(withNormals);
  }

  /** One frame of the attached anim, exactly (no interpolation). */
  poseFrame(frame: number, withNormals = true): this {
    return this.poseJoints(frame).skin(withNormals);
  }

  /** The skeleton only (compose → object space → `jointMatrices`), no skinning; `skin()` can follow. */
  poseJoints(frame: number): this {
    const ab = this.requireAnim();
    this.checkFrame(ab.anim, frame);
    const k = this.backend.kernels;
    ab.compose.frame = frame;
    k.composeFrame(ab.compose);
    k.localToObject(this.toObjectJob);
    k.poseMatrices(this.matricesJob);
    this.scaleFor(frame);
    this.show(frame, frame, 0);
    return this;
  }

  /**
   * Frame `frame` of the attached anim composed into local joint poses (8 floats per joint, `tx ty tz 0 qx qy qz
   * qw`, relative to the joint's parent in the anim): what the engine blends, and what a glTF animation channel
   * holds when the anim's hierarchy is the mesh's. A view, valid until the next call on this poser.
   */
  localPose(frame: number): Float32Array {
    const ab = this.requireAnim();
    this.checkFrame(ab.anim, frame);
    ab.compose.frame = frame;
    this.backend.kernels.composeFrame(ab.compose);
    return this.local.view;
  }

  /**
   * Frame `frame` of the attached anim as local joint poses under the mesh's hierarchy (same layout as `localPose`):
   * `localPose` itself when the anim's parents are the mesh's, else the frame's object-space pose re-expressed under
   * the mesh's parents (`md5-hierarchy.ts`: an anim Daemon plays with other parents). What an exporter whose
   * skeleton is the mesh's (glTF nodes, a renderer's bones, IQM joints) keys. A view, valid until the next call.
   */
  meshLocalPose(frame: number): Float32Array {
    const mp = this.mesh.joints.parents, ap = this.requireAnim().anim.parents;
    for (let j = 0; j < mp.length; j++) if (mp[j] !== ap[j]) return localPoseUnder(mp, this.objectPose(frame), (this.reparented ??= new Float32Array(mp.length * POSE_STRIDE)));
    return this.localPose(frame);
  }

  /**
   * Frame `frame` of the attached anim in object space (8 floats per joint, `tx ty tz 0 qx qy qz qw`): the local
   * poses composed through the anim's hierarchy. A view, valid until the next call on this poser.
   */
  objectPose(frame: number): Float32Array {
    this.localPose(frame);
    this.backend.kernels.localToObject(this.toObjectJob);
    return this.object.view;
  }

  /** Two frames blended in local space (lerp translations, slerp rotations), then skinned. */
  poseBlend(frame1: number, frame2: number, t: number, withNormals = true): this {
    const ab = this.requireAnim();
    this.checkFrame(ab.anim, frame1);
    this.checkFrame(ab.anim, frame2);
    const k = this.backend.kernels;
    ab.composeA.frame = frame1;
    ab.composeB.frame = frame2;
    this.interpolateJob.t = t;
    k.composeFrame(ab.composeA);
    k.composeFrame(ab.composeB);
    k.interpolateLocal(this.interpolateJob);
    k.localToObject(this.toObjectJob);
    k.poseMatrices(this.matricesJob);
    // q2pro (lerp_alias_skeleton) takes the new frame's scale, not a blend of the two
    this.scaleFor(frame2);
    this.show(frame1, frame2, t);
    return this.skin(withNormals);
  }

  /**
   * The attached anim at a time in seconds (looping by default), interpolated as the engine does; see `blend`. A
   * time that is NaN or infinite is a RangeError (pose/timing.ts).
   */
  poseTime(seconds: number, loop = true, withNormals = true): this {
    const b = frameAtTime(this.requireAnim().anim, seconds, loop);
    return this.poseBlend(b.frame1, b.frame2, b.t, withNormals);
  }

  /**
   * Per-frame joint scales for the attached anim (frameCount × jointCount floats, frame-major; null to drop them):
   * q2pro's `.md5scale` (formats/md5/md5scale.ts). Each pose then skins positions with joint j's axes times its
   * scale at the frame shown (the blend's second frame): `joint + scale · R · weight`, so 0 hides what only that joint
   * holds and its children stay as they are. Normals take the unscaled axes, as q2pro's do. Kept until the next
   * `setAnim` or `setScales`.
   */
  setScales(scales: Float32Array | null): this {
    const ab = this.requireAnim();
    this.releaseScales();
    if (!scales) return this;
    const n = this.jointCount;
    if (scales.length !== ab.anim.frameCount * n) throw new RangeError(`setScales: ${scales.length} scales for ${ab.anim.frameCount} frames × ${n} joints`);
    const m = this.backend.memory;
    const buf = m.f32(n);
    const scaled = m.f32(n * MATRIX_STRIDE);
    this.scaling = {
      values: scales,
      scales: buf,
      scaled,
      job: { matrices: this.matrices, scales: buf, out: scaled },
      positions: { ...this.skinPositionsJob, matrices: scaled },
      frame: -1,
    };
    return this;
  }

  /** The scaled matrices of `frame` for the positions, when the anim has scales (see `setScales`). */
  private scaleFor(frame: number): void {
    const sc = this.scaling;
    if (!sc) return;
    const n = this.jointCount;
    sc.scales.view.set(sc.values.subarray(frame * n, frame * n + n));
    this.backend.kernels.scaleMatrices(sc.job);
    sc.frame = frame;
  }

  private releaseScales(): void {
    const sc = this.scaling;
    if (!sc) return;
    this.scaling = null;
    this.backend.memory.release(sc.scales);
    this.backend.memory.release(sc.scaled);
  }

  /**
   * Skin the vertices with the current `jointMatrices`, each joint's weights' offsets scaled by `scales[j]` (one per
   * joint, 1 for none): q2pro's `.md5scale` at a moment the caller holds rather than at an anim frame (three's exact
   * skinning reads them off the view's `<joint>_md5scale` bones, formats/md5/view.ts). The same `scaleMatrices`
   * kernel as `setScales`; normals take the unscaled axes, as q2pro's do.
   */
  skinWithScales(scales: ArrayLike<number>, withNormals = true): this {
    this.alive();
    const n = this.jointCount;
    if (scales.length !== n) throw new RangeError(`skinWithScales: ${scales.length} scales for ${n} joints`);
    if (!this.held) {
      const m = this.backend.memory;
      const buf = m.f32(n);
      const scaled = m.f32(n * MATRIX_STRIDE);
      this.owned.push(buf, scaled);
      this.held = { scales: buf, job: { matrices: this.matrices, scales: buf, out: scaled }, positions: { ...this.skinPositionsJob, matrices: scaled } };
    }
    const h = this.held;
    h.scales.view.set(scales);
    const k = this.backend.kernels;
    k.scaleMatrices(h.job);
    k.skinPositions(h.positions);
    if (!withNormals) return this;
    k.skinNormals(this.skinNormalsJob);
    if (this.skinTangentsJob) k.skinNormals(this.skinTangentsJob);
    return this;
  }

  /** Skin the vertices with the current `jointMatrices` (the last pose). */
  skin(withNormals = true): this {
    this.alive();
    const k = this.backend.kernels;
    k.skinPositions(this.scaling && !this.boundPose ? this.scaling.positions : this.skinPositionsJob);
    if (!withNormals) return this;
    k.skinNormals(this.skinNormalsJob);
    if (this.skinTangentsJob) k.skinNormals(this.skinTangentsJob);
    return this;
  }

  /**
   * Pose and skin several frames of the attached anim in one call (one boundary crossing for WASM): a bake, or a
   * crowd of instances on different frames. Returns frame i's positions at [i · vertexCount · 3, (i + 1) ·
   * vertexCount · 3), in this poser's output order. The array is a view on a batch buffer: valid until the next
   * `bakeFrames` call (a larger batch re-allocates) or, for WASM, until the module's memory grows; copy what you
   * keep. `jointMatrices` end at the last frame.
   */
  bakeFrames(frames: ArrayLike<number>): Float32Array {
    const ab = this.requireAnim();
    for (let i = 0; i < frames.length; i++) this.checkFrame(ab.anim, frames[i]);
    const m = this.backend.memory;
    const need = frames.length * this.vertexCount * 3;
    if (!this.batch || this.batch.indices.length < frames.length || this.batch.out.length < need) {
      if (this.batch) this.releaseBatch();
      // Matrices for up to BAKE_RUN_FRAMES frames at once (64 bytes a joint each): the kernel poses them, then skins
      // the stream block by block for all of them, reading it from memory once per run instead of once per frame.
      const poses = Math.max(1, Math.min(frames.length, BAKE_RUN_FRAMES));
      this.batch = { indices: m.u32(Math.max(1, frames.length)), out: m.f32(Math.max(3, need)), matrices: m.f32(Math.max(1, poses * this.matrices.length)) };
    }
    const { indices, out, matrices } = this.batch;
    if (this.scaling) {
      // skin_frames knows no scales: each frame posed and skinned alone, through the same kernels
      for (let i = 0; i < frames.length; i++) {
        this.poseFrame(frames[i], false);
        out.view.set(this.outPositions.view, i * this.vertexCount * 3);
      }
      return out.view.subarray(0, need);
    }
    const idx = indices.view;
    for (let i = 0; i < frames.length; i++) idx[i] = frames[i];
    this.backend.kernels.skinFrames({
      anim: { parents: this.parents, flags: ab.flagsBuf, startIndex: ab.startBuf, baseframe: ab.baseBuf, frames: ab.framesBuf, componentCount: ab.anim.componentCount },
      skin: this.skinBuffers,
      frameIndices: indices,
      frameCount: frames.length,
      scratch: { local: this.local, object: this.object, matrices },
      out,
    });
    if (frames.length > 0) this.show(frames[frames.length - 1], frames[frames.length - 1], 0);
    return out.view.subarray(0, need);
  }

  /**
   * Pose and skin `frames` of the attached anim into memory the caller owns: frame i's positions at
   * `into[offset + i · vertexCount · 3 ..]`, the same floats as `bakeFrames`, in this poser's output order. The
   * frames go through `bakeFrames` in runs of up to 16 (its batch buffer holds one run, at most 64 MB, not the whole
   * bake), each run copied out. Returns `into`. `jointMatrices` end at the last frame.
   */
  bakeFramesInto(frames: ArrayLike<number>, into: Float32Array, offset = 0): Float32Array {
    const ab = this.requireAnim();
    for (let i = 0; i < frames.length; i++) this.checkFrame(ab.anim, frames[i]);
    return bakeInRuns(frames, this.vertexCount * 3, into, offset, (run) => this.bakeFrames(run));
  }

  /** Give every buffer back to the backend. Every later call on this poser throws. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.backend.disposed) return; // the backend freed everything already
    this.releaseAnim();
    const m = this.backend.memory;
    if (this.batch) this.releaseBatch();
    for (const buf of this.owned) m.release(buf);
  }

  private releaseBatch(): void {
    const m = this.backend.memory;
    m.release(this.batch!.indices);
    m.release(this.batch!.out);
    m.release(this.batch!.matrices);
    this.batch = null;
  }

  private alive(): this {
    if (this.disposed) throw disposedError('this Md5Poser');
    if (this.backend.disposed) throw disposedError(`the ${this.backend.name} backend of this Md5Poser`);
    return this;
  }

  private requireAnim(): AttachedAnim {
    this.alive();
    if (!this.attached) throw new Error('no anim attached: call setAnim(anim) first');
    return this.attached;
  }

  private checkFrame(anim: Md5Anim, frame: number): void {
    if (!Number.isInteger(frame) || frame < 0 || frame >= anim.frameCount) {
      throw new RangeError(`frame ${frame} is outside 0..${anim.frameCount - 1}`);
    }
  }

  private releaseAnim(): void {
    this.releaseScales();
    const ab = this.attached;
    if (!ab) return;
    for (const buf of ab.buffers) this.backend.memory.release(buf);
    this.attached = null;
    this.attachedWarnings = [];
  }
}

/**
 * Poses and skins an IQM mesh on one backend: its own frames, or those of an animation-only IQM played on it (Red
 * Eclipse's player files, paired as Tesseract pairs them: one pose per joint). Every buffer the kernels use is
 * allocated, and every job built, once (an animation's in `setAnimation`): a pose is two kernel calls — `iqmPose`
 * (ioquake3's ComputePoseMats over the two frames) and `lbsSkin` (RB_IQMSurfaceAnim's blend) — on buffers that never
 * move, and allocates nothing.
 *
 * Outputs (`positions`, `normals`, `tangents`: the file's vertices, meshes back to back, 3 / 3 / 4 floats each) stay
 * valid until the next pose call; read them again after any call (WASM memory growth re-creates views). Every
 * `pose*` method returns the poser; what was posed is in `blend` (null: the bind pose). After `dispose()` every call
 * throws.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import type { IqmAnim, IqmModel } from '../base/model.js';
import { disposedError, type F32, type IqmBakeSkin, type IqmPoseJob, type KernelBuffer, type LbsSkinJob, type PoseBackend, type Typed, type U32 } from '../kernels/backend.js';
import { IQM_BIND_STRIDE, IQM_CHANNELS, LBS_MATRIX_STRIDE } from '../kernels/layout.js';
import { iqmAcceptsCompanion, IQM_DEFAULT_FPS } from './iqm-anim-match.js';
import { bakeInRuns } from './bake-runs.js';
import { clipBlend, type FrameBlend } from './timing.js';


export interface IqmPoserOptions {
  /** Also skin the tangent array (when the file has one): `tangents`. */
  tangents?: boolean;
  /** Skip normals (positions only). */
  normals?: boolean;
}

interface AttachedAnimation {
  model: IqmModel;
  buffers: KernelBuffer<Typed>[];
  job: IqmPoseJob;
}

/** The error for an animation that cannot play on `mesh` (ANIM_MESH_MISMATCH), or null. */
export function iqmAnimationError(mesh: IqmModel, animation: IqmModel, warnings: ParseWarning[] = []): ModelParseError | null {
  const why = animation === mesh ? (mesh.poses.count === mesh.joints.count ? null : `${mesh.poses.count} poses for ${mesh.joints.count} joints`) : iqmAcceptsCompanion(mesh, animation, 'iqm', warnings);
  return why === null ? null : new ModelParseError(ErrorCode.AnimMeshMismatch, why, { offset: 0 });
}

/**
 * The error for a skin the kernels refuse (INDEX_OUT_OF_RANGE), or null: `badParent` from `validateParents`, `badIndex`
 * from `validateLbs` (−1 when valid). The poser and the bake pool's shared memory check the same things so.
 */
export function iqmSkinError(mesh: IqmModel, badParent: number, badIndex: number): ModelParseError | null {
  if (badParent >= 0) return new ModelParseError(ErrorCode.IndexOutOfRange, `joint ${badParent} has parent ${mesh.joints.parents[badParent]}, not below it`, { offset: 0 });
  if (badIndex === -1) return null;
  const why = badIndex === -2 ? 'blend weights shorter than the blend indexes' : `vertex ${badIndex >> 2} blend index ${mesh.blendIndexes![badIndex]} names a joint past the ${mesh.joints.count}`;
  return new ModelParseError(ErrorCode.IndexOutOfRange, why, { offset: 0 });
}

/** Whether `mesh` is skinned: joints, vertices, blend indexes and weights (else it stays in its bind pose). */
export const iqmSkinned = (mesh: IqmModel): boolean => mesh.joints.count > 0 && (mesh.positions?.length ?? 0) > 0 && mesh.blendIndexes !== null && mesh.blendWeights !== null;

/** Byte weights as the floats b / 255 the kernel's own division gives; float weights as they are. */
export const iqmWeightsF32 = (w: Uint8Array | Float32Array): Float32Array => (w instanceof Float32Array ? w : Float32Array.from(w, (b) => b / 255));

export class IqmPoser {
  readonly backend: PoseBackend;
  readonly mesh: IqmModel;
  readonly vertexCount: number;
  readonly jointCount: number;
  /** Whether the mesh is skinned (joints, blend indexes and weights); a mesh that is not stays in its bind pose. */
  readonly skinned: boolean;

  private readonly owned: KernelBuffer<Typed>[] = [];
  private readonly outPositions: F32;
  private readonly outNormals: F32 | null;
  private readonly outTangents: F32 | null;
  private readonly inPositions: F32;
  private readonly inNormals: F32 | null;
  private readonly inTangents: F32 | null;
  private readonly matrices: F32;
  private readonly skinJob: LbsSkinJob | null = null;
  private readonly shared: Pick<IqmPoseJob, 'parents' | 'bind' | 'invBind' | 'scratch' | 'out'> | null = null;
  private attached: AttachedAnimation | null = null;
  /** `bakeFrames`' frame indices and output (grown as a bake needs). */
  private batch: { indices: U32; out: F32 } | null = null;
  private readonly shown: FrameBlend = { frame1: 0, frame2: 0, t: 0 };
  private boundPose = true;
  private disposed = false;

  constructor(backend: PoseBackend, mesh: IqmModel, options: IqmPoserOptions = {}) {
    this.backend = backend;
    this.mesh = mesh;
    const V = (this.vertexCount = mesh.positions ? mesh.positions.length / 3 : 0);
    const J = (this.jointCount = mesh.joints.count);
    const m = backend.memory;
    const own = <B extends KernelBuffer<Typed>>(b: B): B => (this.owned.push(b), b);
    const withNormals = options.normals !== false && mesh.normals !== null;
    const withTangents = options.tangents === true && mesh.tangents !== null;
    this.skinned = iqmSkinned(mesh);
    this.inPositions = own(m.f32(V * 3));
    this.inNormals = withNormals ? own(m.f32(V * 3)) : null;
    this.inTangents = withTangents ? own(m.f32(V * 4)) : null;
    this.outPositions = own(m.f32(V * 3));
    this.outNormals = withNormals ? own(m.f32(V * 3)) : null;
    this.outTangents = withTangents ? own(m.f32(V * 4)) : null;
    this.matrices = own(m.f32(Math.max(1, J) * LBS_MATRIX_STRIDE));
    let indices = null, weightsF32 = null, parents = null, bind = null, invBind = null, scratch = null;
    let translate = null, rotate = null, scale = null;
    if (this.skinned) {
      indices = own(m.u8(V * 4));
      // Byte weights are handed to the kernel as floats b / 255, made once here: the same floats the kernel's own
      // division gives (every byte value is checked in ts/test/iqm/kernel-parity.test.ts), without a division and
      // a widening per vertex per pose.
      weightsF32 = own(m.f32(V * 4));
      parents = own(m.i32(J));
      bind = own(m.f32(J * IQM_BIND_STRIDE));
      invBind = own(m.f32(J * IQM_BIND_STRIDE));
      scratch = own(m.f32(2 * J * IQM_CHANNELS));
      translate = own(m.f32(J * 3));
      rotate = own(m.f32(J * 4));
      scale = own(m.f32(J * 3));
    }
    // All allocation is done: write the inputs once.
    if (mesh.positions) this.inPositions.view.set(mesh.positions);
    if (this.inNormals) this.inNormals.view.set(mesh.normals!);
    if (this.inTangents) this.inTangents.view.set(mesh.tangents!);
    if (this.skinned) {
      indices!.view.set(mesh.blendIndexes!);
      weightsF32!.view.set(iqmWeightsF32(mesh.blendWeights!));
      parents!.view.set(mesh.joints.parents);
      translate!.view.set(mesh.joints.translate);
      rotate!.view.set(mesh.joints.rotate);
      scale!.view.set(mesh.joints.scale);
      const k = backend.kernels;
      const bad = k.validateParents({ parents: parents! });
      const error = iqmSkinError(mesh, bad, bad >= 0 ? -1 : k.validateLbs({ jointCount: J, indices: indices!, weightsU8: null, weightsF32 }));
      if (error) throw error;
      k.iqmBind({ parents: parents!, translate: translate!, rotate: rotate!, scale: scale!, bind: bind!, invBind: invBind! });
      for (const b of [translate!, rotate!, scale!]) this.release(b);
      this.shared = { parents: parents!, bind: bind!, invBind: invBind!, scratch: scratch!, out: this.matrices };
      this.skinJob = {
        matrices: this.matrices,
        positions: this.inPositions,
        normals: this.inNormals,
        tangents: this.inTangents,
        indices: indices!,
        weightsU8: null,
        weightsF32,
        outPositions: this.outPositions,
        outNormals: this.outNormals,
        outTangents: this.outTangents,
      };
    }
    this.bindPose();
    if (mesh.frameCount > 0 && mesh.poses.count === J && J > 0) this.setAnimation(mesh);
  }

  /** Skinned positions: 3 floats per vertex (the file's vertex order). */
  get positions(): Float32Array {
    return this.alive().outPositions.view;
  }
  /** Skinned unit normals (3 per vertex), or an empty array when the file has none. */
  get normals(): Float32Array {
    return this.alive().outNormals?.view ?? new Float32Array(0);
  }
  /** Skinned tangents (4 per vertex, w as stored), or null unless asked for and present. */
  get tangents(): Float32Array | null {
    return this.alive().outTangents?.view ?? null;
  }
  /** The last pose's skinning matrices (column-major 4×4 per joint). */
  get jointMatrices(): Float32Array {
    return this.alive().matrices.view;
  }
  /** What the last pose showed (frames of the animation file and frame2's weight); null: the bind pose. */
  get blend(): FrameBlend | null {
    this.alive();
    return this.boundPose ? null : this.shown;
  }
  /** The file whose frames play (the mesh itself, or an animation-only file), or null. */
  get animation(): IqmModel | null {
    return this.alive().attached?.model ?? null;
  }

  /**
   * Plays `animation`'s frames on this mesh (the mesh itself for its own; null detaches). Throws ANIM_MESH_MISMATCH
   * when its poses are not one per joint (Tesseract's test); a pose parent that differs is a warning, returned.
   */
  setAnimation(animation: IqmModel | null): ParseWarning[] {
    this.alive();
    const warnings: ParseWarning[] = [];
    if (this.attached) {
      for (const b of this.attached.buffers) this.release(b);
      this.attached = null;
    }
    if (animation === null) return warnings;
    const err = iqmAnimationError(this.mesh, animation, warnings);
    if (err) throw err;
    if (!this.shared) return warnings; // nothing to skin: the mesh stays in its bind pose
    const m = this.backend.memory;
    const P = animation.poses.count;
    const masks = m.u32(P), offsets = m.f32(P * IQM_CHANNELS), scales = m.f32(P * IQM_CHANNELS), frames = m.u16(animation.frames.length);
    masks.view.set(animation.poses.masks);
    offsets.view.set(animation.poses.offsets);
    scales.view.set(animation.poses.scales);
    frames.view.set(animation.frames);
    const job: IqmPoseJob = { ...this.shared, masks, offsets, scales, frames, frameCount: animation.frameCount, frameChannels: animation.frameChannels, frameA: 0, frameB: 0, t: 0 };
    this.attached = { model: animation, buffers: [masks, offsets, scales, frames], job };
    return warnings;
  }

  /** The bind pose: the file's vertices as stored (ioquake3 draws them so without poses). */
  bindPose(): this {
    this.alive();
    this.outPositions.view.set(this.inPositions.view);
    if (this.outNormals) this.outNormals.view.set(this.inNormals!.view);
    if (this.outTangents) this.outTangents.view.set(this.inTangents!.view);
    this.boundPose = true;
    return this;
  }

  /** One stored frame of the animation (0 … frameCount − 1 over all its anims). */
  poseFrame(frame: number): this {
    return this.poseBlend(frame, frame, 0);
  }

  /** Frames a → b at t (frame b's weight), as ioquake3 blends oldframe → frame by 1 − backlerp. */
  poseBlend(frameA: number, frameB: number, t: number): this {
    const a = this.requireAnimation();
    this.checkFrames(a, [frameA, frameB]);
    a.job.frameA = frameA;
    a.job.frameB = frameB;
    a.job.t = t;
    this.backend.kernels.iqmPose(a.job);
    this.backend.kernels.lbsSkin(this.skinJob!);
    this.shown.frame1 = frameA;
    this.shown.frame2 = frameB;
    this.shown.t = t;
    this.boundPose = false;
    return this;
  }

  /**
   * `seconds` into an anim of the animation file (by index or name): its frames played at its framerate (or
   * `fps`; 10 when neither gives one), looping when its IQM_LOOP flag (or `loop`) says so, else holding the last.
   */
  poseAnim(anim: number | string, seconds: number, options: { fps?: number; loop?: boolean } = {}): this {
    const a = this.requireAnimation();
    const clip: IqmAnim | undefined = typeof anim === 'number' ? a.model.anims[anim] : a.model.anims.find((x) => x.name === anim);
    if (!clip) throw new RangeError(`IqmPoser: no anim ${JSON.stringify(anim)}`);
    const last = a.model.frameCount - 1;
    const first = Math.min(clip.firstFrame, last);
    const count = Math.max(1, Math.min(clip.frameCount, a.model.frameCount - first));
    const fps = options.fps ?? (clip.framerate > 0 ? clip.framerate : IQM_DEFAULT_FPS);
    const loop = options.loop ?? clip.loop;
    const b = clipBlend({ firstFrame: first, frameCount: count, fps, loopFrames: loop ? count : 0 }, seconds, IQM_DEFAULT_FPS);
    return this.poseBlend(b.frame1, b.frame2, b.t);
  }

  /**
   * Pose and skin several frames of the animation in one call (one boundary crossing for WASM: `iqmSkinFrames`, each
   * frame as `poseFrame` poses it): a bake, or a crowd of instances on different frames. Returns frame i's positions
   * at [i · vertexCount · 3, (i + 1) · vertexCount · 3) — positions only, as `Md5Poser.bakeFrames`. The array is a
   * view on a batch buffer: valid until the next `bakeFrames` call or, for WASM, until the module's memory grows;
   * copy what you keep. `jointMatrices` end at the last frame; `positions`, `normals` and `blend` keep the last pose.
   */
  bakeFrames(frames: ArrayLike<number>): Float32Array {
    const a = this.requireAnimation();
    this.checkFrames(a, frames);
    const m = this.backend.memory;
    const need = frames.length * this.vertexCount * 3;
    if (!this.batch || this.batch.indices.length < frames.length || this.batch.out.length < need) {
      this.releaseBatch();
      this.batch = { indices: m.u32(Math.max(1, frames.length)), out: m.f32(Math.max(3, need)) };
    }
    const { indices, out } = this.batch;
    const idx = indices.view;
    for (let i = 0; i < frames.length; i++) idx[i] = frames[i];
    const s = this.skinJob!;
    const skin: IqmBakeSkin = { positions: s.positions, indices: s.indices, weightsU8: s.weightsU8, weightsF32: s.weightsF32 };
    this.backend.kernels.iqmSkinFrames({ pose: a.job, skin, frameIndices: indices, frameCount: frames.length, scratch: a.job.scratch, matrices: this.matrices, out });
    return out.view.subarray(0, need);
  }

  /**
   * `bakeFrames` into memory the caller owns: frame i's positions at `into[offset + i · vertexCount · 3 ..]`, the
   * same floats, baked in runs (`bake-runs.ts`: the batch buffer holds one run, not the whole bake). Returns `into`.
   */
  bakeFramesInto(frames: ArrayLike<number>, into: Float32Array, offset = 0): Float32Array {
    this.checkFrames(this.requireAnimation(), frames);
    return bakeInRuns(frames, this.vertexCount * 3, into, offset, (run) => this.bakeFrames(run));
  }

  /**
   * Skins the vertices by `jointMatrices` as they are now (column-major, one per joint), written by the caller — the
   * three.js adapter's exact mode writes its bones' skinning matrices there. A mesh without skinning keeps its bind pose.
   */
  skin(): this {
    this.alive();
    if (this.skinJob) this.backend.kernels.lbsSkin(this.skinJob);
    this.boundPose = false;
    return this;
  }

  /** Frees every buffer; later calls throw. Idempotent. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.backend.disposed) return;
    for (const b of this.attached?.buffers ?? []) this.backend.memory.release(b);
    for (const b of this.owned) this.backend.memory.release(b);
    this.releaseBatch();
    this.attached = null;
  }

  private requireAnimation(): AttachedAnimation {
    const a = this.alive().attached;
    if (!a) throw new RangeError('IqmPoser: no animation to pose (setAnimation first)');
    return a;
  }

  private checkFrames(a: AttachedAnimation, frames: ArrayLike<number>): void {
    const count = a.model.frameCount;
    for (let i = 0; i < frames.length; i++) {
      const f = frames[i];
      if (!(Number.isInteger(f) && f >= 0 && f < count)) throw new RangeError(`IqmPoser: frame ${f} is not one of the ${count}`);
    }
  }

  private releaseBatch(): void {
    if (!this.batch) return;
    this.backend.memory.release(this.batch.indices);
    this.backend.memory.release(this.batch.out);
    this.batch = null;
  }

  private release(b: KernelBuffer<Typed>): void {
    this.backend.memory.release(b);
    const i = this.owned.indexOf(b);
    if (i >= 0) this.owned.splice(i, 1);
  }

  private alive(): this {
    if (this.disposed) throw disposedError('this IqmPoser');
    if (this.backend.disposed) throw disposedError(`the ${this.backend.name} backend of this IqmPoser`);
    return this;
  }
}

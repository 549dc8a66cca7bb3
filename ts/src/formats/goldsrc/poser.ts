/**
 * Poses a studio model on one backend as Half-Life's StudioSetupBones does: a sequence's channels at two frames
 * (anim.ts: the engine's run-length decoding, in TS) become two local poses, which the kernels blend
 * (`interpolateLocal`: positions lerped, rotations slerped — StudioCalcBoneQuaterion's slerp between frame and
 * frame + 1), compose parents first (`localToObject`), make matrices (`poseMatrices`) and skin: every draw vertex
 * and normal bound rigidly to its one bone (`skinPositions` / `skinNormals` with one weight of 1 a vertex:
 * R_StudioDrawPoints' VectorTransform by the bone's matrix). Every buffer is allocated, and every job built, once.
 *
 * Controls (controls.ts, `setControls`): each bone controller's adjustment is added to the channels it drives before
 * the frames are blended (StudioCalcRotations); a sequence's blends are posed each at the two frames and blended by
 * the same kernel as StudioSlerpBones does (two blends by `blending[0]`; four as two pairs then by `blending[1]`;
 * Counter-Strike's nine as the grid cell the bytes pick) — the frames first, then the blends, the engine's order.
 *
 * Not applied (docs/goldsrc.md): the sequence-to-sequence blending of StudioSlerpBones (one sequence at a time).
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { disposedError, type F32, type I32, type KernelBuffer, type PoseBackend, type Typed, type U32 } from '../../kernels/backend.js';
import { MATRIX_STRIDE, POSE_STRIDE } from '../../kernels/layout.js';
import { channelsToLocal, defaultChannels, SequenceDecoder, type SequenceSource } from './anim.js';
import { blendCorners, boneAdjust, type GoldsrcControls } from './controls.js';
import type { GoldsrcDraw } from './geometry.js';
import type { GoldsrcModel } from './model.js';

export class GoldsrcPoser {
  readonly jointCount: number;
  readonly vertexCount: number;
  private readonly owned: KernelBuffer<Typed>[] = [];
  private readonly parents: I32;
  private readonly localA: F32;
  private readonly localB: F32;
  private readonly local: F32;
  /** The (up to four) blends' poses at the asked frame, before they are mixed. */
  private readonly corners: F32[];
  private readonly object: F32;
  private readonly matrices: F32;
  private readonly groupSizes: U32;
  private readonly vertexJoints: U32;
  private readonly positionWeights: F32;
  private readonly normalJoints: U32;
  private readonly normalWeights: F32;
  private readonly outPositions: F32;
  private readonly outNormals: F32;
  private readonly channels: Float32Array;
  private readonly scratch: Float32Array;
  /** One decoder per blend of the current sequence, its walks resumed frame after frame. */
  private decoders = new Map<number, SequenceDecoder>();
  private decoded: SequenceSource | null = null;
  private adjust: Float32Array | null = null;
  private blend: readonly number[] = [0, 0];
  private disposed = false;

  constructor(readonly backend: PoseBackend, readonly model: GoldsrcModel, readonly draw: GoldsrcDraw) {
    const J = (this.jointCount = model.bones.length);
    const V = (this.vertexCount = draw.vertexCount);
    const m = backend.memory;
    const own = <B extends KernelBuffer<Typed>>(b: B): B => (this.owned.push(b), b);
    this.parents = own(m.i32(J));
    this.localA = own(m.f32(J * POSE_STRIDE));
    this.localB = own(m.f32(J * POSE_STRIDE));
    this.local = own(m.f32(J * POSE_STRIDE));
    this.corners = [0, 1, 2, 3].map(() => own(m.f32(J * POSE_STRIDE)));
    this.object = own(m.f32(J * POSE_STRIDE));
    this.matrices = own(m.f32(J * MATRIX_STRIDE));
    this.groupSizes = own(m.u32(1));
    this.vertexJoints = own(m.u32(V));
    this.positionWeights = own(m.f32(V * 4));
    this.normalJoints = own(m.u32(V));
    this.normalWeights = own(m.f32(V * 4));
    this.outPositions = own(m.f32(V * 3));
    this.outNormals = own(m.f32(V * 3));
    this.parents.view.set(model.bones.map((b) => b.parent));
    this.groupSizes.view[0] = V;
    this.vertexJoints.view.set(draw.vertexBones);
    this.positionWeights.view.set(draw.positionWeights);
    this.normalJoints.view.set(draw.normalBones);
    this.normalWeights.view.set(draw.normalWeights);
    this.channels = new Float32Array(J * 6);
    this.scratch = new Float32Array(J * POSE_STRIDE);
    const k = backend.kernels;
    const bad = k.validateParents({ parents: this.parents });
    const badWeight = bad >= 0 ? -1 : Math.max(k.validateSkin({ jointCount: J, groupSizes: this.groupSizes, joints: this.vertexJoints, weights: this.positionWeights, dest: null }), k.validateSkin({ jointCount: J, groupSizes: this.groupSizes, joints: this.normalJoints, weights: this.normalWeights, dest: null }));
    if (bad >= 0 || badWeight !== -1) {
      this.dispose();
      throw new ModelParseError(ErrorCode.IndexOutOfRange, bad >= 0 ? `bone ${bad}'s parent is not before it` : 'a vertex names a bone past the skeleton', { offset: 0 });
    }
    this.bindPose();
  }

  /** Skinned positions, 3 floats a draw vertex; valid until the next pose (read again after any call). */
  get positions(): Float32Array {
    return this.alive().outPositions.view;
  }
  get normals(): Float32Array {
    return this.alive().outNormals.view;
  }
  /** Each bone's object-space pose of the last call (`tx ty tz 0 qx qy qz qw`). */
  get bonePoses(): Float32Array {
    return this.alive().object.view;
  }
  /** Each bone's local pose of the last call. */
  get localPoses(): Float32Array {
    return this.alive().local.view;
  }

  /** The bones at their default values (the pose the glTF skin is bound in). */
  bindPose(): this {
    this.alive();
    channelsToLocal(defaultChannels(this.model.bones), this.scratch);
    this.local.view.set(this.scratch);
    return this.finish();
  }

  /**
   * The bone controllers and blending the next poses use (controls.ts): a controller not named adjusts nothing,
   * blending not given is [0, 0]. Replaces what an earlier call set.
   */
  setControls(controls: GoldsrcControls = {}): this {
    this.alive();
    this.adjust = boneAdjust(this.model, controls.controllers);
    this.blend = controls.blend ? Array.from(controls.blend) : [0, 0];
    return this;
  }

  /** The sequence of `source` at frame `frame` + `t` of the way to the next (clamped to its last frame). */
  poseSequence(source: SequenceSource, frame: number, t = 0): this {
    const last = Math.max(0, source.sequence.frameCount - 1);
    const a = Math.min(Math.max(0, Math.floor(frame)), last);
    return this.poseFrames(source, a, Math.min(a + 1, last), t);
  }

  /** Frames `a` and `b` of the sequence (clamped to its frames) blended by `t` (b's weight), with the controls set. */
  poseFrames(source: SequenceSource, frameA: number, frameB: number, t: number): this {
    this.alive();
    const last = Math.max(0, source.sequence.frameCount - 1);
    const a = Math.min(Math.max(0, Math.floor(frameA)), last);
    const b = Math.min(Math.max(0, Math.floor(frameB)), last);
    if (this.decoded !== source) {
      this.decoders.clear();
      this.decoded = source;
    }
    const k = this.backend.kernels;
    const { corners, sx, sy } = blendCorners(source.sequence, this.blend);
    corners.forEach((blend, c) => {
      let decoder = this.decoders.get(blend);
      if (!decoder) this.decoders.set(blend, (decoder = new SequenceDecoder(this.model.bones, source, blend)));
      const out = corners.length === 1 ? this.local : this.corners[c];
      this.localA.view.set(channelsToLocal(decoder.channels(a, this.channels, this.adjust), this.scratch));
      if (t > 0 && b !== a) {
        this.localB.view.set(channelsToLocal(decoder.channels(b, this.channels, this.adjust), this.scratch));
        k.interpolateLocal({ a: this.localA, b: this.localB, t, out });
      } else out.view.set(this.localA.view);
    });
    const [c0, c1, c2, c3] = this.corners;
    if (corners.length === 2) k.interpolateLocal({ a: c0, b: c1, t: sx, out: this.local });
    else if (corners.length === 4) {
      k.interpolateLocal({ a: c0, b: c1, t: sx, out: this.localA });
      k.interpolateLocal({ a: c2, b: c3, t: sx, out: this.localB });
      k.interpolateLocal({ a: this.localA, b: this.localB, t: sy, out: this.local });
    }
    return this.finish();
  }

  private finish(): this {
    const k = this.backend.kernels;
    k.localToObject({ parents: this.parents, local: this.local, out: this.object });
    k.poseMatrices({ object: this.object, out: this.matrices });
    k.skinPositions({ matrices: this.matrices, groupSizes: this.groupSizes, joints: this.vertexJoints, weights: this.positionWeights, dest: null, out: this.outPositions });
    k.skinNormals({ matrices: this.matrices, groupSizes: this.groupSizes, joints: this.normalJoints, weights: this.normalWeights, dest: null, out: this.outNormals });
    return this;
  }

  private alive(): this {
    if (this.disposed) throw disposedError('GoldsrcPoser');
    return this;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const b of this.owned) this.backend.memory.release(b);
  }
}

/**
 * Poses a studio model on one backend as Half-Life's StudioSetupBones does: a sequence's channels at two frames
 * (anim.ts: the engine's run-length decoding, in TS) become two local poses, which the kernels blend
 * (`interpolateLocal`: positions lerped, rotations slerped — StudioCalcBoneQuaterion's slerp between frame and
 * frame + 1), compose parents first (`localToObject`), make matrices (`poseMatrices`) and skin: every draw vertex
 * and normal bound rigidly to its one bone (`skinPositions` / `skinNormals` with one weight of 1 a vertex:
 * R_StudioDrawPoints' VectorTransform by the bone's matrix). Every buffer is allocated, and every job built, once.
 *
 * Not applied (docs/goldsrc.md): bone controllers (at no adjustment), a sequence's second blend (the engine's
 * default blending 0 shows its first), the sequence-to-sequence blending of StudioSlerpBones.
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { disposedError, type F32, type I32, type KernelBuffer, type PoseBackend, type Typed, type U32 } from '../../kernels/backend.js';
import { MATRIX_STRIDE, POSE_STRIDE } from '../../kernels/layout.js';
import { channelsToLocal, defaultChannels, SequenceDecoder, type SequenceSource } from './anim.js';
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
  private decoder: SequenceDecoder | null = null;
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

  /** The sequence of `source` at frame `frame` + `t` of the way to the next (clamped to its last frame). */
  poseSequence(source: SequenceSource, frame: number, t = 0): this {
    const last = Math.max(0, source.sequence.frameCount - 1);
    const a = Math.min(Math.max(0, Math.floor(frame)), last);
    return this.poseFrames(source, a, Math.min(a + 1, last), t);
  }

  /** Frames `a` and `b` of the sequence (clamped to its frames) blended by `t` (b's weight). */
  poseFrames(source: SequenceSource, frameA: number, frameB: number, t: number): this {
    this.alive();
    const last = Math.max(0, source.sequence.frameCount - 1);
    const a = Math.min(Math.max(0, Math.floor(frameA)), last);
    const b = Math.min(Math.max(0, Math.floor(frameB)), last);
    // one decoder a sequence, its walks resumed frame after frame (anim.ts SequenceDecoder)
    if (this.decoder?.source !== source) this.decoder = new SequenceDecoder(this.model.bones, source);
    this.localA.view.set(channelsToLocal(this.decoder.channels(a, this.channels), this.scratch));
    if (t > 0 && b !== a) {
      this.localB.view.set(channelsToLocal(this.decoder.channels(b, this.channels), this.scratch));
      this.backend.kernels.interpolateLocal({ a: this.localA, b: this.localB, t, out: this.local });
    } else this.local.view.set(this.localA.view);
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

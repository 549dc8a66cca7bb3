/**
 * Poses an MDS (and an MDM on its MDX: the same bones and weights) on one backend as the renderer draws it: the
 * bones composed in TS as R_CalcBones does (pose/wolf-skeleton.ts), then every vertex skinned by the MD5 skinning
 * kernels — an MDS weight is an MD5 weight (an offset in its bone's space and a bias), and RB_SurfaceAnim's
 * Σ weight · (matrix · offset + translation) is `skinPositions` with `x·b y·b z·b b` per weight. The normal is its
 * first weight's bone's rotation of the stored normal (RB_SurfaceAnim), `skinNormals` with that one weight.
 * Vertices come out in file order, every surface after the one before. Every buffer is allocated once.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { disposedError, type F32, type KernelBuffer, type PoseBackend, type Typed, type U32 } from '../kernels/backend.js';
import { MATRIX_STRIDE, WEIGHT_STRIDE } from '../kernels/layout.js';
import { parentsFirst, wolfBoneMatrices, type WolfFrames, type WolfSkeleton, type WolfSurfaceVertices } from './wolf-skeleton.js';

/** The grouped skin streams of surfaces' vertices (the kernels' layout: vertices grouped by weight count). */
export interface WolfSkinStream {
  vertexCount: number;
  surfaceStart: Uint32Array;
  groupSizes: Uint32Array;
  joints: Uint32Array;
  weights: Float32Array;
  /** Grouped vertex i is file vertex dest[i] (global over the surfaces). */
  dest: Uint32Array;
  normalJoints: Uint32Array;
  normalWeights: Float32Array;
}

export function wolfSkinStream(surfaces: readonly WolfSurfaceVertices[]): WolfSkinStream {
  const surfaceStart = new Uint32Array(surfaces.length + 1);
  let V = 0, W = 0, maxW = 0;
  surfaces.forEach((s, i) => {
    V += s.vertexCount;
    W += s.weightStart[s.vertexCount];
    surfaceStart[i + 1] = V;
    for (let v = 0; v < s.vertexCount; v++) maxW = Math.max(maxW, s.weightStart[v + 1] - s.weightStart[v]);
  });
  const groupSizes = new Uint32Array(maxW);
  for (const s of surfaces) for (let v = 0; v < s.vertexCount; v++) groupSizes[s.weightStart[v + 1] - s.weightStart[v] - 1]++;
  // where each group starts, in vertices and in weights
  const vStart = new Uint32Array(maxW), wStart = new Uint32Array(maxW);
  for (let g = 1; g < maxW; g++) {
    vStart[g] = vStart[g - 1] + groupSizes[g - 1];
    wStart[g] = wStart[g - 1] + groupSizes[g - 1] * g;
  }
  const joints = new Uint32Array(W), weights = new Float32Array(W * WEIGHT_STRIDE), dest = new Uint32Array(V);
  const normalJoints = new Uint32Array(V), normalWeights = new Float32Array(V * WEIGHT_STRIDE);
  surfaces.forEach((s, i) => {
    for (let v = 0; v < s.vertexCount; v++) {
      const a = s.weightStart[v], n = s.weightStart[v + 1] - a, g = n - 1;
      const file = surfaceStart[i] + v;
      const slot = vStart[g]++;
      dest[slot] = file;
      let k = wStart[g];
      wStart[g] += n;
      for (let j = a; j < a + n; j++, k++) {
        const b = s.weights[j];
        joints[k] = s.weightBones[j];
        weights.set([s.offsets[j * 3] * b, s.offsets[j * 3 + 1] * b, s.offsets[j * 3 + 2] * b, b], k * WEIGHT_STRIDE);
      }
      // the normal follows its first weight's bone, whole
      normalJoints[file] = s.weightBones[a];
      normalWeights.set([s.normals[v * 3], s.normals[v * 3 + 1], s.normals[v * 3 + 2], 0], file * WEIGHT_STRIDE);
    }
  });
  return { vertexCount: V, surfaceStart, groupSizes, joints, weights, dest, normalJoints, normalWeights };
}

export class WolfPoser {
  readonly jointCount: number;
  readonly vertexCount: number;
  private readonly owned: KernelBuffer<Typed>[] = [];
  private readonly matrices: F32;
  private readonly groupSizes: U32;
  private readonly joints: U32;
  private readonly weights: F32;
  private readonly dest: U32;
  private readonly normalGroups: U32;
  private readonly normalJoints: U32;
  private readonly normalWeights: F32;
  private readonly outPositions: F32;
  private readonly outNormals: F32;
  private readonly order: Int32Array;
  private readonly scratch: Float64Array;
  private readonly boneMatrices: Float32Array;
  private disposed = false;

  constructor(readonly backend: PoseBackend, readonly skeleton: WolfSkeleton, readonly stream: WolfSkinStream) {
    const J = (this.jointCount = skeleton.bones.length);
    const V = (this.vertexCount = stream.vertexCount);
    const m = backend.memory;
    const own = <B extends KernelBuffer<Typed>>(b: B): B => (this.owned.push(b), b);
    this.matrices = own(m.f32(Math.max(1, J) * MATRIX_STRIDE));
    this.groupSizes = own(m.u32(stream.groupSizes.length));
    this.joints = own(m.u32(stream.joints.length));
    this.weights = own(m.f32(stream.weights.length));
    this.dest = own(m.u32(V));
    this.normalGroups = own(m.u32(1));
    this.normalJoints = own(m.u32(V));
    this.normalWeights = own(m.f32(V * WEIGHT_STRIDE));
    this.outPositions = own(m.f32(V * 3));
    this.outNormals = own(m.f32(V * 3));
    this.groupSizes.view.set(stream.groupSizes);
    this.joints.view.set(stream.joints);
    this.weights.view.set(stream.weights);
    this.dest.view.set(stream.dest);
    this.normalGroups.view[0] = V;
    this.normalJoints.view.set(stream.normalJoints);
    this.normalWeights.view.set(stream.normalWeights);
    this.order = parentsFirst(skeleton.bones);
    this.scratch = new Float64Array(J * 12);
    this.boneMatrices = new Float32Array(J * MATRIX_STRIDE);
    const k = backend.kernels;
    const bad = Math.max(
      k.validateSkin({ jointCount: J, groupSizes: this.groupSizes, joints: this.joints, weights: this.weights, dest: this.dest }),
      k.validateSkin({ jointCount: J, groupSizes: this.normalGroups, joints: this.normalJoints, weights: this.normalWeights, dest: null }),
    );
    if (bad !== -1) {
      this.dispose();
      throw new ModelParseError(ErrorCode.IndexOutOfRange, 'a vertex weight names a bone past the skeleton', { offset: 0 });
    }
    this.pose({ frame: 0 });
  }

  /** Skinned positions, 3 floats a vertex in file order; valid until the next pose. */
  get positions(): Float32Array {
    return this.alive().outPositions.view;
  }
  get normals(): Float32Array {
    return this.alive().outNormals.view;
  }
  /** Each bone's matrix of the last pose (row-major 3×4, MATRIX_STRIDE floats a bone). */
  get bones(): Float32Array {
    return this.alive().boneMatrices;
  }

  pose(frames: WolfFrames): this {
    this.alive();
    wolfBoneMatrices(this.skeleton, frames, this.boneMatrices, this.order, this.scratch);
    this.matrices.view.set(this.boneMatrices);
    const k = this.backend.kernels;
    k.skinPositions({ matrices: this.matrices, groupSizes: this.groupSizes, joints: this.joints, weights: this.weights, dest: this.dest, out: this.outPositions });
    k.skinNormals({ matrices: this.matrices, groupSizes: this.normalGroups, joints: this.normalJoints, weights: this.normalWeights, dest: null, out: this.outNormals });
    return this;
  }

  private alive(): this {
    if (this.disposed) throw disposedError('WolfPoser');
    return this;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const b of this.owned) this.backend.memory.release(b);
  }
}

/**
 * The pure-TS backend: ordinary typed arrays, the kernels of `ts-kernels.ts` / `ts-morph-kernels.ts`. Each job is
 * checked for the same shapes the WASM surface checks (crates/wasm/src/lib.rs), so both backends refuse the same
 * jobs with the same RangeError.
 */
import {
  disposedError,
  refused,
  type F32,
  type KernelBuffer,
  type KernelMemory,
  type PoseBackend,
  type PoseKernels,
  type Typed,
} from './backend.js';
import { BASEFRAME_STRIDE, MATRIX_STRIDE, POSE_STRIDE, WEIGHT_STRIDE } from './layout.js';
import * as k from './ts-kernels.js';
import { md2Blend, md3Blend, transformVertices } from './ts-morph-kernels.js';
import { iqmBindMatrices, iqmPoseMatrices, iqmSkinFrames, lbsSkin, validateLbs } from './ts-iqm-kernels.js';

class TsBuffer<T extends Typed> implements KernelBuffer<T> {
  readonly ptr = 0;
  released = false;
  constructor(private readonly array: T) {}
  get length(): number {
    return this.array.length;
  }
  get view(): T {
    if (this.released) throw disposedError('this kernel buffer');
    return this.array;
  }
}

const EMPTY_U32 = /* @__PURE__ */ new Uint32Array(0);
const EMPTY_U8 = /* @__PURE__ */ new Uint8Array(0);
const EMPTY_F32 = /* @__PURE__ */ new Float32Array(0);

/** The output slots of `count` vertices from vertex `first`, or a RangeError when they do not fit. */
function outRange(kernel: string, positions: F32, normals: F32, first: number, count: number): [Float32Array, Float32Array] {
  const start = first * 3, end = start + count * 3;
  if (!(Number.isInteger(first) && first >= 0 && Number.isInteger(count) && count >= 0) || end > positions.length || end > normals.length) refused(kernel, 'vertex range past the output');
  return [positions.view.subarray(start, end), normals.view.subarray(start, end)];
}

export function createTsBackend(): PoseBackend {
  let disposed = false;
  const live = new Set<TsBuffer<Typed>>();
  function make<T extends Typed>(array: T): KernelBuffer<T> {
    if (disposed) throw disposedError('this ts backend');
    const b = new TsBuffer(array);
    live.add(b as unknown as TsBuffer<Typed>);
    return b;
  }
  const size = (n: number) => {
    if (!Number.isInteger(n) || n < 0) throw new RangeError(`bad buffer length ${n}`);
    return n;
  };
  const memory: KernelMemory = {
    f32: (n) => make(new Float32Array(size(n))),
    u32: (n) => make(new Uint32Array(size(n))),
    i32: (n) => make(new Int32Array(size(n))),
    u8: (n) => make(new Uint8Array(size(n))),
    i16: (n) => make(new Int16Array(size(n))),
    u16: (n) => make(new Uint16Array(size(n))),
    release(buffer) {
      if (buffer instanceof TsBuffer) {
        buffer.released = true;
        live.delete(buffer);
      }
    },
  };
  const alive = () => {
    if (disposed) throw disposedError('this ts backend');
  };

  const kernels: PoseKernels = {
    validateParents: (j) => (alive(), k.validateParents(j.parents.view)),
    validateAnim: (j) => (alive(), k.validateAnim(j.flags.view, j.startIndex.view, j.baseframe.length, j.componentCount)),
    validateSkin: (j) => (alive(), k.validateSkin(j.jointCount, j.groupSizes.view, j.joints.view, j.weights.length, j.dest ? j.dest.view : EMPTY_U32)),
    composeFrame(j) {
      alive();
      const n = j.flags.length, start = j.frame * j.componentCount;
      if (!(Number.isInteger(j.frame) && j.frame >= 0) || start + j.componentCount > j.frames.length) refused('composeFrame', `no frame ${j.frame}`);
      if (j.startIndex.length < n || j.baseframe.length < n * BASEFRAME_STRIDE || j.out.length < n * POSE_STRIDE) refused('composeFrame');
      k.composeFrame(j.flags.view, j.startIndex.view, j.baseframe.view, j.frames.view.subarray(start, start + j.componentCount), j.out.view);
    },
    interpolateLocal(j) {
      alive();
      const n = Math.floor(j.out.length / POSE_STRIDE) * POSE_STRIDE;
      if (j.a.length < n || j.b.length < n) refused('interpolateLocal');
      k.interpolateLocal(j.a.view, j.b.view, j.t, j.out.view.subarray(0, n));
    },
    localToObject(j) {
      alive();
      const n = j.parents.length * POSE_STRIDE;
      if (j.local.length < n || j.out.length < n) refused('localToObject');
      k.localToObject(j.parents.view, j.local.view, j.out.view);
    },
    poseMatrices(j) {
      alive();
      const joints = Math.floor(j.object.length / POSE_STRIDE);
      if (j.out.length < joints * MATRIX_STRIDE) refused('poseMatrices');
      k.poseMatrices(j.object.view.subarray(0, joints * POSE_STRIDE), j.out.view);
    },
    scaleMatrices(j) {
      alive();
      const joints = j.scales.length;
      if (j.matrices.length < joints * MATRIX_STRIDE || j.out.length < joints * MATRIX_STRIDE) refused('scaleMatrices');
      k.scaleMatrices(j.matrices.view, j.scales.view, j.out.view);
    },
    skinPositions(j) {
      alive();
      if (!k.skinPositions(j.matrices.view, j.groupSizes.view, j.joints.view, j.weights.view, j.dest ? j.dest.view : EMPTY_U32, j.out.view)) refused('skinPositions');
    },
    skinNormals(j) {
      alive();
      if (!k.skinNormals(j.matrices.view, j.groupSizes.view, j.joints.view, j.weights.view, j.dest ? j.dest.view : EMPTY_U32, j.out.view)) refused('skinNormals');
    },
    skinFrames(j) {
      alive();
      const { anim: a, skin: s, scratch: sc } = j;
      const n = a.parents.length;
      if (!(Number.isInteger(j.frameCount) && j.frameCount >= 0 && j.frameCount <= j.frameIndices.length)) refused('skinFrames');
      if (a.flags.length < n || a.startIndex.length < n || a.baseframe.length < n * BASEFRAME_STRIDE || sc.matrices.length < n * MATRIX_STRIDE || s.weights.length < s.joints.length * WEIGHT_STRIDE) refused('skinFrames');
      const ok = k.skinFrames(a.parents.view, a.flags.view.subarray(0, n), a.startIndex.view.subarray(0, n), a.baseframe.view, a.frames.view, a.componentCount, s.groupSizes.view, s.joints.view, s.weights.view, s.dest ? s.dest.view : EMPTY_U32, j.frameIndices.view.subarray(0, j.frameCount), sc.local.view, sc.object.view, sc.matrices.view, j.out.view);
      if (!ok) refused('skinFrames', 'a frame index is past the anim, or a buffer is too short');
    },
    md2Blend(j) {
      alive();
      const [p, n] = outRange('md2Blend', j.outPositions, j.outNormals, j.outVertexOffset, j.vertexCount);
      if (!md2Blend(j.frames.view, j.scales.view, j.translates.view, j.vertexCount, j.frameA, j.frameB, j.t, j.normalTable.view, p, n)) refused('md2Blend', `no frames ${j.frameA}, ${j.frameB}, or a buffer is too short`);
    },
    md3Blend(j) {
      alive();
      const [p, n] = outRange('md3Blend', j.outPositions, j.outNormals, j.outVertexOffset, j.vertexCount);
      if (!md3Blend(j.xyzNormals.view, j.vertexCount, j.frameA, j.frameB, j.t, j.normalTable.view, p, n)) refused('md3Blend', `no frames ${j.frameA}, ${j.frameB}, or a buffer is too short`);
    },
    transformVertices(j) {
      alive();
      if (!transformVertices(j.matrix.view, j.positions.view, j.normals.view, j.firstVertex, j.vertexCount)) refused('transformVertices', 'vertex range past the outputs, or a short matrix');
    },
    validateLbs: (j) => (alive(), validateLbs(j.jointCount, j.indices.view, j.weightsU8 ? j.weightsU8.view : EMPTY_U8, j.weightsF32 ? j.weightsF32.view : EMPTY_F32)),
    iqmBind(j) {
      alive();
      if (!iqmBindMatrices(j.parents.view, j.translate.view, j.rotate.view, j.scale.view, j.bind.view, j.invBind.view)) refused('iqmBind');
    },
    iqmPose(j) {
      alive();
      const inp = { parents: j.parents.view, masks: j.masks.view, offsets: j.offsets.view, scales: j.scales.view, frames: j.frames.view, frameCount: j.frameCount, frameChannels: j.frameChannels, bind: j.bind.view, invBind: j.invBind.view };
      if (!iqmPoseMatrices(inp, j.frameA, j.frameB, j.t, j.scratch.view, j.out.view)) refused('iqmPose', `no frames ${j.frameA}, ${j.frameB}, or a buffer is too short`);
    },
    lbsSkin(j) {
      alive();
      const inp = {
        matrices: j.matrices.view, positions: j.positions.view, normals: j.normals ? j.normals.view : EMPTY_F32, tangents: j.tangents ? j.tangents.view : EMPTY_F32,
        indices: j.indices.view, weightsU8: j.weightsU8 ? j.weightsU8.view : EMPTY_U8, weightsF32: j.weightsF32 ? j.weightsF32.view : EMPTY_F32,
      };
      const out = { positions: j.outPositions.view, normals: j.outNormals ? j.outNormals.view : EMPTY_F32, tangents: j.outTangents ? j.outTangents.view : EMPTY_F32 };
      if (!lbsSkin(inp, out)) refused('lbsSkin');
    },
    iqmSkinFrames(j) {
      alive();
      const p = j.pose, s = j.skin;
      if (!(Number.isInteger(j.frameCount) && j.frameCount >= 0 && j.frameCount <= j.frameIndices.length)) refused('iqmSkinFrames');
      const pose = { parents: p.parents.view, masks: p.masks.view, offsets: p.offsets.view, scales: p.scales.view, frames: p.frames.view, frameCount: p.frameCount, frameChannels: p.frameChannels, bind: p.bind.view, invBind: p.invBind.view };
      const skin = { positions: s.positions.view, indices: s.indices.view, weightsU8: s.weightsU8 ? s.weightsU8.view : EMPTY_U8, weightsF32: s.weightsF32 ? s.weightsF32.view : EMPTY_F32 };
      if (!iqmSkinFrames(pose, skin, j.frameIndices.view.subarray(0, j.frameCount), j.scratch.view, j.matrices.view, j.out.view)) refused('iqmSkinFrames', 'a frame index is past the frames, or a buffer is too short');
    },
  };

  return {
    name: 'ts',
    memory,
    kernels,
    get disposed() {
      return disposed;
    },
    dispose() {
      if (disposed) return;
      for (const b of live) b.released = true;
      live.clear();
      disposed = true;
    },
  };
}

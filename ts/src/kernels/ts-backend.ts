/** The pure-TS backend: ordinary typed arrays, the kernels of `ts-kernels.ts`. */
import { checkOutputRange, type F32, type I32, type KernelBuffer, type PoseBackend, type Typed, type U32, type U8 } from './backend.js';
import * as k from './ts-kernels.js';
import { md2Blend, md3Blend } from './ts-morph-kernels.js';

function buffer<T extends Typed>(view: T): KernelBuffer<T> {
  return { length: view.length, ptr: 0, view };
}

const EMPTY = new Uint32Array(0);

/** The output slots of `vertexCount` vertices from vertex `offset` (RangeError when they do not fit). */
function outRange(positions: F32, normals: F32, offset: number, vertexCount: number): [Float32Array, Float32Array] {
  checkOutputRange(positions, normals, offset, vertexCount);
  const start = offset * 3, end = start + vertexCount * 3;
  return [positions.view.subarray(start, end), normals.view.subarray(start, end)];
}

export function createTsBackend(): PoseBackend {
  return {
    name: 'ts',
    f32: (n) => buffer(new Float32Array(n)),
    u32: (n) => buffer(new Uint32Array(n)),
    i32: (n) => buffer(new Int32Array(n)),
    u8: (n) => buffer(new Uint8Array(n)),
    i16: (n) => buffer(new Int16Array(n)),
    release: () => {},
    validateParents: (parents: I32) => k.validateParents(parents.view),
    validateAnim: (flags: U8, startIndex: U32, componentCount: number) =>
      k.validateAnim(flags.view, startIndex.view, componentCount),
    validateSkin: (jointCount: number, groupSizes: U32, joints: U32, weights: F32, dest: U32 | null) =>
      k.validateSkin(jointCount, groupSizes.view, joints.view, weights.length, dest ? dest.view : EMPTY),
    composeFrame(flags, startIndex, baseframe, frames, frameIndex, componentCount, outLocal) {
      const start = frameIndex * componentCount;
      k.composeFrame(flags.view, startIndex.view, baseframe.view, frames.view.subarray(start, start + componentCount), outLocal.view);
    },
    interpolateLocal: (a, b, t, out) => k.interpolateLocal(a.view, b.view, t, out.view),
    localToObject: (parents, local, out) => k.localToObject(parents.view, local.view, out.view),
    poseMatrices: (object, out) => k.poseMatrices(object.view, out.view),
    skinPositions(m, groupSizes, joints, weights, dest, out) {
      if (!k.skinPositions(m.view, groupSizes.view, joints.view, weights.view, dest ? dest.view : EMPTY, out.view)) throw new RangeError('skinPositions: buffer shapes disagree');
    },
    skinFrames(a, sk, frameIndices, sc, out) {
      const ok = k.skinFrames(a.parents.view, a.flags.view, a.startIndex.view, a.baseframe.view, a.frames.view, a.componentCount, sk.groupSizes.view, sk.joints.view, sk.weights.view, sk.dest ? sk.dest.view : EMPTY, frameIndices.view, sc.local.view, sc.object.view, sc.matrices.view, out.view);
      if (!ok) throw new RangeError('skinFrames: a frame index is past the anim, or a buffer is too short');
    },
    skinNormals(m, groupSizes, joints, weights, dest, out) {
      if (!k.skinNormals(m.view, groupSizes.view, joints.view, weights.view, dest ? dest.view : EMPTY, out.view)) throw new RangeError('skinNormals: buffer shapes disagree');
    },
    md2Blend(frames, scales, translates, vertexCount, frameA, frameB, t, normalTable, outPositions, outNormals, outVertexOffset) {
      const [p, n] = outRange(outPositions, outNormals, outVertexOffset, vertexCount);
      if (!md2Blend(frames.view, scales.view, translates.view, vertexCount, frameA, frameB, t, normalTable.view, p, n)) throw new RangeError(`md2Blend: no frames ${frameA}, ${frameB}, or a buffer is too short`);
    },
    md3Blend(xyzNormals, vertexCount, frameA, frameB, t, angleTable, outPositions, outNormals, outVertexOffset) {
      const [p, n] = outRange(outPositions, outNormals, outVertexOffset, vertexCount);
      if (!md3Blend(xyzNormals.view, vertexCount, frameA, frameB, t, angleTable.view, p, n)) throw new RangeError(`md3Blend: no frames ${frameA}, ${frameB}, or a buffer is too short`);
    },
  };
}

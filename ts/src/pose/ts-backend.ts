/** The pure-TS backend: ordinary typed arrays, the kernels of `ts-kernels.ts`. */
import type { F32, I32, KernelBuffer, PoseBackend, Typed, U32, U8 } from './backend.js';
import * as k from './ts-kernels.js';

function buffer<T extends Typed>(view: T): KernelBuffer<T> {
  return { length: view.length, ptr: 0, view };
}

export function createTsBackend(): PoseBackend {
  return {
    name: 'ts',
    f32: (n) => buffer(new Float32Array(n)),
    u32: (n) => buffer(new Uint32Array(n)),
    i32: (n) => buffer(new Int32Array(n)),
    u8: (n) => buffer(new Uint8Array(n)),
    release: () => {},
    validateParents: (parents: I32) => k.validateParents(parents.view),
    validateAnim: (flags: U8, startIndex: U32, componentCount: number) =>
      k.validateAnim(flags.view, startIndex.view, componentCount),
    validateSkin: (jointCount: number, counts: U32, joints: U32, weights: F32) =>
      k.validateSkin(jointCount, counts.view, joints.view, weights.length),
    composeFrame(flags, startIndex, baseframe, frames, frameIndex, componentCount, outLocal) {
      const start = frameIndex * componentCount;
      k.composeFrame(flags.view, startIndex.view, baseframe.view, frames.view.subarray(start, start + componentCount), outLocal.view);
    },
    interpolateLocal: (a, b, t, out) => k.interpolateLocal(a.view, b.view, t, out.view),
    localToObject: (parents, local, out) => k.localToObject(parents.view, local.view, out.view),
    poseMatrices: (object, out) => k.poseMatrices(object.view, out.view),
    skinPositions: (m, counts, joints, weights, out) => k.skinPositions(m.view, counts.view, joints.view, weights.view, out.view),
    skinNormals: (m, counts, joints, weights, out) => k.skinNormals(m.view, counts.view, joints.view, weights.view, out.view),
  };
}

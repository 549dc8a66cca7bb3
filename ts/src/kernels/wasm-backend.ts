/**
 * The WASM backend: kernels from `crates/wasm` over buffers in the module's linear memory.
 *
 * Two builds ship embedded in the bundle (base64, so one import works in browsers and Node with no fetch
 * path or fs): SIMD128 and scalar. `wasm` / `auto` picks SIMD when `WebAssembly.validate` accepts a tiny
 * SIMD module, else scalar. Instantiation is asynchronous (browsers forbid synchronous compiles of
 * modules this size on the main thread).
 */
import * as scalarGlue from '../../wasm/scalar/idtech_wasm.js';
import scalarBase64 from '../../wasm/scalar/binary.js';
import * as simdGlue from '../../wasm/simd/idtech_wasm.js';
import simdBase64 from '../../wasm/simd/binary.js';
import { checkOutputRange, type F32, type KernelBuffer, type PoseBackend, type Typed } from './backend.js';
import { BASEFRAME_STRIDE, MATRIX_STRIDE, POSE_STRIDE } from './layout.js';

type Glue = typeof simdGlue;

/** A module using one v128 instruction: validates only where SIMD128 is supported. */
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

export function wasmSimdSupported(): boolean {
  return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
}

export function wasmSupported(): boolean {
  return typeof WebAssembly === 'object' && typeof WebAssembly.instantiate === 'function';
}

function decodeBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

type TypedCtor<T extends Typed> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number };

class WasmBuffer<T extends Typed> implements KernelBuffer<T> {
  private cached: T;
  constructor(
    private readonly memory: WebAssembly.Memory,
    private readonly ctor: TypedCtor<T>,
    readonly ptr: number,
    readonly length: number,
  ) {
    this.cached = new ctor(memory.buffer, ptr, length);
  }
  get view(): T {
    // Memory growth detaches the old ArrayBuffer (byteLength 0): make a new view on the new one.
    if (this.cached.buffer !== this.memory.buffer) this.cached = new this.ctor(this.memory.buffer, this.ptr, this.length);
    return this.cached;
  }
  get bytes(): number {
    return Math.max(1, this.length * this.ctor.BYTES_PER_ELEMENT);
  }
}

const loaded = new Map<'simd' | 'scalar', Promise<{ glue: Glue; memory: WebAssembly.Memory }>>();

function load(variant: 'simd' | 'scalar') {
  let p = loaded.get(variant);
  if (!p) {
    const glue = (variant === 'simd' ? simdGlue : scalarGlue) as Glue;
    const bytes = decodeBase64(variant === 'simd' ? simdBase64 : scalarBase64);
    p = glue.default({ module_or_path: bytes }).then((exports) => ({ glue, memory: exports.memory }));
    loaded.set(variant, p);
  }
  return p;
}

export async function createWasmBackend(variant: 'simd' | 'scalar'): Promise<PoseBackend> {
  if (variant === 'simd' && !wasmSimdSupported()) throw new Error('WebAssembly SIMD128 is not supported here');
  const { glue: g, memory } = await load(variant);
  if (g.simd_enabled() !== (variant === 'simd')) throw new Error(`the ${variant} wasm build reports simd=${g.simd_enabled()}`);

  function make<T extends Typed>(ctor: TypedCtor<T>, length: number): WasmBuffer<T> {
    if (!Number.isInteger(length) || length < 0) throw new RangeError(`bad buffer length ${length}`);
    const ptr = g.alloc(Math.max(1, length * ctor.BYTES_PER_ELEMENT));
    if (ptr === 0) throw new RangeError(`WASM could not allocate ${length} elements`);
    return new WasmBuffer(memory, ctor, ptr, length);
  }
  const joints = (pose: F32) => (pose.length / POSE_STRIDE) | 0;
  /** Byte offset of vertex `offset` in the outputs; RangeError unless `vertexCount` vertices fit there. */
  const outAt = (positions: F32, normals: F32, offset: number, vertexCount: number) => {
    checkOutputRange(positions, normals, offset, vertexCount);
    return offset * 3 * 4;
  };

  return {
    name: variant === 'simd' ? 'wasm-simd' : 'wasm-scalar',
    f32: (n) => make(Float32Array, n),
    u32: (n) => make(Uint32Array, n),
    i32: (n) => make(Int32Array, n),
    u8: (n) => make(Uint8Array, n),
    i16: (n) => make(Int16Array, n),
    release(buffer: KernelBuffer<Typed>) {
      if (buffer instanceof WasmBuffer) g.dealloc(buffer.ptr, buffer.bytes);
    },
    validateParents: (parents) => g.validate_parents(parents.length, parents.ptr),
    validateAnim: (flags, startIndex, componentCount) => {
      if (startIndex.length !== flags.length) return 0;
      return g.validate_anim(flags.length, flags.ptr, startIndex.ptr, componentCount);
    },
    validateSkin: (jointCount, groupSizes, jointsBuf, weights, dest) => {
      if (weights.length < jointsBuf.length * 4) return -2;
      return g.validate_skin(jointCount, groupSizes.length, groupSizes.ptr, jointsBuf.length, jointsBuf.ptr, dest ? dest.ptr : 0, dest ? dest.length : 0);
    },
    composeFrame(flags, startIndex, baseframe, frames, frameIndex, componentCount, outLocal) {
      const n = flags.length;
      if (startIndex.length < n || baseframe.length < n * BASEFRAME_STRIDE || outLocal.length < n * POSE_STRIDE) throw new RangeError('composeFrame: buffer too short');
      if (frameIndex < 0 || (frameIndex + 1) * componentCount > frames.length) throw new RangeError(`composeFrame: no frame ${frameIndex}`);
      g.compose_frame(n, flags.ptr, startIndex.ptr, baseframe.ptr, frames.ptr + frameIndex * componentCount * 4, componentCount, outLocal.ptr);
    },
    interpolateLocal(a, b, t, out) {
      const n = joints(out);
      if (a.length < out.length || b.length < out.length) throw new RangeError('interpolateLocal: buffer too short');
      g.interpolate_local(n, a.ptr, b.ptr, t, out.ptr);
    },
    localToObject(parents, local, out) {
      const n = parents.length;
      if (local.length < n * POSE_STRIDE || out.length < n * POSE_STRIDE) throw new RangeError('localToObject: buffer too short');
      g.local_to_object(n, parents.ptr, local.ptr, out.ptr);
    },
    poseMatrices(object, out) {
      const n = joints(object);
      if (out.length < n * MATRIX_STRIDE) throw new RangeError('poseMatrices: buffer too short');
      g.pose_matrices(n, object.ptr, out.ptr);
    },
    skinPositions(m, groupSizes, jointsBuf, weights, dest, out) {
      if (weights.length < jointsBuf.length * 4) throw new RangeError('skinPositions: weights shorter than joints');
      const ok = g.skin_positions((m.length / MATRIX_STRIDE) | 0, m.ptr, groupSizes.length, groupSizes.ptr, jointsBuf.length, jointsBuf.ptr, weights.ptr, dest ? dest.ptr : 0, dest ? dest.length : 0, out.ptr, out.length);
      if (!ok) throw new RangeError('skinPositions: buffer shapes disagree');
    },
    skinFrames(a, sk, frameIndices, sc, out) {
      const n = a.parents.length;
      if (a.flags.length < n || a.startIndex.length < n || a.baseframe.length < n * BASEFRAME_STRIDE || sc.matrices.length < n * MATRIX_STRIDE || sk.weights.length < sk.joints.length * 4) throw new RangeError('skinFrames: buffer too short');
      const ok = g.skin_frames(n, a.parents.ptr, a.flags.ptr, a.startIndex.ptr, a.baseframe.ptr, a.frames.ptr, a.frames.length, a.componentCount, sk.groupSizes.length, sk.groupSizes.ptr, sk.joints.length, sk.joints.ptr, sk.weights.ptr, sk.dest ? sk.dest.ptr : 0, sk.dest ? sk.dest.length : 0, frameIndices.ptr, frameIndices.length, sc.local.ptr, sc.object.ptr, sc.matrices.ptr, out.ptr, out.length);
      if (!ok) throw new RangeError('skinFrames: a frame index is past the anim, or a buffer is too short');
    },
    skinNormals(m, groupSizes, jointsBuf, weights, dest, out) {
      if (weights.length < jointsBuf.length * 4) throw new RangeError('skinNormals: weights shorter than joints');
      const ok = g.skin_normals((m.length / MATRIX_STRIDE) | 0, m.ptr, groupSizes.length, groupSizes.ptr, jointsBuf.length, jointsBuf.ptr, weights.ptr, dest ? dest.ptr : 0, dest ? dest.length : 0, out.ptr, out.length);
      if (!ok) throw new RangeError('skinNormals: buffer shapes disagree');
    },
    md2Blend(frames, scales, translates, vertexCount, frameA, frameB, t, normalTable, outPositions, outNormals, outVertexOffset) {
      const at = outAt(outPositions, outNormals, outVertexOffset, vertexCount);
      const frameCount = Math.min(scales.length, translates.length) / 3 | 0;
      if (!g.md2_blend(frames.ptr, frames.length, scales.ptr, translates.ptr, frameCount, vertexCount, frameA, frameB, t, normalTable.ptr, normalTable.length, outPositions.ptr + at, outNormals.ptr + at))
        throw new RangeError(`md2Blend: no frames ${frameA}, ${frameB}, or a buffer is too short`);
    },
    md3Blend(xyzNormals, vertexCount, frameA, frameB, t, angleTable, outPositions, outNormals, outVertexOffset) {
      const at = outAt(outPositions, outNormals, outVertexOffset, vertexCount);
      if (angleTable.length < 512) throw new RangeError('md3Blend: angle table too short');
      if (!g.md3_blend(xyzNormals.ptr, xyzNormals.length, vertexCount, frameA, frameB, t, angleTable.ptr, outPositions.ptr + at, outNormals.ptr + at))
        throw new RangeError(`md3Blend: no frames ${frameA}, ${frameB}, or a buffer is too short`);
    },
  };
}

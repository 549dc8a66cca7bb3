/**
 * The WASM backend: kernels from `crates/wasm` over buffers in the module's linear memory. Each kernel call writes
 * its job descriptor (the word layout of `crates/wasm/src/jobs.rs`, generated into `layout.ts`) into a small
 * block of linear memory and passes one pointer; nothing per vertex crosses the boundary.
 *
 * Two builds ship embedded in the bundle (base64, so one import works in browsers and Node with no fetch path or
 * fs): SIMD128 and scalar. `wasm` / `auto` picks SIMD when `WebAssembly.validate` accepts a tiny SIMD module, else
 * scalar. Instantiation is asynchronous (browsers forbid synchronous compiles of modules this size on the main
 * thread). Every backend made from one build shares its module instance; each backend owns its buffers and
 * frees them all on `dispose()`.
 */
import type * as SimdGlue from '../../wasm/simd/idtech_wasm.js';
import { disposedError, refused, type KernelBuffer, type KernelMemory, type PoseBackend, type PoseKernels, type SkinJob, type Typed } from './backend.js';
import {
  COMPOSE_JOB,
  INTERPOLATE_JOB,
  LOCAL_TO_OBJECT_JOB,
  MATRICES_JOB,
  MD2_BLEND_JOB,
  MD3_BLEND_JOB,
  SKIN_FRAMES_JOB,
  SKIN_JOB,
  TRANSFORM_JOB,
  VALIDATE_ANIM_JOB,
  VALIDATE_PARENTS_JOB,
  VALIDATE_SKIN_JOB,
} from './layout.js';

type Glue = typeof SimdGlue;

/**
 * Each build (its wasm-bindgen glue and its bytes) is imported when a backend of that build is first created: a
 * bundle splits it into a chunk of its own beside the code (dist/chunk-*.js, still inside the package: nothing to
 * serve by hand), so importing the library fetches neither build, and a page running SIMD never fetches the scalar one.
 * Standalone bundles (worker.js) inline both.
 */
const BUILDS = {
  simd: () => Promise.all([import('../../wasm/simd/idtech_wasm.js'), import('../../wasm/simd/binary.js')]),
  scalar: () => Promise.all([import('../../wasm/scalar/idtech_wasm.js'), import('../../wasm/scalar/binary.js')]),
};

/** A module using one v128 instruction: validates only where SIMD128 is supported. */
const SIMD_PROBE = /* @__PURE__ */ new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11,
]);

export function wasmSimdSupported(): boolean {
  return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
}

export function wasmSupported(): boolean {
  return typeof WebAssembly === 'object' && typeof WebAssembly.instantiate === 'function';
}

export function decodeBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

type TypedCtor<T extends Typed> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; BYTES_PER_ELEMENT: number };

class WasmBuffer<T extends Typed> implements KernelBuffer<T> {
  private cached: T;
  released = false;
  constructor(
    readonly owner: object,
    private readonly memory: WebAssembly.Memory,
    private readonly ctor: TypedCtor<T>,
    readonly ptr: number,
    readonly length: number,
  ) {
    this.cached = new ctor(memory.buffer, ptr, length);
  }
  get view(): T {
    if (this.released) throw disposedError('this kernel buffer');
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
    p = BUILDS[variant]().then(async ([glue, base64]) => {
      const exports = await glue.default({ module_or_path: decodeBase64(base64.default) });
      return { glue: glue as Glue, memory: exports.memory };
    });
    loaded.set(variant, p);
  }
  return p;
}

/** Words of the largest job descriptor (SKIN_FRAMES_JOB); one block per backend holds the job being run. */
const JOB_WORDS = 32;

export async function createWasmBackend(variant: 'simd' | 'scalar'): Promise<PoseBackend> {
  if (variant === 'simd' && !wasmSimdSupported()) throw new Error('WebAssembly SIMD128 is not supported here');
  const { glue: g, memory: wasmMemory } = await load(variant);
  if (g.simd_enabled() !== (variant === 'simd')) throw new Error(`the ${variant} wasm build reports simd=${g.simd_enabled()}`);
  const name = variant === 'simd' ? 'wasm-simd' : 'wasm-scalar';
  const owner = {};
  const live = new Set<WasmBuffer<Typed>>();
  let disposed = false;

  function make<T extends Typed>(ctor: TypedCtor<T>, length: number): WasmBuffer<T> {
    if (disposed) throw disposedError(`this ${name} backend`);
    if (!Number.isInteger(length) || length < 0) throw new RangeError(`bad buffer length ${length}`);
    const ptr = g.alloc(Math.max(1, length * ctor.BYTES_PER_ELEMENT));
    if (ptr === 0) throw new RangeError(`WASM could not allocate ${length} elements`);
    const b = new WasmBuffer(owner, wasmMemory, ctor, ptr, length);
    live.add(b as unknown as WasmBuffer<Typed>);
    return b;
  }
  function free(b: WasmBuffer<Typed>) {
    if (b.released) return;
    resident = null;
    b.released = true;
    live.delete(b);
    g.dealloc(b.ptr, b.bytes);
  }

  const jobWords = make(Uint32Array, JOB_WORDS);
  live.delete(jobWords as unknown as WasmBuffer<Typed>); // the backend's own: freed last
  const jobFloats = new WasmBuffer(owner, wasmMemory, Float32Array, jobWords.ptr, JOB_WORDS);

  const memory: KernelMemory = {
    f32: (n) => make(Float32Array, n),
    u32: (n) => make(Uint32Array, n),
    i32: (n) => make(Int32Array, n),
    u8: (n) => make(Uint8Array, n),
    i16: (n) => make(Int16Array, n),
    release(buffer) {
      if (buffer instanceof WasmBuffer && buffer.owner === owner) free(buffer as WasmBuffer<Typed>);
    },
  };

  // The job block's views, re-made only when the memory has grown (no allocation per call).
  let words = jobWords.view;
  let floats = jobFloats.view;
  /** The job block's words, current (an allocation may have grown the memory since the last call). */
  function current(): Uint32Array {
    if (disposed) throw disposedError(`this ${name} backend`);
    if (words.byteLength === 0) {
      words = jobWords.view;
      floats = jobFloats.view;
    }
    return words;
  }
  /** The job block, for a kernel that writes all of its words. */
  function job(): Uint32Array {
    resident = null;
    return current();
  }
  // A poser runs the same morph job on every pose, changing only its frames and t. The block remembers the last morph
  // job written and its buffers: when the same job comes again with the same buffers, and nothing else has written
  // the block or released a buffer since, only the scalar words are rewritten (the buffer checks and six address
  // pairs were most of the JS side of a pose).
  // Skinning jobs too (positions and normals share SKIN_JOB's words, and a skin job has no scalar words): the same
  // job with the same six buffers writes nothing. The kernel still checks every length and index on every call.
  let resident: object | null = null;
  let residentKind: 'md2' | 'md3' | 'skin' = 'md2';
  type Buf = KernelBuffer<Typed> | null;
  let r0: Buf = null, r1: Buf = null, r2: Buf = null, r3: Buf = null, r4: Buf = null, r5: Buf = null;
  /** A buffer's address and length into words `at`, `at + 1`; null is the empty buffer. */
  function put(u: Uint32Array, at: number, b: KernelBuffer<Typed> | null): void {
    if (b === null) {
      u[at] = 0;
      u[at + 1] = 0;
      return;
    }
    if (!(b instanceof WasmBuffer) || b.owner !== owner) throw new TypeError(`a ${name} kernel was given a buffer from another backend`);
    if (b.released) throw disposedError('this kernel buffer');
    u[at] = b.ptr;
    u[at + 1] = b.length;
  }
  /**
   * A job's buffers (four or six; `at` their word offsets) into the block, unless `j` is the resident job of `kind`
   * with the same buffers: its words are then still there and only its numbers need writing (a 4-vertex pose went
   * from ~117 to ~79 ns). Any other kernel writing the block, or a release, clears the resident job (above).
   */
  function residentBuffers(
    kind: typeof residentKind,
    j: object,
    at: readonly number[],
    b0: Buf,
    b1: Buf,
    b2: Buf,
    b3: Buf,
    b4: Buf = null,
    b5: Buf = null,
  ): Uint32Array {
    const u = current();
    if (j === resident && residentKind === kind && b0 === r0 && b1 === r1 && b2 === r2 && b3 === r3 && b4 === r4 && b5 === r5) return u;
    resident = null;
    put(u, at[0], (r0 = b0));
    put(u, at[1], (r1 = b1));
    put(u, at[2], (r2 = b2));
    put(u, at[3], (r3 = b3));
    r4 = b4;
    r5 = b5;
    if (at.length > 4) {
      put(u, at[4], b4);
      put(u, at[5], b5);
    }
    resident = j;
    residentKind = kind;
    return u;
  }
  const SKIN_AT = [SKIN_JOB.matrices, SKIN_JOB.groupSizes, SKIN_JOB.joints, SKIN_JOB.weights, SKIN_JOB.dest, SKIN_JOB.out];
  const MD2_AT = [MD2_BLEND_JOB.frames, MD2_BLEND_JOB.scales, MD2_BLEND_JOB.translates, MD2_BLEND_JOB.normalTable, MD2_BLEND_JOB.outPositions, MD2_BLEND_JOB.outNormals];
  const MD3_AT = [MD3_BLEND_JOB.xyzNormals, MD3_BLEND_JOB.normalTable, MD3_BLEND_JOB.outPositions, MD3_BLEND_JOB.outNormals];
  const skinWords = (j: SkinJob) => residentBuffers('skin', j, SKIN_AT, j.matrices, j.groupSizes, j.joints, j.weights, j.dest, j.out);
  const index = (v: number) => (Number.isInteger(v) && v >= 0 && v <= 0xffffffff ? v : 0xffffffff); // out of range → refused by the kernel
  const run = (ok: boolean, kernel: string, why?: string) => {
    if (!ok) refused(kernel, why);
  };

  const kernels: PoseKernels = {
    validateParents(j) {
      const u = job(), L = VALIDATE_PARENTS_JOB;
      put(u, L.parents, j.parents);
      return g.validate_parents(jobWords.ptr);
    },
    validateAnim(j) {
      const u = job(), L = VALIDATE_ANIM_JOB;
      put(u, L.flags, j.flags);
      put(u, L.startIndex, j.startIndex);
      put(u, L.baseframe, j.baseframe);
      u[L.componentCount] = index(j.componentCount);
      return g.validate_anim(jobWords.ptr);
    },
    validateSkin(j) {
      const u = job(), L = VALIDATE_SKIN_JOB;
      put(u, L.groupSizes, j.groupSizes);
      put(u, L.joints, j.joints);
      put(u, L.weights, j.weights);
      put(u, L.dest, j.dest);
      u[L.jointCount] = index(j.jointCount);
      return g.validate_skin(jobWords.ptr);
    },
    composeFrame(j) {
      const u = job(), L = COMPOSE_JOB;
      put(u, L.flags, j.flags);
      put(u, L.startIndex, j.startIndex);
      put(u, L.baseframe, j.baseframe);
      put(u, L.frames, j.frames);
      put(u, L.out, j.out);
      u[L.componentCount] = index(j.componentCount);
      u[L.frame] = index(j.frame);
      run(g.compose_frame(jobWords.ptr), 'composeFrame', `no frame ${j.frame}, or a buffer is too short`);
    },
    interpolateLocal(j) {
      const u = job(), f = floats, L = INTERPOLATE_JOB;
      put(u, L.a, j.a);
      put(u, L.b, j.b);
      put(u, L.out, j.out);
      f[L.t] = j.t;
      run(g.interpolate_local(jobWords.ptr), 'interpolateLocal');
    },
    localToObject(j) {
      const u = job(), L = LOCAL_TO_OBJECT_JOB;
      put(u, L.parents, j.parents);
      put(u, L.local, j.local);
      put(u, L.out, j.out);
      run(g.local_to_object(jobWords.ptr), 'localToObject');
    },
    poseMatrices(j) {
      const u = job(), L = MATRICES_JOB;
      put(u, L.object, j.object);
      put(u, L.out, j.out);
      run(g.pose_matrices(jobWords.ptr), 'poseMatrices');
    },
    skinPositions(j) {
      skinWords(j);
      run(g.skin_positions(jobWords.ptr), 'skinPositions');
    },
    skinNormals(j) {
      skinWords(j);
      run(g.skin_normals(jobWords.ptr), 'skinNormals');
    },
    skinFrames(j) {
      const u = job(), L = SKIN_FRAMES_JOB;
      const { anim: a, skin: s, scratch: sc } = j;
      if (!(Number.isInteger(j.frameCount) && j.frameCount >= 0 && j.frameCount <= j.frameIndices.length)) refused('skinFrames');
      put(u, L.parents, a.parents);
      put(u, L.flags, a.flags);
      put(u, L.startIndex, a.startIndex);
      put(u, L.baseframe, a.baseframe);
      put(u, L.frames, a.frames);
      put(u, L.groupSizes, s.groupSizes);
      put(u, L.joints, s.joints);
      put(u, L.weights, s.weights);
      put(u, L.dest, s.dest);
      put(u, L.frameIndices, j.frameIndices);
      u[L.frameIndices + 1] = j.frameCount;
      put(u, L.local, sc.local);
      put(u, L.object, sc.object);
      put(u, L.matrices, sc.matrices);
      put(u, L.out, j.out);
      u[L.componentCount] = index(a.componentCount);
      run(g.skin_frames(jobWords.ptr), 'skinFrames', 'a frame index is past the anim, or a buffer is too short');
    },
    md2Blend(j) {
      const u = residentBuffers('md2', j, MD2_AT, j.frames, j.scales, j.translates, j.normalTable, j.outPositions, j.outNormals), f = floats, L = MD2_BLEND_JOB; // floats after current(): a grown memory renews the views
      u[L.vertexCount] = index(j.vertexCount);
      u[L.outVertexOffset] = index(j.outVertexOffset);
      u[L.frameA] = index(j.frameA);
      u[L.frameB] = index(j.frameB);
      f[L.t] = j.t;
      run(g.md2_blend(jobWords.ptr), 'md2Blend', `no frames ${j.frameA}, ${j.frameB}, or a buffer is too short`);
    },
    md3Blend(j) {
      const u = residentBuffers('md3', j, MD3_AT, j.xyzNormals, j.normalTable, j.outPositions, j.outNormals), f = floats, L = MD3_BLEND_JOB; // floats after current(): a grown memory renews the views
      u[L.vertexCount] = index(j.vertexCount);
      u[L.outVertexOffset] = index(j.outVertexOffset);
      u[L.frameA] = index(j.frameA);
      u[L.frameB] = index(j.frameB);
      f[L.t] = j.t;
      run(g.md3_blend(jobWords.ptr), 'md3Blend', `no frames ${j.frameA}, ${j.frameB}, or a buffer is too short`);
    },
    transformVertices(j) {
      const u = job(), L = TRANSFORM_JOB;
      put(u, L.matrix, j.matrix);
      put(u, L.positions, j.positions);
      put(u, L.normals, j.normals);
      u[L.firstVertex] = index(j.firstVertex);
      u[L.vertexCount] = index(j.vertexCount);
      run(g.transform_vertices(jobWords.ptr), 'transformVertices', 'vertex range past the outputs, or a short matrix');
    },
  };

  return {
    name,
    memory,
    kernels,
    get disposed() {
      return disposed;
    },
    dispose() {
      if (disposed) return;
      for (const b of [...live]) free(b);
      free(jobWords as unknown as WasmBuffer<Typed>);
      jobFloats.released = true;
      disposed = true;
    },
  };
}

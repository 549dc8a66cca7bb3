/**
 * The WASM backend: kernels from `crates/wasm` over buffers in the module's linear memory. Each kernel call writes
 * its job descriptor (the word layout of `crates/wasm/src/jobs.rs`; the writers are generated into `wasm-jobs.ts`)
 * into a small block of linear memory and passes one pointer; nothing per vertex crosses the boundary.
 *
 * Two builds ship embedded in the bundle (base64, so one import works in browsers and Node with no fetch path or
 * fs): SIMD128 and scalar. `wasm` / `auto` picks SIMD when `WebAssembly.validate` accepts a tiny SIMD module, else
 * scalar. Instantiation is asynchronous (browsers forbid synchronous compiles of modules this size on the main
 * thread). Every backend made from one build shares its module instance; each backend owns its buffers and
 * frees them all on `dispose()`.
 */
import type * as SimdGlue from '../../wasm/simd/idtech_wasm.js';
import { disposedError, type KernelBuffer, type KernelMemory, type PoseBackend, type Typed } from './backend.js';
import { JOB_BLOCK_WORDS, wasmJobKernels } from './wasm-jobs.js';

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

import { wasmSimdSupported } from './simd-support.js';

export { wasmSimdSupported };

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
    jobs.forget(); // the job block may name it
    b.released = true;
    live.delete(b);
    g.dealloc(b.ptr, b.bytes);
  }

  const jobWords = make(Uint32Array, JOB_BLOCK_WORDS);
  live.delete(jobWords as unknown as WasmBuffer<Typed>); // the backend's own: freed last
  const jobFloats = new WasmBuffer(owner, wasmMemory, Float32Array, jobWords.ptr, JOB_BLOCK_WORDS);

  const memory: KernelMemory = {
    f32: (n) => make(Float32Array, n),
    u32: (n) => make(Uint32Array, n),
    i32: (n) => make(Int32Array, n),
    u8: (n) => make(Uint8Array, n),
    i16: (n) => make(Int16Array, n),
    u16: (n) => make(Uint16Array, n),
    release(buffer) {
      if (buffer instanceof WasmBuffer && buffer.owner === owner) free(buffer as WasmBuffer<Typed>);
    },
  };

  // The job block's views, re-made only when the memory has grown (no allocation per call).
  let words = jobWords.view;
  let floats = jobFloats.view;
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
  // The kernels and their job writers are generated from crates/wasm (scripts/gen-jobs.mjs → wasm-jobs.ts).
  const jobs = wasmJobKernels(g, {
    ptr: jobWords.ptr,
    words() {
      if (disposed) throw disposedError(`this ${name} backend`);
      if (words.byteLength === 0) {
        words = jobWords.view;
        floats = jobFloats.view;
      }
      return words;
    },
    floats: () => floats,
    put,
  });
  const kernels = jobs.kernels;

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

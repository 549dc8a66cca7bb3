/**
 * Bakes whose workers share one WebAssembly memory (`crates/threads`): the model goes into that memory once, each
 * worker instantiates the module on it with a stack of its own, and each skins its run of frames straight into one
 * output buffer there — the pool's result is a view on it, so nothing is copied out of a worker. (A pool whose
 * workers each have a module memory of their own, `task.ts`, copies every float once more: measured in
 * docs/benchmarks.md, "Bakes across cores"; the passes that got there in benchmarks-history.md.)
 *
 * This side runs on the pool's thread: it owns the memory's allocator (only it allocates: see the crate's notes),
 * validates the model as `Md5Poser` does, and writes each worker's job descriptor before the worker runs it.
 */
import type { Md5Anim, Md5Mesh } from '../base/model.js';
import { BASEFRAME_STRIDE, MATRIX_STRIDE, POSE_STRIDE, SKIN_FRAMES_JOB } from '../kernels/layout.js';
import { validateAnim, validateParents, validateSkin } from '../kernels/ts-kernels.js';
import { decodeBase64 } from '../kernels/wasm-backend.js';
import { animError, skinError } from '../pose/md5-poser.js';
import type { Md5SkinStream } from '../pose/skin-stream.js';
import type { CompiledModule, SharedInit, SharedMemory, ThreadsExports } from './shared-worker.js';

/** Frames a worker poses together before skinning them block by block (as `Md5Poser.bakeFrames`). */
const POSES_TOGETHER = 16;
/** Each worker's stack, reserved in the shared memory (the kernels' frames are small: this is ample). */
const STACK_BYTES = 256 * 1024;
/** Pages the memory starts with (at least the module's own minimum: its 1 MiB stack and its data). */
const INITIAL_PAGES = 64;
/** The module's declared maximum (linked with --max-memory=4 GiB): a shared memory cannot move, so it says it up front. */
const MAXIMUM_PAGES = 65536;


let compiled: Promise<CompiledModule> | null = null;

/** The threads module, compiled once per thread that asks (its bytes are a chunk of their own, loaded on first use). */
export function threadsModule(): Promise<CompiledModule> {
  compiled ??= import('../../wasm/threads/binary.js').then((m) => WebAssembly.compile(decodeBase64(m.default) as Uint8Array<ArrayBuffer>));
  return compiled;
}

/** Whether this runtime can share a WebAssembly memory with workers (threads and SIMD128 in the engine). */
export function sharedWasmMemorySupported(): boolean {
  try {
    new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    return true;
  } catch {
    return false;
  }
}

interface Block {
  ptr: number;
  bytes: number;
}

interface WorkerBlocks {
  job: Block;
  indices: Block;
  local: Block;
  object: Block;
  matrices: Block;
  stack: Block;
}

/** The model as the kernel reads it: every array typed as its job descriptor's buffer. */
interface KernelModel {
  parents: Int32Array;
  flags: Uint8Array;
  startIndex: Uint32Array;
  baseframe: Float32Array;
  frames: Float32Array;
  componentCount: number;
  groupSizes: Uint32Array;
  joints: Uint32Array;
  weights: Float32Array;
  /** Empty: grouped output order. */
  dest: Uint32Array;
}

export class SharedBake {
  readonly vertexCount: number;
  private readonly ex: ThreadsExports;
  private readonly blocks: Block[] = [];
  private readonly perWorker: WorkerBlocks[] = [];
  private out: Block = { ptr: 0, bytes: 0 };
  private disposed = false;

  /** Copies the model into the memory and writes each worker's job once: a bake then writes only its frames and output. */
  private constructor(
    readonly module: CompiledModule,
    readonly memory: SharedMemory,
    model: KernelModel,
    vertexCount: number,
    workers: number,
  ) {
    this.ex = new WebAssembly.Instance(module as WebAssembly.Module, { env: { memory: memory as WebAssembly.Memory } }).exports as unknown as ThreadsExports;
    if (this.ex.simd_enabled() !== 1) throw new Error('the threads wasm build reports no SIMD128');
    this.vertexCount = vertexCount;
    const upload = (a: Int32Array | Uint32Array | Float32Array | Uint8Array): [number, number] => {
      if (a.length === 0) return [0, 0];
      const b = this.alloc(a.byteLength);
      new (a.constructor as { new (buf: ArrayBufferLike, at: number, n: number): typeof a })(memory.buffer, b.ptr, a.length).set(a as never);
      return [b.ptr, a.length];
    };
    const L = SKIN_FRAMES_JOB;
    const inputs = (['parents', 'flags', 'startIndex', 'baseframe', 'frames', 'groupSizes', 'joints', 'weights', 'dest'] as const).map((k) => [L[k], ...upload(model[k])]);
    const J = model.parents.length;
    for (let w = 0; w < workers; w++) {
      const b: WorkerBlocks = {
        job: this.alloc(L.words * 4),
        indices: this.alloc(4),
        local: this.alloc(Math.max(1, J * POSE_STRIDE) * 4),
        object: this.alloc(Math.max(1, J * POSE_STRIDE) * 4),
        matrices: this.alloc(Math.max(1, POSES_TOGETHER * J * MATRIX_STRIDE) * 4),
        stack: this.alloc(STACK_BYTES),
      };
      this.perWorker.push(b);
      const u = this.jobWords(b);
      for (const [at, ptr, len] of inputs) put(u, at, ptr, len);
      put(u, L.local, b.local.ptr, J * POSE_STRIDE);
      put(u, L.object, b.object.ptr, J * POSE_STRIDE);
      put(u, L.matrices, b.matrices.ptr, POSES_TOGETHER * J * MATRIX_STRIDE);
      u[L.componentCount] = model.componentCount;
    }
  }

  /**
   * The model checked as `Md5Poser` checks it (parents, skin stream, anim: the same errors), then copied into a new
   * shared memory with room for `workers` workers.
   */
  static async create(mesh: Md5Mesh, anim: Md5Anim, stream: Md5SkinStream, order: 'file' | 'grouped', workers: number): Promise<SharedBake> {
    const J = mesh.joints.count;
    const model: KernelModel = {
      // Daemon composes with the anim's parents (RE_BuildSkeleton); they equal the mesh's unless the pair differs.
      parents: Int32Array.from(anim.parents),
      flags: Uint8Array.from(anim.flags),
      startIndex: Uint32Array.from(anim.startIndices),
      baseframe: Float32Array.from(anim.baseframe),
      frames: anim.frames,
      componentCount: anim.componentCount,
      groupSizes: stream.groupSizes,
      joints: stream.joints,
      weights: stream.weights,
      dest: order === 'file' ? stream.streamToFile : new Uint32Array(0),
    };
    const badParent = validateParents(model.parents);
    const badWeight = badParent >= 0 ? -1 : validateSkin(J, model.groupSizes, model.joints, model.weights.length, model.dest);
    const error = skinError(mesh, stream, badParent, badWeight);
    if (error) throw error;
    const bad = validateAnim(model.flags, model.startIndex, model.baseframe.length, model.componentCount);
    if (bad !== -1) throw animError(anim, bad);
    if (model.baseframe.length < J * BASEFRAME_STRIDE) throw animError(anim, -2);
    const module = await threadsModule();
    const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES, shared: true });
    return new SharedBake(module, memory, model, stream.vertexCount, workers);
  }

  /** The message that lets worker w join. */
  init(w: number): SharedInit {
    const s = this.perWorker[w].stack;
    return { type: 'init-shared', module: this.module, memory: this.memory, stackTop: s.ptr + s.bytes };
  }

  /** The output buffer, grown to `floats` (reused between bakes: a view on it is valid until the next bake). */
  output(floats: number): Float32Array {
    const bytes = Math.max(4, floats * 4);
    if (this.out.bytes < bytes) {
      if (this.out.ptr) this.free(this.out);
      this.out = this.alloc(bytes);
    }
    return new Float32Array(this.memory.buffer, this.out.ptr, floats);
  }

  /**
   * Worker w's job: `frames` posed and skinned into the output from frame slot `firstSlot` (the output has room:
   * `output` first). Returns the job's address, for the worker's `skin_frames`.
   */
  job(w: number, frames: ArrayLike<number>, firstSlot: number): number {
    const b = this.perWorker[w];
    if (b.indices.bytes < frames.length * 4) {
      this.free(b.indices);
      b.indices = this.alloc(frames.length * 4);
    }
    const idx = new Uint32Array(this.memory.buffer, b.indices.ptr, frames.length);
    for (let i = 0; i < frames.length; i++) idx[i] = frames[i];
    const u = this.jobWords(b), span = this.vertexCount * 3;
    put(u, SKIN_FRAMES_JOB.frameIndices, b.indices.ptr, frames.length);
    put(u, SKIN_FRAMES_JOB.out, this.out.ptr + firstSlot * span * 4, frames.length * span);
    return b.job.ptr;
  }

  /** The output's address (for a worker copying its run out into memory the caller owns). */
  get outputAddress(): number {
    return this.out.ptr;
  }

  /** Give the blocks back (the memory itself goes with its last holder). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const b of this.blocks.splice(0)) this.ex.dealloc(b.ptr, b.bytes);
  }

  /** A view on worker w's job descriptor (made after any allocation: a grown memory has a new buffer). */
  private jobWords(b: WorkerBlocks): Uint32Array {
    return new Uint32Array(this.memory.buffer, b.job.ptr, SKIN_FRAMES_JOB.words);
  }

  private alloc(bytes: number): Block {
    const ptr = this.ex.alloc(bytes);
    if (ptr === 0) throw new RangeError(`the shared bake memory cannot hold ${bytes} more bytes`);
    const b = { ptr, bytes };
    this.blocks.push(b);
    return b;
  }

  private free(b: Block): void {
    const i = this.blocks.indexOf(b);
    if (i >= 0) this.blocks.splice(i, 1);
    this.ex.dealloc(b.ptr, b.bytes);
  }
}

/** A buffer's words in a job descriptor: its address (0 for an empty one) and its length in elements. */
function put(u: Uint32Array, at: number, ptr: number, len: number): void {
  u[at] = len === 0 ? 0 : ptr;
  u[at + 1] = len;
}

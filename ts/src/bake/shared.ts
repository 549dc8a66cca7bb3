/**
 * Bakes whose workers share one WebAssembly memory (`crates/threads`): the model goes into that memory once, each
 * worker instantiates the module on it with a stack of its own, and each skins its run of frames straight into one
 * output buffer there — the pool's result is a view on it, so nothing is copied out of a worker. (A pool whose
 * workers each have a module memory of their own, `task.ts`, copies every float once more: measured in
 * docs/benchmarks.md, "Bakes across cores"; the passes that got there in benchmarks-history.md.)
 *
 * This side runs on the pool's thread: it owns the memory's allocator (only it allocates: see the crate's notes),
 * validates the model as its poser does (`Md5Poser`, `IqmPoser`), and writes each worker's job descriptor — MD5's
 * `SkinFramesJob` or IQM's `IqmSkinFramesJob`, whichever kind the bake is — before the worker runs it.
 */
import type { IqmModel, Md5Anim, Md5Mesh } from '../base/model.js';
import { BASEFRAME_STRIDE, IQM_BIND_JOB, IQM_BIND_STRIDE, IQM_CHANNELS, IQM_SKIN_FRAMES_JOB, LBS_MATRIX_STRIDE, MATRIX_STRIDE, POSE_STRIDE, SKIN_FRAMES_JOB } from '../kernels/layout.js';
import { validateLbs } from '../kernels/ts-iqm-kernels.js';
import { validateAnim, validateParents, validateSkin } from '../kernels/ts-kernels.js';
import { decodeBase64 } from '../kernels/wasm-backend.js';
import { iqmSkinError, iqmWeightsF32 } from '../pose/iqm-poser.js';
import { BAKE_RUN_FRAMES } from '../pose/bake-runs.js';
import { animError, skinError } from '../pose/md5-poser.js';
import type { Md5SkinStream } from '../pose/skin-stream.js';
import type { CompiledModule, SharedInit, SharedKernel, SharedMemory, ThreadsExports } from './shared-worker.js';

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
  stack: Block;
}

type Upload = Int32Array | Uint32Array | Float32Array | Uint8Array | Uint16Array;

/** What the pool's thread can do in the memory while a job kind writes its inputs (before any worker joins). */
interface SharedHeap {
  readonly ex: ThreadsExports;
  /** A copy of `a` in the memory: its address and element count (0, 0 for an empty one). */
  upload(a: Upload): [number, number];
  alloc(bytes: number): Block;
  /** The memory's current buffer (a grown memory has a new one). */
  buffer(): ArrayBufferLike;
}

/** A kind of bake job (the MD5 `SkinFramesJob`, the IQM `IqmSkinFramesJob`) as the shared bake writes it. */
interface SharedJobKind {
  /** The threads export a worker runs on its job. */
  kernel: SharedKernel;
  /** The job's word offsets (layout.ts): where the frame indices and the output go, and its size. */
  layout: { frameIndices: number; out: number; words: number };
  /** Buffer words every worker's job shares: [word, address, length]. */
  inputs: [number, number, number][];
  /** Each worker's own scratch: [word, floats]. */
  scratch: [number, number][];
  /** Integer words: [word, value]. */
  numbers: [number, number][];
}

/** The model as the MD5 kernel reads it: every array typed as its job descriptor's buffer. */
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
  private readonly kind: SharedJobKind;
  private out: Block = { ptr: 0, bytes: 0 };
  private disposed = false;

  /** Copies the model into the memory and writes each worker's job once: a bake then writes only its frames and output. */
  private constructor(
    readonly module: CompiledModule,
    readonly memory: SharedMemory,
    vertexCount: number,
    workers: number,
    describe: (heap: SharedHeap) => SharedJobKind,
  ) {
    this.ex = new WebAssembly.Instance(module as WebAssembly.Module, { env: { memory: memory as WebAssembly.Memory } }).exports as unknown as ThreadsExports;
    if (this.ex.simd_enabled() !== 1) throw new Error('the threads wasm build reports no SIMD128');
    this.vertexCount = vertexCount;
    const upload = (a: Upload): [number, number] => {
      if (a.length === 0) return [0, 0];
      const b = this.alloc(a.byteLength);
      new (a.constructor as { new (buf: ArrayBufferLike, at: number, n: number): typeof a })(memory.buffer, b.ptr, a.length).set(a as never);
      return [b.ptr, a.length];
    };
    const kind = (this.kind = describe({ ex: this.ex, upload, alloc: (bytes) => this.alloc(bytes), buffer: () => memory.buffer }));
    for (let w = 0; w < workers; w++) {
      const b: WorkerBlocks = { job: this.alloc(kind.layout.words * 4), indices: this.alloc(4), stack: this.alloc(STACK_BYTES) };
      this.perWorker.push(b);
      const scratch = kind.scratch.map(([at, floats]) => [at, this.alloc(Math.max(1, floats) * 4).ptr, floats] as const);
      const u = this.jobWords(b);
      for (const [at, ptr, len] of [...kind.inputs, ...scratch]) put(u, at, ptr, len);
      for (const [at, v] of kind.numbers) u[at] = v;
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
    const L = SKIN_FRAMES_JOB;
    return new SharedBake(module, memory, stream.vertexCount, workers, (heap) => ({
      kernel: 'skin_frames',
      layout: L,
      inputs: (['parents', 'flags', 'startIndex', 'baseframe', 'frames', 'groupSizes', 'joints', 'weights', 'dest'] as const).map((k) => [L[k], ...heap.upload(model[k])]),
      scratch: [[L.local, J * POSE_STRIDE], [L.object, J * POSE_STRIDE], [L.matrices, BAKE_RUN_FRAMES * J * MATRIX_STRIDE]],
      numbers: [[L.componentCount, model.componentCount]],
    }));
  }

  /**
   * An IQM mesh and the file whose frames it plays (paired and skinned: `BakePool.createIqm`, the one caller, checked
   * that), checked further as `IqmPoser` checks them (the same errors), then copied
   * into a new shared memory with room for `workers` workers; the bind matrices are made there by the threads
   * module's `iqm_bind` (the floats a WASM `IqmPoser` makes), and each worker runs `iqm_skin_frames`.
   */
  static async createIqm(mesh: IqmModel, animation: IqmModel, workers: number): Promise<SharedBake> {
    const J = mesh.joints.count, V = mesh.positions!.length / 3;
    const parents = Int32Array.from(mesh.joints.parents);
    const weights = iqmWeightsF32(mesh.blendWeights!).subarray(0, V * 4);
    const indices = mesh.blendIndexes!.subarray(0, V * 4);
    const badParent = validateParents(parents);
    const error = iqmSkinError(mesh, badParent, badParent >= 0 ? -1 : validateLbs(J, indices, new Uint8Array(0), weights));
    if (error) throw error;
    const module = await threadsModule();
    const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAXIMUM_PAGES, shared: true });
    const L = IQM_SKIN_FRAMES_JOB;
    return new SharedBake(module, memory, V, workers, (heap) => {
      const bind = heap.alloc(J * IQM_BIND_STRIDE * 4), invBind = heap.alloc(J * IQM_BIND_STRIDE * 4);
      const job = heap.alloc(IQM_BIND_JOB.words * 4);
      const b = IQM_BIND_JOB;
      const j = mesh.joints, parentsAt = heap.upload(parents);
      const words: [number, number, number][] = [[b.parents, ...parentsAt], [b.translate, ...heap.upload(j.translate)], [b.rotate, ...heap.upload(j.rotate)], [b.scale, ...heap.upload(j.scale)], [b.bind, bind.ptr, J * IQM_BIND_STRIDE], [b.invBind, invBind.ptr, J * IQM_BIND_STRIDE]];
      const v = new Uint32Array(heap.buffer(), job.ptr, b.words); // after the uploads: the memory may have grown
      for (const [at, ptr, len] of words) put(v, at, ptr, len);
      if (heap.ex.iqm_bind(job.ptr) !== 1) throw new RangeError('iqm_bind refused the joints: their arrays are shorter than the joint count');
      const p = animation.poses;
      return {
        kernel: 'iqm_skin_frames',
        layout: L,
        inputs: [
          [L.parents, ...parentsAt],
          [L.masks, ...heap.upload(p.masks)],
          [L.offsets, ...heap.upload(p.offsets)],
          [L.scales, ...heap.upload(p.scales)],
          [L.frames, ...heap.upload(animation.frames)],
          [L.bind, bind.ptr, J * IQM_BIND_STRIDE],
          [L.invBind, invBind.ptr, J * IQM_BIND_STRIDE],
          [L.positions, ...heap.upload(mesh.positions!)],
          [L.indices, ...heap.upload(indices)],
          [L.weightsF32, ...heap.upload(weights)],
        ],
        scratch: [[L.scratch, 2 * J * IQM_CHANNELS], [L.matrices, J * LBS_MATRIX_STRIDE]],
        numbers: [[L.animFrames, animation.frameCount], [L.frameChannels, animation.frameChannels]],
      };
    });
  }

  /** The message that lets worker w join. */
  init(w: number): SharedInit {
    const s = this.perWorker[w].stack;
    return { type: 'init-shared', module: this.module, memory: this.memory, stackTop: s.ptr + s.bytes, kernel: this.kind.kernel };
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
    const u = this.jobWords(b), span = this.vertexCount * 3, L = this.kind.layout;
    put(u, L.frameIndices, b.indices.ptr, frames.length);
    put(u, L.out, this.out.ptr + firstSlot * span * 4, frames.length * span);
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
    return new Uint32Array(this.memory.buffer, b.job.ptr, this.kind.layout.words);
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

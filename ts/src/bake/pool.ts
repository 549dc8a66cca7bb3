/**
 * Bakes across cores: the frames of one bake split into contiguous runs, one per worker, each worker posing and
 * skinning its run with the WASM kernels and writing it into one shared output, so the result is one Float32Array,
 * frame i's positions at [i · V · 3, (i + 1) · V · 3) — the same floats, in the same order, as `Md5Poser.bakeFrames`
 * (`BakePool.create`: an md5mesh and an md5anim) or `IqmPoser.bakeFrames` (`BakePool.createIqm`: an IQM mesh and the
 * file whose frames it plays) on one thread (tests compare them bit for bit).
 *
 * By default the workers share one WebAssembly memory (`shared.ts`): the output is a buffer in it, which `bakeView`
 * returns as it is and `bake` copies out (each worker its own frames). Where that build cannot run (another backend,
 * an engine without WebAssembly threads, `sharedMemory: false`) each worker has a backend of its own and copies its
 * frames into a SharedArrayBuffer (`mode` tells which).
 *
 * A pool is made once per model (the workers get the joints, the anim and the prepared skin stream once, in shared
 * memory, and never rebuild it) and bakes any number of times: a long bake, or a crowd posed frame after frame.
 * Where workers cannot share memory — a page that is not cross-origin isolated, or no Worker at all — the pool bakes
 * on this thread instead (`workers` is then 0) and says so in `fallback`.
 *
 * Workers come from `spawn`: in Node, `idtech-models/node`'s `BakePool` / `bakeFramesParallel` pass worker threads
 * running `dist/bake-worker.js`; in a browser the default is a module Web Worker on `./bake-worker.js` beside this
 * module when `crossOriginIsolated`.
 */
import { ModelParseError } from '../base/errors.js';
import type { IqmModel, Md5Anim, Md5Mesh } from '../base/model.js';
import type { BackendName } from '../kernels/backend.js';
import { createBackend } from '../kernels/select.js';
import { wasmSimdSupported } from '../kernels/wasm-backend.js';
import { IqmPoser, iqmAnimationError, iqmSkinned } from '../pose/iqm-poser.js';
import { Md5Poser, assertAnimMatchesMesh } from '../pose/md5-poser.js';
import { buildSkinStream, type Md5SkinStream } from '../pose/skin-stream.js';
import type { BakeEndpoint, BakeReply, BakeRequest } from './protocol.js';
import { SharedBake, sharedWasmMemorySupported } from './shared.js';

export type { BakeEndpoint } from './protocol.js';

export interface BakePoolOptions {
  /** Worker count (default: the machine's cores as the platform reports them, at least 1). */
  workers?: number;
  /** Kernels the workers run (default: `'wasm-simd'` where supported, else `'wasm-scalar'`). */
  backend?: BackendName;
  /** Output vertex order, as `Md5PoserOptions.order` (default `'file'`). */
  order?: 'file' | 'grouped';
  /** A skin stream built before (`buildSkinStream`): saves building it again. */
  stream?: Md5SkinStream;
  /** Starts one worker running `serveBakes` (see `bake-worker.ts`); null: bake on this thread. */
  spawn?: (() => BakeEndpoint) | null;
  /**
   * Whether workers may share one WebAssembly memory (default true; it needs the `wasm-simd` backend and an engine
   * with WebAssembly threads): they then skin straight into one output. False: each worker has a memory of its own
   * and copies its frames out (`mode` tells which a pool uses).
   */
  sharedMemory?: boolean;
}

/** How a pool bakes: workers sharing one WebAssembly memory, workers with a memory each, or this thread. */
export type BakeMode = 'shared-memory' | 'worker-memory' | 'this-thread';

/** Frames [first, end) of `count` for worker w of n: contiguous, sizes differing by at most one. */
export function frameRuns(count: number, workers: number): [number, number][] {
  const runs: [number, number][] = [];
  for (let w = 0; w < workers; w++) runs.push([Math.floor((w * count) / workers), Math.floor(((w + 1) * count) / workers)]);
  return runs;
}

const canShare = () => typeof SharedArrayBuffer === 'function' && (typeof Worker !== 'function' || (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === true);

/** Module Web Workers on `./bake-worker.js` beside this module, when the page can share memory with them. */
function defaultSpawn(): (() => BakeEndpoint) | null {
  if (typeof Worker !== 'function' || (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated !== true) return null;
  return () => {
    const worker = new Worker(new URL('./bake-worker.js', import.meta.url), { type: 'module' });
    return {
      post: (m) => worker.postMessage(m),
      listen: (onMessage, onError) => {
        worker.onmessage = (e: MessageEvent) => onMessage(e.data);
        worker.onerror = (e: ErrorEvent) => onError(new Error(`bake worker: ${e.message}`));
      },
      terminate: () => worker.terminate(),
    };
  };
}

/** A copy of `a` in shared memory (sent to every worker without copying again). */
function shared<T extends Uint32Array | Float32Array | Int32Array | Uint8Array | Uint16Array>(a: T): T {
  const C = a.constructor as { new (b: SharedArrayBuffer): T };
  const s = new C(new SharedArrayBuffer(a.byteLength));
  s.set(a as never);
  return s;
}

/** A poser baking on this thread (`Md5Poser`, `IqmPoser`). */
type FrameBaker = Pick<Md5Poser | IqmPoser, 'bakeFramesInto' | 'dispose' | 'backend'>;

/** One kind of bake (MD5, IQM) as `start` makes a pool for it. */
interface BakeKind {
  vertexCount: number;
  frameCount: number;
  /** A poser on this thread, for a pool without workers. */
  local(backend: BackendName): Promise<FrameBaker>;
  /** The model in a new shared memory, for workers that share it (throws where that cannot start). */
  shared(workers: number): Promise<SharedBake>;
  /** The init message for workers with a memory each. */
  copied(backend: BackendName): BakeRequest;
}

interface Member {
  endpoint: BakeEndpoint;
  pending: Map<number, { resolve: () => void; reject: (e: Error) => void }>;
}

export class BakePool {
  /** Workers baking; 0 when the pool bakes on this thread (see `fallback`). */
  readonly workers: number;
  readonly vertexCount: number;
  /** Why the pool bakes on this thread, or null when it uses workers. */
  readonly fallback: string | null;
  readonly mode: BakeMode;
  /** Why workers do not share one memory (null when they do, or when the pool bakes on this thread). */
  readonly sharedMemoryUnused: string | null;
  private readonly members: Member[];
  private readonly local: FrameBaker | null;
  private readonly shared: SharedBake | null;
  private readonly frameCount: number;
  private nextId = 0;
  private disposed = false;
  /** Bakes one after another (a shared-memory bake's jobs and output are reused by the next). */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(members: Member[], local: FrameBaker | null, shared: SharedBake | null, vertexCount: number, frameCount: number, fallback: string | null, sharedMemoryUnused: string | null) {
    this.members = members;
    this.local = local;
    this.shared = shared;
    this.workers = members.length;
    this.vertexCount = vertexCount;
    this.frameCount = frameCount;
    this.fallback = fallback;
    this.mode = local ? 'this-thread' : shared ? 'shared-memory' : 'worker-memory';
    this.sharedMemoryUnused = local || shared ? null : sharedMemoryUnused;
  }

  static async create(mesh: Md5Mesh, anim: Md5Anim, options: BakePoolOptions = {}): Promise<BakePool> {
    assertAnimMatchesMesh(mesh, anim);
    const order = options.order ?? 'file';
    const stream = options.stream ?? buildSkinStream(mesh);
    return BakePool.start(options, {
      vertexCount: stream.vertexCount,
      frameCount: anim.frameCount,
      async local(backend) {
        const poser = new Md5Poser(await createBackend(backend), mesh, { stream, order });
        poser.setAnim(anim);
        return poser;
      },
      shared: (workers) => SharedBake.create(mesh, anim, stream, order, workers),
      // What a worker with a memory of its own needs: the joints (not the vertices: the stream has them), the anim,
      // and the position stream in shared memory (normals are not baked, so their weights stay here).
      copied: (backend) => ({
        type: 'init',
        backend,
        order,
        mesh: { ...mesh, meshes: [] },
        anim: { ...anim, frames: shared(anim.frames) },
        stream: {
          ...stream,
          groupSizes: shared(stream.groupSizes), streamToFile: shared(stream.streamToFile), joints: shared(stream.joints), weights: shared(stream.weights),
          fileToStream: new Uint32Array(0), normalWeights: new Float32Array(0),
        },
      }),
    });
  }

  /**
   * A pool baking an IQM mesh's frames — its own, or those of an animation-only file it plays (`IqmPoser.setAnimation`'s
   * pairing) — each frame as `IqmPoser.bakeFrames` bakes it (positions, the file's vertex order). `order` and `stream`
   * are MD5's and are not used. Throws as `IqmPoser` does on a model it refuses, and a RangeError on a mesh without
   * skinning.
   */
  static async createIqm(mesh: IqmModel, animation: IqmModel = mesh, options: BakePoolOptions = {}): Promise<BakePool> {
    const mismatch = iqmAnimationError(mesh, animation);
    if (mismatch) throw mismatch;
    if (!iqmSkinned(mesh)) throw new RangeError('an IQM mesh without joints, blend indexes and weights has no frames to bake');
    // What a worker with a memory of its own needs: the vertices skinning reads and the skeleton, in shared memory
    // (sent to every worker without copying again); the rest of the file stays here.
    const slim = (m: IqmModel, vertices: boolean): IqmModel => ({
      ...m,
      text: new Uint8Array(0), vertexArrays: [], texcoords: null, normals: null, tangents: null, colors: null, triangles: new Uint32Array(0), adjacency: null, bounds: null, extensions: [],
      positions: vertices && m.positions ? shared(m.positions) : null,
      blendIndexes: vertices && m.blendIndexes ? shared(m.blendIndexes) : null,
      blendWeights: vertices && m.blendWeights ? shared(m.blendWeights) : null,
      frames: shared(m.frames),
    });
    return BakePool.start(options, {
      vertexCount: mesh.positions!.length / 3,
      frameCount: animation.frameCount,
      async local(backend) {
        const poser = new IqmPoser(await createBackend(backend), mesh, { normals: false });
        poser.setAnimation(animation);
        return poser;
      },
      shared: (workers) => SharedBake.createIqm(mesh, animation, workers),
      copied: (backend) => ({ type: 'init-iqm', backend, mesh: slim(mesh, true), animation: animation === mesh ? null : slim(animation, false) }),
    });
  }

  /** A pool for one kind of bake: on this thread, or workers sharing one memory, or workers with a memory each. */
  private static async start(options: BakePoolOptions, kind: BakeKind): Promise<BakePool> {
    const backend: BackendName = options.backend ?? (wasmSimdSupported() ? 'wasm-simd' : 'wasm-scalar');
    const count = Math.max(1, Math.floor(options.workers ?? defaultWorkers()));
    const spawn = options.spawn === undefined ? defaultSpawn() : options.spawn;
    const why = !spawn ? 'no worker that can share memory (a browser page must be cross-origin isolated)' : !canShare() ? 'SharedArrayBuffer is unavailable' : null;
    if (why) return new BakePool([], await kind.local(backend), null, kind.vertexCount, kind.frameCount, why, null);
    let sharedBake: SharedBake | null = null;
    let unshared: string | null = null;
    if (options.sharedMemory === false) unshared = 'sharedMemory: false';
    else if (backend !== 'wasm-simd') unshared = `the ${backend} backend (the shared-memory build is wasm-simd)`;
    else if (!sharedWasmMemorySupported()) unshared = 'no shared WebAssembly memory here';
    else {
      try {
        sharedBake = await kind.shared(count);
      } catch (e) {
        if (e instanceof ModelParseError) throw e; // the model, not the engine: every mode would refuse it
        unshared = `the shared-memory build did not start: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    const copied: BakeRequest | null = sharedBake ? null : kind.copied(backend);
    const init = (w: number): BakeRequest => sharedBake?.init(w) ?? copied!;
    const members: Member[] = [];
    const ready: Promise<void>[] = [];
    for (let w = 0; w < count; w++) {
      const endpoint = spawn!();
      const member: Member = { endpoint, pending: new Map() };
      members.push(member);
      ready.push(
        new Promise<void>((resolve, reject) => {
          member.pending.set(-1, { resolve, reject });
          endpoint.listen(
            (m) => {
              const r = m as BakeReply;
              const id = r.type === 'ready' ? -1 : r.id; // -1: the init (a failed init replies with id −1)
              const p = member.pending.get(id);
              if (!p) return;
              member.pending.delete(id);
              if (r.type === 'error') p.reject(new Error(`bake worker: ${r.message}`));
              else p.resolve();
            },
            (e) => {
              for (const p of member.pending.values()) p.reject(e);
              member.pending.clear();
            },
          );
        }),
      );
      endpoint.post(init(w));
    }
    const pool = new BakePool(members, null, sharedBake, kind.vertexCount, kind.frameCount, null, unshared);
    try {
      await Promise.all(ready);
    } catch (e) {
      pool.dispose();
      throw e;
    }
    return pool;
  }

  /**
   * Pose and skin `frames` (indices into the anim): frame i's positions at [i · V · 3, (i + 1) · V · 3) of the
   * result, which is `into` when given (a Float32Array on a SharedArrayBuffer, long enough: reuse one across bakes
   * to spare the allocation) or a new array. Workers sharing one memory copy their frames out of it into the
   * result; `bakeView` skips that copy.
   */
  async bake(frames: ArrayLike<number>, into?: Float32Array): Promise<Float32Array> {
    const n = this.checkFrames(frames);
    const span = this.vertexCount * 3;
    const need = n * span;
    if (into && (into.length < need || (this.members.length > 0 && !(into.buffer instanceof SharedArrayBuffer)))) {
      throw new RangeError(`into: need a Float32Array of ${need} floats${this.members.length > 0 ? ' on a SharedArrayBuffer' : ''}`);
    }
    if (this.local) return this.local.bakeFramesInto(frames, into ?? new Float32Array(need));
    const out = into ?? new Float32Array(new SharedArrayBuffer(need * 4));
    return this.serial(() => this.run(frames, out));
  }

  /**
   * The same bake, as a view on the pool's own output: where workers share one memory nothing is copied out of it
   * (as `Md5Poser.bakeFrames`, whose result is a view on its module's memory). The view is valid until the next bake
   * on this pool or its disposal: copy what you keep. Elsewhere it is `bake(frames)`'s new array.
   */
  async bakeView(frames: ArrayLike<number>): Promise<Float32Array> {
    this.checkFrames(frames);
    if (!this.shared) return this.bake(frames);
    return this.serial(() => this.run(frames, null));
  }

  private checkFrames(frames: ArrayLike<number>): number {
    if (this.disposed) throw new Error('this BakePool was disposed: create a new one');
    const n = frames.length;
    for (let i = 0; i < n; i++) {
      const f = frames[i];
      if (!Number.isInteger(f) || f < 0 || f >= this.frameCount) throw new RangeError(`frame ${f} is outside 0..${this.frameCount - 1}`);
    }
    return n;
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** One bake across the workers, into `out` (null: the shared output, returned as a view). */
  private async run(frames: ArrayLike<number>, out: Float32Array | null): Promise<Float32Array> {
    if (this.disposed) throw new Error('this BakePool was disposed: create a new one');
    const n = frames.length, span = this.vertexCount * 3, shared = this.shared;
    const view = shared ? shared.output(n * span) : null;
    const all = Uint32Array.from(frames);
    await Promise.all(
      frameRuns(n, this.members.length).map(([first, end], w) => {
        if (end === first) return undefined;
        const member = this.members[w];
        const id = this.nextId++;
        const run = all.slice(first, end);
        let request: BakeRequest;
        if (shared) {
          const job = shared.job(w, run, first);
          const copy = out ? { to: out.buffer as SharedArrayBuffer, at: out.byteOffset / 4 + first * span, from: shared.outputAddress + first * span * 4, floats: (end - first) * span } : null;
          request = { type: 'run', id, job, copy };
        } else {
          request = { type: 'bake', id, frames: run, out: out!.buffer as SharedArrayBuffer, offset: out!.byteOffset / 4 + first * span };
        }
        return new Promise<void>((resolve, reject) => {
          member.pending.set(id, { resolve, reject });
          member.endpoint.post(request);
        });
      }),
    );
    return out ?? view!;
  }

  /** Stop the workers (or free this thread's poser). Later bakes throw. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const m of this.members) {
      for (const p of m.pending.values()) p.reject(new Error('the BakePool was disposed'));
      m.endpoint.terminate();
    }
    if (this.local) {
      this.local.dispose();
      this.local.backend.dispose();
    }
    // After the workers stop: none runs a job on the memory being given back.
    this.shared?.dispose();
  }
}

function defaultWorkers(): number {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator;
  return nav?.hardwareConcurrency ?? 2;
}

/** One bake over a pool made for it and disposed after (make a `BakePool` to bake more than once). */
export async function bakeFramesParallel(mesh: Md5Mesh, anim: Md5Anim, frames: ArrayLike<number>, options: BakePoolOptions = {}): Promise<Float32Array> {
  const pool = await BakePool.create(mesh, anim, options);
  try {
    return await pool.bake(frames);
  } finally {
    pool.dispose();
  }
}

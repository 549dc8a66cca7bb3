/**
 * Bakes across cores: the frames of one bake split into contiguous runs, one per worker, each worker posing and
 * skinning its run with the WASM kernels and writing it into one shared output (a SharedArrayBuffer), so the
 * result is one Float32Array, frame i's positions at [i · V · 3, (i + 1) · V · 3) — the same floats, in the same
 * order, as `Md5Poser.bakeFrames` on one thread (a test compares them bit for bit).
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
import type { Md5Anim, Md5Mesh } from '../base/model.js';
import type { BackendName } from '../kernels/backend.js';
import { createBackend } from '../kernels/select.js';
import { wasmSimdSupported } from '../kernels/wasm-backend.js';
import { Md5Poser, assertAnimMatchesMesh } from '../pose/md5-poser.js';
import { buildSkinStream, type Md5SkinStream } from '../pose/skin-stream.js';
import type { BakeEndpoint, BakeReply } from './protocol.js';

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
}

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
function shared<T extends Uint32Array | Float32Array | Int32Array | Uint8Array>(a: T): T {
  const C = a.constructor as { new (b: SharedArrayBuffer): T };
  const s = new C(new SharedArrayBuffer(a.byteLength));
  s.set(a as never);
  return s;
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
  private readonly members: Member[];
  private readonly local: Md5Poser | null;
  private readonly frameCount: number;
  private nextId = 0;
  private disposed = false;

  private constructor(members: Member[], local: Md5Poser | null, vertexCount: number, frameCount: number, fallback: string | null) {
    this.members = members;
    this.local = local;
    this.workers = members.length;
    this.vertexCount = vertexCount;
    this.frameCount = frameCount;
    this.fallback = fallback;
  }

  static async create(mesh: Md5Mesh, anim: Md5Anim, options: BakePoolOptions = {}): Promise<BakePool> {
    assertAnimMatchesMesh(mesh, anim);
    const backend: BackendName = options.backend ?? (wasmSimdSupported() ? 'wasm-simd' : 'wasm-scalar');
    const order = options.order ?? 'file';
    const stream = options.stream ?? buildSkinStream(mesh);
    const count = Math.max(1, Math.floor(options.workers ?? defaultWorkers()));
    const spawn = options.spawn === undefined ? defaultSpawn() : options.spawn;
    const why = !spawn ? 'no worker that can share memory (a browser page must be cross-origin isolated)' : !canShare() ? 'SharedArrayBuffer is unavailable' : null;
    if (why) {
      const poser = new Md5Poser(await createBackend(backend), mesh, { stream, order });
      poser.setAnim(anim);
      return new BakePool([], poser, stream.vertexCount, anim.frameCount, why);
    }
    // What a worker needs: the joints (not the vertices: the stream has them), the anim, and the position stream
    // in shared memory (normals are not baked, so their weights stay here).
    const init = {
      type: 'init' as const,
      backend,
      order,
      mesh: { ...mesh, meshes: [] },
      anim: { ...anim, frames: shared(anim.frames) },
      stream: {
        ...stream,
        groupSizes: shared(stream.groupSizes), streamToFile: shared(stream.streamToFile), joints: shared(stream.joints), weights: shared(stream.weights),
        fileToStream: new Uint32Array(0), normalWeights: new Float32Array(0),
      },
    };
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
      endpoint.post(init);
    }
    const pool = new BakePool(members, null, stream.vertexCount, anim.frameCount, null);
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
   * to spare the allocation) or a new array.
   */
  async bake(frames: ArrayLike<number>, into?: Float32Array): Promise<Float32Array> {
    if (this.disposed) throw new Error('this BakePool was disposed: create a new one');
    const n = frames.length;
    for (let i = 0; i < n; i++) {
      const f = frames[i];
      if (!Number.isInteger(f) || f < 0 || f >= this.frameCount) throw new RangeError(`frame ${f} is outside 0..${this.frameCount - 1}`);
    }
    const span = this.vertexCount * 3;
    const need = n * span;
    if (into && (into.length < need || (this.members.length > 0 && !(into.buffer instanceof SharedArrayBuffer)))) {
      throw new RangeError(`into: need a Float32Array of ${need} floats${this.members.length > 0 ? ' on a SharedArrayBuffer' : ''}`);
    }
    if (this.local) {
      const out = into ?? new Float32Array(need);
      if (n > 0) out.set(this.local.bakeFrames(frames));
      return out;
    }
    const out = into ?? new Float32Array(new SharedArrayBuffer(need * 4));
    const all = Uint32Array.from(frames);
    await Promise.all(
      frameRuns(n, this.members.length).map(([first, end], w) => {
        if (end === first) return undefined;
        const member = this.members[w];
        const id = this.nextId++;
        return new Promise<void>((resolve, reject) => {
          member.pending.set(id, { resolve, reject });
          member.endpoint.post({ type: 'bake', id, frames: all.slice(first, end), out: out.buffer as SharedArrayBuffer, offset: out.byteOffset / 4 + first * span });
        });
      }),
    );
    return out;
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

/**
 * The main-thread side of the worker mode: parse, pose and skin run in a Web Worker (`dist/worker.js`), and
 * each pose comes back in buffers transferred to this thread (not copied). Pass a frame back to `pose` to
 * have its buffers refilled instead of allocated: they move to the worker and back.
 *
 * ```js
 * const w = ModelWorker.create();                 // dist/worker.js next to this module
 * const info = await w.open([{ name: 'drone.md5mesh', source: (await fetch(url)).body }, animFile]);
 * let frame = await w.pose(0);
 * frame = await w.pose(1, 2, 0.5, frame);         // refills frame's buffers (they are detached meanwhile)
 * ```
 *
 * The worker script is a file the page must be able to load (`idtech-models/worker`; docs/worker.md says how to
 * serve it with esbuild and Vite). When it cannot be loaded (a 404, an HTML fallback page, a syntax error), every
 * pending and every later call rejects with one error that says so, and so does `ready`.
 */
import { type ErrorCode, ModelParseError } from '../base/errors.js';
import type { BackendName } from '../kernels/backend.js';
import type { PlayableInfo } from '../playable/playable.js';
import type { PosedFrame, SerializedError, WorkerFile, WorkerReply, WorkerRequest, WorkerTextures } from './protocol.js';

export type { PosedFrame, WorkerFile, WorkerTextures };

type Progress = (bytesRead: number, bytesTotal: number | undefined, fileName: string) => void;
type Pending = { resolve: (r: Extract<WorkerReply, { type: 'done' }>) => void; reject: (e: Error) => void; onProgress?: Progress };

/** The worker's error as the same class, code and message it had there. */
function revive(e: SerializedError): Error {
  if (e.name === 'ModelParseError' && e.code && e.detail !== undefined) {
    const err = new ModelParseError(e.code as ErrorCode, e.detail, { offset: e.offset ?? 0, line: e.line, column: e.column });
    return e.file !== undefined ? err.inFile(e.file, e.pairedWith) : err;
  }
  const err = e.name === 'RangeError' ? new RangeError(e.message) : e.name === 'TypeError' ? new TypeError(e.message) : new Error(e.message);
  return err;
}

const isStream = (x: unknown): x is ReadableStream<Uint8Array> => typeof ReadableStream === 'function' && x instanceof ReadableStream;

let streamTransfer: boolean | undefined;
/** Whether this browser can transfer a ReadableStream through postMessage (Chromium and Firefox can). */
function streamsTransfer(): boolean {
  if (streamTransfer === undefined) {
    try {
      const s = new ReadableStream();
      const channel = new MessageChannel();
      channel.port1.postMessage(s, [s as unknown as Transferable]);
      channel.port1.close();
      channel.port2.close();
      streamTransfer = true;
    } catch {
      streamTransfer = false;
    }
  }
  return streamTransfer;
}

/**
 * `path` resolved against this module's URL, for messages only. Not written `new URL('…', import.meta.url)`: Vite
 * would take that for an asset and copy the worker script a second time.
 */
function besideThisModule(path: string): string {
  const base = import.meta.url;
  return new URL(path, base).href;
}

/**
 * What `ModelWorker` uses of a Web Worker; the DOM's `Worker` is one. Declared here so that the package's types
 * need no DOM lib: a Node project compiling with `lib: ["es2022"]` reads them as they are.
 */
export interface WorkerLike {
  postMessage(message: unknown, options?: { transfer?: unknown[] }): void;
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: { data?: unknown; message?: string }) => void): void;
  terminate(): void;
}

export class ModelWorker {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Set once the worker is unusable (its script did not load, it crashed, or it was terminated): every call rejects with it. */
  private failure: Error | null = null;
  private started = false;
  private markReady!: () => void;
  private markFailed!: (e: Error) => void;
  /** The script's URL when `create` made the worker (named in the load error). */
  private scriptUrl: string | undefined;
  /**
   * Resolves once the worker script has loaded and started; rejects with the load error when it could not load.
   * Calls need not wait for it (they queue until the worker starts), but awaiting it reports a missing script early.
   */
  readonly ready: Promise<void>;
  /** The backend the worker poses with (after `open` or `setBackend`). */
  backend: BackendName | null = null;

  /**
   * A worker from `url` (default: `worker.js` beside this module, i.e. `dist/worker.js`). Bundlers that copy
   * workers (Vite) recognise this `new Worker(new URL(…, import.meta.url))` form; with others pass a URL.
   */
  static create(url?: string | URL): ModelWorker {
    if (typeof Worker !== 'function') throw new Error('ModelWorker needs Web Workers (a browser, Deno or Bun); in Node, use openPlayable on this thread');
    const worker = url ? new Worker(url, { type: 'module' }) : new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    const w = new ModelWorker(worker);
    w.scriptUrl = url ? String(url) : besideThisModule('./worker.js');
    return w;
  }

  /** Wraps a worker running `idtech-models/worker`; pass it as soon as it is created, before its first event. */
  constructor(readonly worker: WorkerLike) {
    this.ready = new Promise<void>((resolve, reject) => {
      this.markReady = resolve;
      this.markFailed = reject;
    });
    this.ready.catch(() => {}); // a rejection nobody awaits is not an unhandled one: the calls report it too
    worker.addEventListener('message', (e) => this.receive(e.data as WorkerReply));
    worker.addEventListener('error', (e) => {
      // Before the worker's `ready` message an error event means its script never ran: the browser reports a failed
      // module fetch or evaluation with a bare Event (no message). After it, an uncaught error left the worker in an
      // unknown state; neither kind of worker will answer, so both end it.
      const script = this.scriptUrl ? ` ${this.scriptUrl}` : '';
      this.fail(
        this.started
          ? new Error(`the model worker failed: ${e.message || 'an uncaught error'}`)
          : new Error(
              `the model worker script${script} did not load${e.message ? ` (${e.message})` : ''}: a 404, an HTML page served in its place, or a syntax error. ` +
                'Serve the package\'s worker script (idtech-models/worker, node_modules/idtech-models/dist/worker.js) at that URL, or pass its URL to ModelWorker.create(url).',
            ),
      );
    });
    worker.addEventListener('messageerror', () => this.fail(new Error('the model worker sent a message that could not be read')));
  }

  /** Streams the files into the worker and opens them as one model (see `openPlayable`). */
  async open(files: WorkerFile[], options: { backend?: BackendName | 'auto'; onProgress?: Progress; textures?: WorkerTextures } = {}): Promise<PlayableInfo> {
    if (this.failure) throw this.failure; // before reading or transferring the caller's streams
    // Streams and byte buffers move to the worker (a Uint8Array's whole buffer: the caller's view is
    // detached); Blobs (Files) are passed by reference and read there.
    const transfer = new Set<Transferable>();
    for (const f of files) {
      if (f.source instanceof ArrayBuffer) transfer.add(f.source);
      else if (f.source instanceof Uint8Array) transfer.add(f.source.buffer as ArrayBuffer);
      else if (isStream(f.source)) transfer.add(f.source as unknown as Transferable);
    }
    let sent = files;
    if (!streamsTransfer() && files.some((f) => isStream(f.source))) {
      // Browsers that cannot transfer a ReadableStream: read it here, then move the bytes.
      sent = await Promise.all(files.map(async (f) => (isStream(f.source) ? { ...f, source: await new Response(f.source).arrayBuffer() } : f)));
      transfer.clear();
      for (const f of sent) if (f.source instanceof ArrayBuffer) transfer.add(f.source);
    }
    // A game folder URL is resolved against the page (the worker's own base is its script).
    const t = options.textures;
    const page = (globalThis as { location?: { href: string } }).location?.href;
    const textures = t?.url && page ? { ...t, url: new URL(t.url, page).href } : t;
    const r = await this.request({ type: 'open', files: sent, backend: options.backend ?? 'auto', ...(textures ? { textures } : {}) }, [...transfer], options.onProgress);
    this.backend = r.backend ?? null;
    return r.info!;
  }

  async setBackend(backend: BackendName | 'auto'): Promise<BackendName> {
    const r = await this.request({ type: 'backend', backend });
    return (this.backend = r.backend!);
  }

  async setClip(clip: number): Promise<void> {
    await this.request({ type: 'clip', clip });
  }

  /**
   * Frames `frame1` and `frame2` of the current clip blended by `t`. `reuse`: a frame from an earlier call whose
   * buffers the worker refills (they are transferred away meanwhile: do not read it after passing it).
   */
  async pose(frame1: number, frame2 = frame1, t = 0, reuse?: PosedFrame): Promise<PosedFrame> {
    const transfer = reuse ? [reuse.positions.buffer, reuse.normals.buffer] : [];
    const r = await this.request({ type: 'pose', frame1, frame2, t, positions: reuse?.positions, normals: reuse?.normals }, transfer);
    return r.frame!;
  }

  /** Stops the worker; pending and later calls reject. */
  terminate(): void {
    this.fail(new Error('the model worker was terminated'));
  }

  private request(body: DistributiveOmit<WorkerRequest, 'id'>, transfer: Transferable[] = [], onProgress?: Pending['onProgress']): Promise<Extract<WorkerReply, { type: 'done' }>> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      try {
        this.worker.postMessage({ ...body, id } as WorkerRequest, { transfer });
      } catch (e) {
        this.pending.delete(id); // e.g. a detached buffer in `transfer`: this call fails, the worker is fine
        reject(e);
      }
    });
  }

  private receive(reply: WorkerReply): void {
    if (reply.type === 'ready') {
      this.started = true;
      this.markReady();
      return;
    }
    const p = this.pending.get(reply.id);
    if (!p) return;
    if (reply.type === 'progress') {
      p.onProgress?.(reply.bytesRead, reply.bytesTotal, reply.fileName);
      return;
    }
    this.pending.delete(reply.id);
    if (reply.type === 'done') p.resolve(reply);
    else p.reject(revive(reply.error));
  }

  /** Ends the worker for good: `ready`, every pending call and every later call reject with `e`. */
  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    this.worker.terminate();
    this.markFailed(e);
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

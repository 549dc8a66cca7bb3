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
 */
import { type ErrorCode, ModelParseError } from '../base/errors.js';
import type { BackendName } from '../kernels/backend.js';
import type { PlayableInfo } from '../playable/playable.js';
import type { PosedFrame, SerializedError, WorkerFile, WorkerReply, WorkerRequest } from './protocol.js';

export type { PosedFrame, WorkerFile };

type Progress = (bytesRead: number, bytesTotal: number | undefined, fileName: string) => void;
type Pending = { resolve: (r: Extract<WorkerReply, { type: 'done' }>) => void; reject: (e: Error) => void; onProgress?: Progress };

/** The worker's error as the same class, code and message it had there. */
function revive(e: SerializedError): Error {
  if (e.name === 'ModelParseError' && e.code && e.detail !== undefined) {
    return new ModelParseError(e.code as ErrorCode, e.detail, { offset: e.offset ?? 0, line: e.line, column: e.column });
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

export class ModelWorker {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** The backend the worker poses with (after `open` or `setBackend`). */
  backend: BackendName | null = null;

  /**
   * A worker from `url` (default: `worker.js` beside this module, i.e. `dist/worker.js`). Bundlers that copy
   * workers (Vite) recognise this `new Worker(new URL(…, import.meta.url))` form; with others pass a URL.
   */
  static create(url?: string | URL): ModelWorker {
    const worker = url ? new Worker(url, { type: 'module' }) : new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    return new ModelWorker(worker);
  }

  constructor(readonly worker: Worker) {
    worker.addEventListener('message', (e: MessageEvent<WorkerReply>) => this.receive(e.data));
    worker.addEventListener('error', (e: ErrorEvent) => this.failAll(new Error(`worker failed: ${e.message || 'could not load the worker script'}`)));
  }

  /** Streams the files into the worker and opens them as one model (see `openPlayable`). */
  async open(files: WorkerFile[], options: { backend?: BackendName | 'auto'; onProgress?: Progress } = {}): Promise<PlayableInfo> {
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
    const r = await this.request({ type: 'open', files: sent, backend: options.backend ?? 'auto' }, [...transfer], options.onProgress);
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

  terminate(): void {
    this.worker.terminate();
    this.failAll(new Error('the worker was terminated'));
  }

  private request(body: DistributiveOmit<WorkerRequest, 'id'>, transfer: Transferable[] = [], onProgress?: Pending['onProgress']): Promise<Extract<WorkerReply, { type: 'done' }>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.worker.postMessage({ ...body, id } as WorkerRequest, { transfer });
    });
  }

  private receive(reply: WorkerReply): void {
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

  private failAll(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

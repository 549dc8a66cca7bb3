/**
 * The page's side of its worker (`worker.ts`): requests by type, each a promise of its reply, with its progress
 * reported as it comes, and `abort`. The worker script sits beside the page's script (one folder in dist/), loaded as
 * a module worker.
 */
import type { Replies, Reply, Request } from './protocol.js';

export type Progress = (done: number, total: number | null, what: string) => void;

/** A worker's failure, rebuilt on this side: its name, code (a ModelParseError's) and message. */
export class WorkerError extends Error {
  constructor(
    name: string,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = name;
  }
}

export class ViewerWorker {
  private readonly worker: Worker;
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void; progress?: Progress }>();

  constructor(url: URL) {
    this.worker = new Worker(url, { type: 'module' });
    this.worker.addEventListener('message', (e: MessageEvent<Reply>) => {
      const r = e.data;
      const p = this.pending.get(r.id);
      if (!p) return;
      if (r.type === 'progress') p.progress?.(r.done, r.total, r.what);
      else {
        this.pending.delete(r.id);
        if (r.type === 'done') p.resolve(r.result);
        else p.reject(new WorkerError(r.error.name, r.error.message, r.error.code));
      }
    });
    this.worker.addEventListener('error', (e) => {
      const err = new WorkerError('Error', `the page's worker failed: ${e.message || 'its script did not load'}`);
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    });
  }

  /** Sends `req`; the promise settles with the worker's reply. `id` names it for `abort`. */
  request<T extends Request['type']>(req: Extract<Request, { type: T }>, progress?: Progress, transfer: Transferable[] = []): { id: number; reply: Promise<Replies[T]> } {
    const id = this.next++;
    const reply = new Promise<Replies[T]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, progress });
      this.worker.postMessage({ ...req, id }, transfer);
    });
    return { id, reply };
  }

  abort(id: number): void {
    void this.request({ type: 'abort', id }).reply.catch(() => undefined);
  }
}

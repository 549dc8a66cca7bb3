/**
 * Which job each worker of `convert --all` runs next (batch.ts). Two rules:
 * - **biggest first** (longest-processing-time order): a large player or md5mesh started last would leave the other
 *   workers idle at the end;
 * - **one home per kind**: each kind of model (a format's id) is given to one worker, which takes its own kinds'
 *   jobs first and only then the others' (biggest first too, from the queue with the most bytes left). A worker
 *   thread is a V8 isolate of its own that compiles the code it runs; most of that code is one format's (its parser,
 *   its exporter), so a worker that converts every kind compiles every format's code again. On the bench archive
 *   (bench/batch.mjs) the MD5 path alone cost as much compiling as converting (docs/benchmarks.md, "Batch").
 *
 * Kinds are shared out greedily by their bytes (the largest kind to the worker with the fewest bytes so far). Bytes
 * are only an estimate of the work (an MD2 takes longer per byte than an md5mesh): taking from other queues once
 * a worker's own are done evens out what the estimate misses. Plain data in and out; no threads here.
 */
export interface QueuedJob {
  kind: string;
  /** Source bytes: the estimate of its work. */
  size: number;
}

export class BatchQueue<J extends QueuedJob> {
  /** Per worker: its jobs, biggest first, taken from the front. */
  private readonly queues: J[][];
  private readonly heads: number[];
  private readonly bytesLeft: number[];

  constructor(jobs: readonly J[], workers: number) {
    if (!(Number.isInteger(workers) && workers >= 1)) throw new RangeError(`workers: expected a whole number ≥ 1, got ${workers}`);
    const byKind = new Map<string, number>();
    for (const j of jobs) byKind.set(j.kind, (byKind.get(j.kind) ?? 0) + j.size);
    const load = new Array<number>(workers).fill(0);
    const home = new Map<string, number>();
    // Largest kind first, each to the least-loaded worker (ties: the lower index); names break ties between kinds
    // so the split does not depend on the catalog's order.
    for (const [kind, bytes] of [...byKind].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
      const w = load.indexOf(Math.min(...load));
      home.set(kind, w);
      load[w] += bytes;
    }
    this.queues = Array.from({ length: workers }, () => []);
    for (const j of jobs) this.queues[home.get(j.kind)!].push(j);
    for (const q of this.queues) q.sort((a, b) => b.size - a.size);
    this.heads = new Array<number>(workers).fill(0);
    this.bytesLeft = load;
  }

  /** Jobs not yet handed out. */
  get remaining(): number {
    return this.queues.reduce((n, q, i) => n + q.length - this.heads[i], 0);
  }

  /** The next job for `worker`: its own queue's biggest, else the biggest of the queue with the most bytes left. */
  next(worker: number): J | undefined {
    let q = worker;
    if (this.heads[q] >= this.queues[q].length) {
      q = -1;
      for (let i = 0; i < this.queues.length; i++) if (this.heads[i] < this.queues[i].length && (q < 0 || this.bytesLeft[i] > this.bytesLeft[q])) q = i;
      if (q < 0) return undefined;
    }
    const job = this.queues[q][this.heads[q]++];
    this.bytesLeft[q] -= job.size;
    return job;
  }

  /** Puts back a job that was handed out but not run (its worker died with it queued): it goes out next. */
  putBack(job: J, worker: number): void {
    const q = this.queues[worker];
    if (this.heads[worker] > 0) q[--this.heads[worker]] = job;
    else q.unshift(job);
    this.bytesLeft[worker] += job.size;
  }
}

/**
 * The worker threads of `convert --all` (batch.ts): dist/cli.js started again as each worker (it serves jobs when
 * not on the main thread: batch-worker.ts), each opening the input itself.
 *
 * - **Started first**: `startBatchPool` is called before the main thread reads the catalog, so the workers load the
 *   CLI's code and open the input while it does (a worker's start-up is a new V8 isolate, Node's bootstrap and
 *   ~0.5 MB of script).
 * - **Three jobs held**: the one a worker is writing, the one it converts meanwhile (batch-worker.ts) and its next,
 *   sent while it runs the others, so it never waits for the main thread to be scheduled between jobs (with every
 *   core converting, the main thread is the third thread).
 * - **What runs where** is the BatchQueue's (batch-queue.ts): biggest first, each kind of model at home on one worker.
 *
 * A worker that dies (out of memory …) fails the job it was converting (its last `{ started }`); the others it held
 * (not started, or converted but their file not yet written) are put back for the other workers. Workers that get no
 * job are terminated.
 */
import { Worker } from 'node:worker_threads';
import { cliEntry } from '../entry.js';
import { limitsForWorker } from '../limits.js';
import { failedResult, type BatchJob, type BatchMessage, type BatchResult } from './batch-job.js';
import { type BatchQueue } from './batch-queue.js';

/** Jobs a worker holds at once: the one it writes, the one it converts and the next. */
const AHEAD = 3;

export type QueuedBatchJob = BatchJob & { size: number };

export interface BatchPool {
  /** Runs every job of `queue`; `onResult` as each finishes. Resolves when all are done and the workers are gone. */
  run(queue: BatchQueue<QueuedBatchJob>, onResult: (r: BatchResult) => void): Promise<void>;
  /** Ends the workers without running anything (nothing to convert, or the input could not be read). */
  close(): Promise<void>;
  readonly size: number;
}

/**
 * Starts `threads` workers on `input`. `script` is what they run: the CLI's entry (dist/cli.js), which serves jobs
 * when started as a worker (run.ts, entry.ts); tests give one of their own.
 */
export function startBatchPool(input: string, threads: number, script: string | URL = cliEntry()): BatchPool {
  const workers = Array.from({ length: threads }, () => new Worker(script, { workerData: { input, limits: limitsForWorker() } }));
  // Until run() attaches its handlers: a worker that fails to start is seen there ('exit' after 'error').
  const early = workers.map((w) => {
    const state = { error: undefined as unknown, exited: false };
    w.on('error', (e) => (state.error ??= e));
    w.once('exit', () => (state.exited = true));
    return state;
  });
  const close = async () => {
    await Promise.all(workers.map((w) => w.terminate()));
  };

  async function run(queue: BatchQueue<QueuedBatchJob>, onResult: (r: BatchResult) => void): Promise<void> {
    const held: QueuedBatchJob[][] = workers.map(() => []);
    /** Per worker: the id of the job it is converting (started, no result yet). */
    const converting: (number | undefined)[] = workers.map(() => undefined);
    const alive = workers.map((_, i) => !early[i].exited);
    let lastError: unknown = early.find((s) => s.error !== undefined)?.error;
    /**
     * Sends each live worker jobs until it holds AHEAD. A worker holding none is let go once no job is left to hand
     * out and no worker holds one besides the one it converts (a worker that dies puts those back).
     */
    const pump = () => {
      for (let i = 0; i < workers.length; i++) {
        while (alive[i] && held[i].length < AHEAD) {
          const job = queue.next(i);
          if (!job) break;
          held[i].push(job);
          workers[i].postMessage(job satisfies BatchJob);
        }
      }
      if (queue.remaining > 0 || held.some((h, i) => h.some((j) => j.id !== converting[i]))) return;
      for (let i = 0; i < workers.length; i++) {
        if (alive[i] && held[i].length === 0) {
          alive[i] = false;
          workers[i].postMessage(null);
        }
      }
    };
    const done = workers.map(
      (w, i) =>
        new Promise<void>((resolve) => {
          if (!alive[i]) return resolve();
          w.on('message', (m: BatchMessage) => {
            if ('started' in m) {
              converting[i] = m.started;
              return;
            }
            held[i] = held[i].filter((j) => j.id !== m.id);
            if (converting[i] === m.id) converting[i] = undefined;
            onResult(m);
            pump();
          });
          // Dead (out of memory …): the job it was converting failed; the others it held go to the other workers.
          const lost = (e: unknown) => {
            lastError = e;
            alive[i] = false;
            const jobs = held[i].splice(0);
            const failed = jobs.find((j) => j.id === converting[i]);
            if (failed) onResult(failedResult(failed.id, failed.path, e));
            for (const job of jobs.filter((j) => j !== failed).reverse()) queue.putBack(job, i);
            pump();
          };
          w.on('error', lost);
          w.once('exit', (code) => {
            if (held[i].length) lost(new Error(`worker thread exited with code ${code}`));
            alive[i] = false;
            resolve();
          });
        }),
    );
    pump();
    // Workers let go before they got anything (fewer jobs than threads) need not finish starting.
    await Promise.all(workers.map((w, i) => (held[i].length === 0 && !alive[i] ? w.terminate() : undefined)));
    await Promise.all(done);
    // Every worker gone with jobs never run (none could start): each fails with the last worker's error.
    for (let job = queue.next(0); job; job = queue.next(0)) onResult(failedResult(job.id, job.path, lastError ?? new Error('no worker could start')));
  }

  return { run, close, size: threads };
}

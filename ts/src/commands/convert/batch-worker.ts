/**
 * The worker-thread side of `convert --all`: dist/cli.js started as a worker (batch-pool.ts) runs this instead of the
 * command line (run.ts): it opens the input once (`workerData.input`: an archive or a game folder), then converts the
 * jobs it is sent one after the other, in the order sent (it is sent the next while it runs one); `null` closes it.
 * One bundle serves both sides, so the installed CLI needs no second script. Workers read the package's own formats
 * (a format given to `main` in-process cannot cross to a thread).
 *
 * - **`{ started: id }`** goes to the pool as a job's converting begins, so a worker that dies fails the job it was
 *   converting and no other (batch-pool.ts).
 * - **A job's write goes on while the next converts**: writing a .glb (folders, a temporary file, a rename) is the
 *   thread waiting for the disk, 0.28 s of every 2.9 s on the bench archive. At most one write is in flight (one
 *   extra .glb held), and results are posted in the order the jobs came, each once its file is in place.
 *
 * Kept for the worker's life: the opened input and one MaterialResolver (shader scripts are read on the first model
 * that needs them, once).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { setResourceLimits, type ResourceLimits } from '../../base/resource-limits.js';
import { MaterialResolver } from '../../materials/resolver.js';
import { DEFAULT_FORMATS } from '../../registry/formats.js';
import { openContainer } from '../inputs.js';
import { convertJob, failedResult, writeJob, type BatchJob, type BatchMessage, type BatchResult } from './batch-job.js';

export function serveBatchJobs(): void {
  const port = parentPort!;
  const post = (m: BatchMessage) => port.postMessage(m);
  const { input, limits } = workerData as { input: string; limits?: ResourceLimits };
  if (limits) setResourceLimits(limits); // the command's --limit values (limits.ts)
  const opened = openContainer(input);
  opened.catch(() => {}); // seen by each job (failed with the input's error); not an unhandled rejection before the first
  let resolver: MaterialResolver | undefined;
  const waiting: (BatchJob | null)[] = [];
  let running = false;
  /** Settles once the last job's result is posted (its write done). */
  let posted: Promise<void> = Promise.resolve();
  const drain = async () => {
    running = true;
    while (waiting.length) {
      const job = waiting.shift()!;
      if (job === null) {
        await posted;
        await (await opened.catch(() => null))?.close();
        port.close();
        return;
      }
      post({ started: job.id });
      let result: Promise<BatchResult>;
      try {
        const fs = await opened;
        resolver ??= new MaterialResolver(fs);
        const converted = await convertJob(fs, job, DEFAULT_FORMATS, resolver);
        result = 'glb' in converted ? writeJob(job, converted) : Promise.resolve(converted);
      } catch (e) {
        result = Promise.resolve(failedResult(job.id, job.path, e));
      }
      const before = posted;
      posted = Promise.all([result, before]).then(([r]) => post(r));
      // The write before this one must be done before the next job converts: one write in flight, not a queue.
      await before;
    }
    running = false;
  };
  port.on('message', (job: BatchJob | null) => {
    waiting.push(job);
    if (!running) void drain();
  });
}

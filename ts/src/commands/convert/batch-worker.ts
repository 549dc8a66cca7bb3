/**
 * The worker-thread side of `convert --all`: dist/cli.js started as a worker (batch-pool.ts) runs this instead of the
 * command line (run.ts): it opens the input once (`workerData.input`: an archive or a game folder), then runs the
 * jobs it is sent one after the other, in the order sent (it is sent the next while it runs one), answering each
 * with its result; `null` closes it. One bundle serves both sides, so the installed CLI needs no second script.
 * Workers read the package's own formats (a format given to `main` in-process cannot cross to a thread).
 *
 * Kept for the worker's life: the opened input and one MaterialResolver (shader scripts are read on the first model
 * that needs them, once).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { setResourceLimits, type ResourceLimits } from '../../base/resource-limits.js';
import { MaterialResolver } from '../../materials/resolver.js';
import { DEFAULT_FORMATS } from '../../registry/formats.js';
import { openContainer } from '../inputs.js';
import { failure, runJob, type BatchJob } from './batch-job.js';

export function serveBatchJobs(): void {
  const port = parentPort!;
  const { input, limits } = workerData as { input: string; limits?: ResourceLimits };
  if (limits) setResourceLimits(limits); // the command's --limit values (limits.ts)
  const opened = openContainer(input);
  opened.catch(() => {}); // seen by each job (failed with the input's error); not an unhandled rejection before the first
  let resolver: MaterialResolver | undefined;
  const waiting: (BatchJob | null)[] = [];
  let running = false;
  const drain = async () => {
    running = true;
    while (waiting.length) {
      const job = waiting.shift()!;
      if (job === null) {
        await (await opened.catch(() => null))?.close();
        port.close();
        return;
      }
      try {
        const fs = await opened;
        resolver ??= new MaterialResolver(fs);
        port.postMessage(await runJob(fs, job, DEFAULT_FORMATS, resolver));
      } catch (e) {
        port.postMessage({ id: job.id, ok: false, bytes: 0, warnings: [], ...failure(job.path, e) });
      }
    }
    running = false;
  };
  port.on('message', (job: BatchJob | null) => {
    waiting.push(job);
    if (!running) void drain();
  });
}

/**
 * The worker-thread side of `convert --all`: dist/cli.js started as a worker (batch.ts) runs this instead of the
 * command line (main.ts): it opens the input once (`workerData.input`: an archive or a game folder), then runs
 * each job it is sent and answers with its result; `null` closes it. One bundle serves both sides, so the
 * installed CLI needs no second script. Workers read the package's own formats (a format given to `main` in-process
 * cannot cross to a thread).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { MaterialResolver } from '../../materials/index.js';
import { DEFAULT_FORMATS } from '../../registry/formats.js';
import { openContainer } from '../inputs.js';
import { failure, runJob, type BatchJob } from './batch-job.js';

export function serveBatchJobs(): void {
  const port = parentPort!;
  const opened = openContainer((workerData as { input: string }).input);
  let resolver: MaterialResolver | undefined; // one per worker: shader scripts are read once
  port.on('message', async (job: BatchJob | null) => {
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
  });
}

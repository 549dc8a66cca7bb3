/**
 * The worker side of `convert --all`: dist/cli.js started as a child process by the pool (batch-pool.ts) with
 * `--serve-batch-jobs` runs this instead of the command line (run.ts). Its first message on the IPC channel names the
 * input (an archive or a game folder) and the resource limits; it opens the input once, then converts the jobs it is
 * sent one after the other, in the order sent (it is sent the next while it runs one); `null` ends it, and so does
 * the pool going away (the channel closes). One bundle serves both sides, so the installed CLI needs no second
 * script. Workers read the formats `serveBatchJobs` is given: the package's own from dist/cli.js; a CLI built with formats of its own (a script calling `main(argv, { formats })`) passes the same list here (a format given to `main` in-process cannot cross to a process).
 *
 * - **`{ started: id }`** goes to the pool as a job's converting begins, so a worker that dies fails the job it was
 *   converting and no other, and the pool's clock for that model starts (batch-pool.ts).
 * - **A job's write goes on while the next converts**: writing a .glb (folders, a temporary file, a rename) is the
 *   process waiting for the disk, 0.28 s of every 2.9 s on the bench archive. At most one write is in flight (one
 *   extra .glb held), and results are posted in the order the jobs came, each once its file is in place.
 *
 * Kept for the worker's life: the opened input and one MaterialResolver (shader scripts are read on the first model
 * that needs them, once).
 *
 * Test-only: with the environment variable `IDTECH_MODELS_TEST_BATCH_HANG` set to a model's inner path, a worker that
 * starts that model spins forever instead (a loop that never returns to the event loop, the worst case for the time
 * budget), so the CLI tests can show the budget ending a model that never ends without racing a real model against a
 * clock. Unset (always, outside those tests) it does nothing.
 */
import { setResourceLimits, DEFAULT_FORMATS, type FormatEntry } from '../../node.js';
import { MaterialResolver } from '../../textures.js';
import { openContainer } from '../inputs.js';
import { convertJob, failedResult, writeJob, type BatchJob, type BatchMessage, type BatchResult } from './batch-job.js';
import { type BatchWorkerInit } from './batch-pool.js';

/** See the file comment: a test's model that never ends. */
const TEST_HANG = 'IDTECH_MODELS_TEST_BATCH_HANG';

/** Serves the pool's jobs, reading `formats` (a CLI built with formats of its own passes them, as it passes them to `main`). */
export function serveBatchJobs(formats: readonly FormatEntry[] = DEFAULT_FORMATS): void {
  const post = (m: BatchMessage) => process.send!(m);
  // The pool gone (it ended, or was killed): nothing is left to serve.
  process.on('disconnect', () => process.exit(0));
  process.once('message', (init: BatchWorkerInit) => serve(init, post, formats));
  post({ ready: true });
}

function serve({ input, limits }: BatchWorkerInit, post: (m: BatchMessage) => void, formats: readonly FormatEntry[]): void {
  setResourceLimits(limits); // the command's --limit values (limits.ts)
  const hang = process.env[TEST_HANG];
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
        process.exit(0); // every result was received: the pool sends null only to a worker holding no job
      }
      post({ started: job.id });
      if (hang !== undefined && job.path === hang) for (;;) {}
      let result: Promise<BatchResult>;
      try {
        const fs = await opened;
        resolver ??= new MaterialResolver(fs);
        const converted = await convertJob(fs, job, formats, resolver);
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
  process.on('message', (job: BatchJob | null) => {
    waiting.push(job);
    if (!running) void drain();
  });
}

/**
 * The `idtech-models` executable (dist/cli.js): runs the command line, or — started again as a worker process by
 * `convert --all` (commands/convert/batch-pool.ts) — serves that batch's jobs. `main.ts` holds the command line itself,
 * importable without running it (tests run commands in-process with formats of their own).
 */
import { fileURLToPath } from 'node:url';
import { SERVE_BATCH_JOBS, setCliEntry } from '../commands/entry.js';
import { main } from './main.js';
import { guardTerminalOutput } from '../commands/terminal.js';

// Started as a worker process by `convert --all` (batch-pool.ts), with an IPC channel: serve its jobs instead.
setCliEntry(fileURLToPath(import.meta.url));
if (process.argv[2] === SERVE_BATCH_JOBS && process.send) void import('../commands/convert/batch-worker.js').then((m) => m.serveBatchJobs());
else {
  guardTerminalOutput(); // every line printed from here on is escaped (terminal.ts)
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`idtech-models: internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exitCode = 70;
    },
  );
}

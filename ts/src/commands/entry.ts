/**
 * The CLI's entry script (dist/cli.js), which `convert --all` starts again as each worker process, with
 * {@link SERVE_BATCH_JOBS} (batch-pool.ts; run.ts then serves jobs). main.ts names it here: batch.ts is bundled into a chunk of its own, whose `import.meta.url`
 * is that chunk, not the entry.
 */
let entry: string | undefined;

/** Called once by main.ts with its own path. */
export function setCliEntry(path: string): void {
  entry = path;
}

/** The entry script's path; throws when the CLI was not started through main.ts. */
export function cliEntry(): string {
  if (entry === undefined) throw new Error('idtech-models: batch workers need the CLI entry (started through main.ts)');
  return entry;
}

/** The argument dist/cli.js is started with as a batch worker (a child process with an IPC channel): it serves jobs. */
export const SERVE_BATCH_JOBS = '--serve-batch-jobs';

/**
 * Child processes awaited, not waited for: `spawnSync` and `execFileSync` hold the test worker's event loop for as long
 * as the child runs, and a loop held past vitest's 60 s RPC timeout fails the run (helpers/loop-turn.ts). These
 * resolve when the child exits, with what `spawnSync(…, { encoding: 'utf8' })` and `execFileSync` give.
 */
import { spawn } from 'node:child_process';

export interface ChildOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Written to the child's stdin, which is then closed (without it, stdin is /dev/null). */
  input?: string | Uint8Array;
}

/** What `spawnSync(…, { encoding: 'utf8' })` returns, as far as the tests read it. */
export interface ChildResult {
  /** The exit code; null when a signal ended the child or it did not start. */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Set when the child could not be started (ENOENT, …). */
  error?: Error;
}

/** `command ARGS…` run to its end: status, signal, stdout and stderr (UTF-8), never a rejection. */
export function runChild(command: string, args: readonly string[], options: ChildOptions = {}): Promise<ChildResult> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let error: Error | undefined;
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => (error = e));
    if (options.input !== undefined) {
      child.stdin!.on('error', () => {}); // a child that exits without reading its input: its status says what happened
      child.stdin!.end(options.input);
    }
    // 'close' comes after the child exited and its output streams ended (or after 'error' when it did not start).
    child.on('close', (status, signal) =>
      resolve({ status, signal, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), ...(error ? { error } : {}) }),
    );
  });
}

/** As `execFileSync(command, args, { encoding: 'utf8' })`: stdout, or a rejection naming the command, its status and stderr. */
export async function execChild(command: string, args: readonly string[], options: ChildOptions = {}): Promise<string> {
  const r = await runChild(command, args, options);
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${r.signal ? `killed by ${r.signal}` : `exit ${r.status}`}\n${r.stderr}`);
  return r.stdout;
}

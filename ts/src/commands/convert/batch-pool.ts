/**
 * The worker processes of `convert --all` (batch.ts): dist/cli.js started again as each worker, a child process
 * (`fork`) that serves jobs (batch-worker.ts), each opening the input itself.
 *
 * - **Processes, not threads**: a model that makes V8 give up — the heap at its limit during one large allocation
 *   ("FATAL ERROR: Reached heap limit"), an array grown past V8's largest ("Fatal JavaScript invalid size error") —
 *   aborts the whole process, whatever the worker thread's `resourceLimits` say: Node's near-limit callback only
 *   asks the thread to stop and grants 16 MB more, so an allocation larger than that aborts the process before it
 *   does (measured on Node 20: a worker thread with a 512 MB or 1 GB `maxOldGenerationSizeMb` pushing numbers into an
 *   array took the batch down with SIGTRAP / SIGABRT; nodejs/node#47224). A child process is the unit an abort
 *   ends: the batch sees it exit, fails the model it was converting and starts another worker.
 * - **Budgets** ({@link BatchBudget}): each worker's V8 heap is capped (`--max-old-space-size`), so a model that
 *   needs more ends its worker early instead of taking gigabytes (V8's own default on a 23 GB machine is 4 GB per
 *   worker), and each model has a wall-time budget from the moment its worker starts it: past it the worker is
 *   killed (SIGKILL: a model in a loop never returns to the event loop). The model's row says which budget it
 *   crossed and the option that raises it (RESOURCE_LIMIT, TIMEOUT); the batch goes on.
 * - **Started first**: `startBatchPool` is called before the main thread reads the catalog, so the workers load the
 *   CLI's code and open the input while it does.
 * - **Three jobs held**: the one a worker is writing, the one it converts meanwhile (batch-worker.ts) and its next,
 *   sent while it runs the others, so it never waits for the main process to be scheduled between jobs.
 * - **What runs where** is the BatchQueue's (batch-queue.ts): biggest first, each kind of model at home on one worker.
 *
 * A worker that dies fails the job it was converting (its last `{ started }`) and no other: the others it held (not
 * started, or converted but their file not yet written) are put back, and a new worker takes its place (one per
 * failed job, so a model that kills every worker cannot make the batch start workers forever). A worker that dies
 * converting nothing (it could not start) is not replaced; when none is left, the jobs not run fail with its reason.
 * Workers that get no job are ended. A worker's stderr is kept (its last 8 KB), never printed: it names the reason.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ErrorCode, type ResourceLimits } from '../../node.js';
import { cliEntry, SERVE_BATCH_JOBS } from '../entry.js';
import { limitsForWorker } from '../limits.js';
import { tempOutput, type BatchJob, type BatchMessage, type BatchResult } from './batch-job.js';
import { type BatchQueue } from './batch-queue.js';

/** Jobs a worker holds at once: the one it writes, the one it converts and the next. */
const AHEAD = 3;

/** The stderr of a worker kept for its death's reason. */
const STDERR_TAIL = 8192;

export type QueuedBatchJob = BatchJob & { size: number };

/**
 * What one model may take (docs/security.md, "Batch budgets"): both `Infinity` to lift. The defaults are far above
 * what any real model takes and what the resource limits let any input make (measured there).
 */
export interface BatchBudget {
  /** Wall-clock seconds a worker may spend converting one model (from its `started`). */
  seconds: number;
  /** MB of V8 heap (old generation) a worker may hold: `--max-old-space-size`. */
  heapMb: number;
}

export const DEFAULT_BATCH_BUDGET: Readonly<BatchBudget> = Object.freeze({ seconds: 300, heapMb: 1024 });

/** What the pool sends a worker before any job. */
export interface BatchWorkerInit {
  input: string;
  limits: ResourceLimits;
}

export interface BatchPoolOptions {
  /** What the workers run: the CLI's entry (dist/cli.js) by default, which serves jobs when given SERVE_BATCH_JOBS; tests give one of their own. */
  script?: string | URL;
  budget?: BatchBudget;
  /** V8 flags for every worker besides the heap budget (batch.ts: the interrupt budget, the initial old space). */
  v8Flags?: readonly string[];
}

export interface BatchPool {
  /** Runs every job of `queue`; `onResult` as each finishes. Resolves when all are done and the workers are gone. */
  run(queue: BatchQueue<QueuedBatchJob>, onResult: (r: BatchResult) => void): Promise<void>;
  /** Ends the workers without running anything (nothing to convert, or the input could not be read). */
  close(): Promise<void>;
  readonly size: number;
}

interface Slot {
  child: ChildProcess;
  /** Jobs sent and not answered. */
  held: QueuedBatchJob[];
  /** The job it is converting (started, no result yet, no later start). */
  converting?: number;
  /** Set when the time budget of `converting` ran out and the process was killed for it. */
  timedOut?: number;
  timer?: NodeJS.Timeout;
  /** Sent `null` (or killed unused): its end is no failure. */
  released: boolean;
  /** Its process is gone (and its stderr read). */
  closed: Promise<void>;
  gone: boolean;
  stderr: string;
  /** Whether it was sent any job. */
  used: boolean;
  /** It said it listens (nothing is sent before: it would be lost). */
  ready: boolean;
}

/** The first line of a worker's stderr that says what killed it (V8's FATAL line, an uncaught error), else its last. */
function stderrReason(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => /^(FATAL ERROR|Fatal |#\s*Fatal)/.test(l)) ?? lines.find((l) => /^\w*Error\b/.test(l)) ?? lines[lines.length - 1] ?? '';
}

/** V8 ran out of room: the heap at its limit, or an array or string past V8's largest. */
const OUT_OF_MEMORY = /heap out of memory|Reached heap limit|Allocation failed|invalid (array|table|size)|Invalid (array|typed array|string) length|Fatal process out of memory/i;

/** A failed row for `job` whose worker ended: which budget it crossed, or how the worker died. */
function deathResult(job: QueuedBatchJob, slot: Slot, code: number | null, signal: NodeJS.Signals | null, budget: BatchBudget): BatchResult {
  const failed = (c: string, detail: string): BatchResult => ({ id: job.id, ok: false, bytes: 0, warnings: [], code: c, error: `${job.origin}: ${c}: ${detail}` });
  if (slot.timedOut === job.id) {
    return failed(ErrorCode.Timeout, `not converted within ${budget.seconds} s, the batch's time budget for one model: its worker was stopped (raise it with --model-timeout SECONDS, or Infinity)`);
  }
  const why = stderrReason(slot.stderr);
  if (OUT_OF_MEMORY.test(why)) {
    return failed(ErrorCode.ResourceLimit, `its worker ran out of memory (${why}; the batch's heap budget for one worker is ${budget.heapMb} MB: raise it with --model-memory MB, or Infinity)`);
  }
  return failed('ERROR', `its worker process died (${signal ? `killed by ${signal}` : `exit code ${code}`})${why ? `: ${why}` : ''}`);
}

/** How a worker that ended converting nothing is reported for the jobs no worker could run. */
const deathText = (slot: Slot, code: number | null, signal: NodeJS.Signals | null) => `worker process ${signal ? `killed by ${signal}` : `exited with code ${code}`}${stderrReason(slot.stderr) ? `: ${stderrReason(slot.stderr)}` : ''}`;

/**
 * Starts `threads` workers on `input`. Each gets the resource limits in force (`--limit`) and the budget's heap;
 * the time budget is the pool's (run()).
 */
export function startBatchPool(input: string, threads: number, options: BatchPoolOptions = {}): BatchPool {
  const script = options.script ?? cliEntry();
  const budget = options.budget ?? DEFAULT_BATCH_BUDGET;
  const init: BatchWorkerInit = { input, limits: limitsForWorker() };
  const execArgv = [...(options.v8Flags ?? []), ...(Number.isFinite(budget.heapMb) ? [`--max-old-space-size=${budget.heapMb}`] : [])];
  /** Set by run(): what a worker's end means once jobs are out. */
  let onGone: ((slot: Slot, code: number | null, signal: NodeJS.Signals | null) => void) | undefined;
  let onMessage: ((slot: Slot, m: BatchResult | { started: number }) => void) | undefined;
  let onReady: (() => void) | undefined;
  /** Workers that ended before run(): the reason, for jobs none could run. */
  let earlyReason: string | undefined;

  const spawn = (): Slot => {
    const child = fork(typeof script === 'string' ? script : fileURLToPath(script), [SERVE_BATCH_JOBS], {
      execArgv,
      // stdin and stdout unused; stderr kept for the reason of a death, never shown raw (terminal.ts's gate is ours)
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced', // structured clone: Infinity in the limits survives
    });
    let exited: (() => void) | undefined;
    const slot: Slot = { child, held: [], released: false, gone: false, stderr: '', used: false, ready: false, closed: new Promise<void>((r) => (exited = r)) };
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (s: string) => (slot.stderr = (slot.stderr + s).slice(-STDERR_TAIL)));
    child.on('message', (m: BatchMessage) => {
      if ('ready' in m) {
        slot.ready = true;
        child.send(init, () => {}); // a worker gone already: its 'close' says so
        onReady?.();
      } else onMessage?.(slot, m);
    });
    let ended = false;
    const end = (code: number | null, signal: NodeJS.Signals | null) => {
      if (ended) return;
      ended = true;
      slot.gone = true;
      clearTimeout(slot.timer);
      if (onGone) onGone(slot, code, signal);
      else if (!slot.released) earlyReason ??= deathText(slot, code, signal);
      exited!();
    };
    // 'close': exited and its stderr read to the end. A process that could not be spawned has only 'error'.
    child.on('close', end);
    child.on('error', (e) => {
      if (child.pid === undefined) {
        slot.stderr += `\n${e.message}`;
        end(null, null);
      }
    });
    return slot;
  };

  const slots = Array.from({ length: threads }, spawn);

  const close = async () => {
    for (const s of slots) {
      s.released = true;
      s.child.kill('SIGKILL');
    }
    await Promise.all(slots.map((s) => s.closed));
  };

  function run(queue: BatchQueue<QueuedBatchJob>, onResult: (r: BatchResult) => void): Promise<void> {
    let lastReason = earlyReason;
    let finished: () => void;
    const done = new Promise<void>((r) => (finished = r));
    const alive = (s: Slot) => !s.gone && !s.released;
    const ready = (s: Slot) => alive(s) && s.ready;
    // null (the end) is a value structured clone carries, whatever Node's `Serializable` type says; a worker gone
    // already: its 'close' says so
    const send = (s: Slot, m: BatchJob | null) => s.child.send(m as object, () => {});

    /**
     * Sends each live worker jobs until it holds AHEAD. A worker holding none is let go once no job is left to hand
     * out and no worker holds one besides the one it converts (a worker that dies puts those back).
     */
    const pump = () => {
      for (let i = 0; i < slots.length; i++) {
        const s = slots[i];
        while (ready(s) && s.held.length < AHEAD) {
          const job = queue.next(i);
          if (!job) break;
          s.held.push(job);
          s.used = true;
          send(s, job satisfies BatchJob);
        }
      }
      if (queue.remaining === 0 && !slots.some((s) => s.held.some((j) => j.id !== s.converting))) {
        for (const s of slots) {
          if (alive(s) && s.held.length === 0) {
            s.released = true;
            // One that never got a job need not finish starting.
            if (s.used) send(s, null);
            else s.child.kill('SIGKILL');
          }
        }
      }
      // Every worker gone: the jobs none could run fail with the last reason a worker gave.
      if (slots.every((s) => s.gone)) {
        for (let job = queue.next(0); job; job = queue.next(0)) onResult({ id: job.id, ok: false, bytes: 0, warnings: [], code: 'ERROR', error: `${job.origin}: ${lastReason ?? 'no worker could start'}` });
        finished();
      }
    };

    const startClock = (s: Slot, id: number) => {
      clearTimeout(s.timer);
      // setTimeout's longest delay is 2³¹ − 1 ms (24.8 days); a longer budget is none.
      if (!(budget.seconds * 1000 <= 0x7fffffff)) return;
      s.timer = setTimeout(() => {
        if (s.converting !== id || s.gone) return;
        s.timedOut = id;
        s.child.kill('SIGKILL');
      }, budget.seconds * 1000);
    };

    onMessage = (s, m) => {
      if ('started' in m) {
        s.converting = m.started;
        startClock(s, m.started);
        return;
      }
      s.held = s.held.filter((j) => j.id !== m.id);
      if (s.converting === m.id) {
        s.converting = undefined;
        clearTimeout(s.timer);
      }
      onResult(m);
      pump();
    };

    onReady = pump;
    onGone = (s, code, signal) => {
      const i = slots.indexOf(s);
      const jobs = s.held.splice(0);
      const failed = jobs.find((j) => j.id === s.converting);
      if (s.released && jobs.length === 0) return pump();
      lastReason = deathText(s, code, signal);
      // A write it had in flight is done again by another worker: its temporary file (if any) goes.
      for (const job of jobs) void rm(tempOutput(job.out, s.child.pid ?? 0, 0), { force: true }).catch(() => {});
      if (failed) onResult(deathResult(failed, s, code, signal, budget));
      for (const job of jobs.filter((j) => j !== failed).reverse()) queue.putBack(job, i);
      // Its model failed, not the worker's start: a new worker takes its place (at most one per failed job), when
      // there is work left for it.
      if (failed && i >= 0 && queue.remaining > 0) slots[i] = spawn();
      pump();
    };

    // Workers that ended before run() (they could not start) are gone already.
    pump();
    return done;
  }

  return { run, close, size: threads };
}

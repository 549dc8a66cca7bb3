/**
 * The worker pool of `convert --all` (commands/convert/batch-pool.ts) on real worker processes running small scripts
 * written here in place of the CLI: each job gets exactly one result; a worker that dies fails the job it was
 * converting, and the jobs it held besides (not started, or converted with the write in flight) are run by another;
 * workers without a job are let go; a script that cannot start fails every job with its error instead of hanging.
 * The budgets: a job that never ends fails as TIMEOUT once its time is up, one that fills the worker's heap as
 * RESOURCE_LIMIT (V8's fatal error ends that process only), a worker that aborts is replaced — and every other job is
 * run. The time budget is only ever raced by a job that never ends; the others take milliseconds of a budget of
 * seconds.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/commands/convert/batch-job.js';
import { startBatchPool, type BatchBudget, type QueuedBatchJob } from '../../src/commands/convert/batch-pool.js';
import { BatchQueue } from '../../src/commands/convert/batch-queue.js';

const dir = mkdtempSync(join(tmpdir(), 'idtech-batch-pool-'));

/**
 * A worker serving jobs one at a time, as batch-worker.ts does: says `{ ready }`, takes the init message, then sends
 * `{ started }` as it begins a job and answers `{ id, ok, pid, input }`. By the job's path: `throw` throws out of the
 * worker, `exit` ends the process, `abort` aborts it (SIGABRT, as a native crash would), `hang` never returns to the
 * event loop, `heap` fills the V8 heap until V8 gives up, `slow-write` answers a second later while the worker goes
 * on to its next job (a write in flight).
 */
const serving = join(dir, 'serving.mjs');
writeFileSync(
  serving,
  `let init;
const waiting = [];
let busy = false;
const drain = async () => {
  busy = true;
  while (waiting.length) {
    const job = waiting.shift();
    if (job === null) process.exit(0);
    process.send({ started: job.id });
    const result = { id: job.id, ok: true, bytes: job.size, warnings: [], pid: process.pid, input: init.input, limit: init.limits.maxImagePixels };
    if (job.path === 'slow-write') {
      setTimeout(() => process.send(result), 1000);
      continue;
    }
    if (job.path === 'throw') throw new Error('worker fell over on ' + job.id);
    if (job.path === 'exit') process.exit(3);
    if (job.path === 'abort') process.abort();
    if (job.path === 'hang') for (;;) {}
    if (job.path === 'heap') { const kept = []; for (;;) kept.push(new Array(4096).fill(job.id + 0.5)); }
    await new Promise((r) => setTimeout(r, 2));
    process.send(result);
  }
  busy = false;
};
process.on('disconnect', () => process.exit(0));
process.on('message', (m) => {
  if (!init) return void (init = m);
  waiting.push(m);
  if (!busy) drain();
});
process.send({ ready: true });
`,
);
const broken = join(dir, 'broken.mjs');
writeFileSync(broken, `throw new Error('this script cannot start');\n`);

const job = (id: number, path = `m${id}.md3`, size = 100 - id, kind = 'md3'): QueuedBatchJob => ({ id, kind, path, origin: `input.pk3:${path}`, anims: [], out: `/out/${id}.glb`, outDir: '/out', yUp: true, textures: false, size });

/** Generous for the jobs that end (milliseconds each): only `hang` ever meets it. */
const BUDGET: BatchBudget = { seconds: 60, heapMb: 256 };

async function runAll(jobs: QueuedBatchJob[], threads: number, script = serving, budget = BUDGET) {
  const pool = startBatchPool('input.pk3', threads, { script, budget });
  const results: (BatchResult & { pid?: number; input?: string; limit?: number })[] = [];
  await pool.run(new BatchQueue(jobs, threads), (r) => results.push(r));
  await pool.close();
  return results;
}

const byId = <R extends { id: number }>(rs: R[]): R[] => [...rs].sort((a, b) => a.id - b.id);

describe('batch pool', () => {
  it('every job gets one result, from workers that were given the input', async () => {
    const jobs = Array.from({ length: 40 }, (_, i) => job(i, `m${i}.md${i % 2 ? 2 : 3}`, 1000 - i, i % 2 ? 'md2' : 'md3'));
    const results = await runAll(jobs, 3);
    expect(byId(results).map((r) => r.id)).toEqual(jobs.map((j) => j.id));
    expect(results.every((r) => r.ok && r.input === 'input.pk3' && r.limit === 8192 * 8192)).toBe(true);
    // which worker ran which job depends on when each process started (a worker with no kind of its own takes any,
    // and one that started first may take them all): the queue's policy is held by batch-queue.test.ts, deterministically
  });

  it('a worker that throws fails the job it ran; the jobs it held but had not started are run by another worker', async () => {
    // One kind, biggest first: worker 0 is sent jobs 0 (throws), 1 and 2, worker 1 jobs 3, 4 and 5.
    const jobs = [job(0, 'throw'), ...Array.from({ length: 7 }, (_, i) => job(i + 1))];
    const results = byId(await runAll(jobs, 2));
    expect(results.map((r) => r.id)).toEqual(jobs.map((j) => j.id));
    expect(results[0]).toMatchObject({ ok: false, code: 'ERROR' });
    expect(results[0].error).toBe('input.pk3:throw: ERROR: its worker process died (exit code 1): Error: worker fell over on 0');
    expect(results.slice(1).every((r) => r.ok)).toBe(true);
  });

  it('a worker process that exits holding jobs: the same', async () => {
    const jobs = [job(0, 'exit'), job(1), job(2), job(3)];
    const results = byId(await runAll(jobs, 2));
    expect(results.map((r) => r.id)).toEqual([0, 1, 2, 3]);
    expect(results[0]).toMatchObject({ ok: false, code: 'ERROR' });
    expect(results[0].error).toContain('exit code 3');
    expect(results.slice(1).every((r) => r.ok)).toBe(true);
  });

  it('a worker that dies while a converted job is still being written: that job is run again by another worker', async () => {
    // Worker 0 is sent jobs 0 (its write takes a second), 1 (exits while 0 is still being written) and 2.
    const jobs = [job(0, 'slow-write'), job(1, 'exit'), ...Array.from({ length: 6 }, (_, i) => job(i + 2))];
    const results = byId(await runAll(jobs, 2));
    expect(results.map((r) => r.id)).toEqual(jobs.map((j) => j.id));
    expect(results[1]).toMatchObject({ ok: false });
    expect(results[1].error).toContain('exit code 3');
    expect(results.filter((r) => r.id !== 1).every((r) => r.ok)).toBe(true);
    // job 0 was answered once, by a worker that lived: the survivor or the one started in the dead one's place
    expect(results.filter((r) => r.id === 0)).toHaveLength(1);
  });

  it('fewer jobs than workers, and none: the idle workers are let go and run() returns', async () => {
    expect(byId(await runAll([job(0), job(1)], 4)).map((r) => r.id)).toEqual([0, 1]);
    expect(await runAll([], 3)).toEqual([]);
  });

  it('workers that cannot start fail every job with their error instead of hanging', async () => {
    const results = byId(await runAll([job(0), job(1), job(2)], 2, broken));
    expect(results.map((r) => r.id)).toEqual([0, 1, 2]);
    for (const r of results) {
      expect(r.ok).toBe(false);
      expect(r.error).toContain('this script cannot start');
    }
  });

  it('budgets, --jobs 1: a job that never ends is TIMEOUT once its time is up, its worker replaced; the jobs after it run', async () => {
    // A budget of 2 s is met only by `hang`; the jobs that end take milliseconds.
    const jobs = [job(0), job(1, 'hang'), job(2), job(3, 'hang'), job(4)];
    const results = byId(await runAll(jobs, 1, serving, { seconds: 2, heapMb: 256 }));
    expect(results.map((r) => [r.id, r.ok, r.code])).toEqual([[0, true, undefined], [1, false, 'TIMEOUT'], [2, true, undefined], [3, false, 'TIMEOUT'], [4, true, undefined]]);
    expect(results[1].error).toBe("input.pk3:hang: TIMEOUT: not converted within 2 s, the batch's time budget for one model: its worker was stopped (raise it with --model-timeout SECONDS, or Infinity)");
    // three workers in turn: the first, and one after each stopped
    expect(new Set(results.filter((r) => r.ok).map((r) => r.pid)).size).toBe(3);
  });

  it("budgets: a job that fills the worker's heap is RESOURCE_LIMIT naming the budget (V8's fatal error ends that process only)", async () => {
    const jobs = [job(0), job(1, 'heap'), job(2), job(3)];
    const results = byId(await runAll(jobs, 1, serving, { seconds: Infinity, heapMb: 32 }));
    expect(results.map((r) => [r.id, r.ok, r.code])).toEqual([[0, true, undefined], [1, false, 'RESOURCE_LIMIT'], [2, true, undefined], [3, true, undefined]]);
    expect(results[1].error).toMatch(/^input\.pk3:heap: RESOURCE_LIMIT: its worker ran out of memory \(FATAL ERROR: .*heap out of memory; the batch's heap budget for one worker is 32 MB: raise it with --model-memory MB, or Infinity\)$/);
  });

  it('a worker that aborts on every job it starts: each job fails once, a worker is started per failure, run() ends', async () => {
    const jobs = Array.from({ length: 4 }, (_, i) => job(i, 'abort'));
    const results = byId(await runAll([...jobs, job(4)], 2));
    expect(results.map((r) => [r.id, r.ok])).toEqual([[0, false], [1, false], [2, false], [3, false], [4, true]]);
    for (const r of results.slice(0, 4)) expect(r.error).toMatch(/: ERROR: its worker process died \(killed by SIGABRT\)/);
  });
});

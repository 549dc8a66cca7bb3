/**
 * The worker pool of `convert --all` (commands/convert/batch-pool.ts) on real worker threads running small scripts
 * written here in place of the CLI: each job gets exactly one result; a worker that dies fails the job it was
 * converting, and the jobs it held besides (not started, or converted with the write in flight) are run by another;
 * workers without a job are let go; a script that cannot start fails every job with its error instead of hanging.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BatchResult } from '../../src/commands/convert/batch-job.js';
import { startBatchPool, type QueuedBatchJob } from '../../src/commands/convert/batch-pool.js';
import { BatchQueue } from '../../src/commands/convert/batch-queue.js';

const dir = mkdtempSync(join(tmpdir(), 'idtech-batch-pool-'));

/**
 * A worker serving jobs one at a time, as batch-worker.ts does: sends `{ started }` as it begins one, answers
 * `{ id, ok, thread, input }`; a job whose path is `throw` throws out of the worker when it starts, `exit` ends the
 * thread, `slow-write` answers a second later while the worker goes on to its next job (a write in flight).
 */
const serving = join(dir, 'serving.mjs');
writeFileSync(
  serving,
  `import { parentPort, threadId, workerData } from 'node:worker_threads';
const waiting = [];
let busy = false;
const drain = async () => {
  busy = true;
  while (waiting.length) {
    const job = waiting.shift();
    if (job === null) return parentPort.close();
    parentPort.postMessage({ started: job.id });
    const result = { id: job.id, ok: true, bytes: job.size, warnings: [], thread: threadId, input: workerData.input };
    if (job.path === 'slow-write') {
      setTimeout(() => parentPort.postMessage(result), 1000);
      continue;
    }
    if (job.path === 'throw') throw new Error('worker fell over on ' + job.id);
    if (job.path === 'exit') process.exit(3);
    await new Promise((r) => setTimeout(r, 2));
    parentPort.postMessage(result);
  }
  busy = false;
};
parentPort.on('message', (job) => { waiting.push(job); if (!busy) drain(); });
`,
);
const broken = join(dir, 'broken.mjs');
writeFileSync(broken, `throw new Error('this script cannot start');\n`);

const job = (id: number, path = `m${id}.md3`, size = 100 - id, kind = 'md3'): QueuedBatchJob => ({ id, kind, path, origin: `input.pk3:${path}`, anims: [], out: `/out/${id}.glb`, outDir: '/out', yUp: true, textures: false, size });

async function runAll(jobs: QueuedBatchJob[], threads: number, script = serving) {
  const pool = startBatchPool('input.pk3', threads, script);
  const results: (BatchResult & { thread?: number; input?: string })[] = [];
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
    expect(results.every((r) => r.ok && r.input === 'input.pk3')).toBe(true);
    // two kinds: each started on its own worker — the biggest of each kind (jobs 0 and 1) is the first sent to its
    // kind's home; which worker finishes a kind's first result depends on timing (a free worker takes any kind)
    const threadOf = (id: number) => results.find((r) => r.id === id)!.thread;
    expect([jobs[0].kind, jobs[1].kind]).toEqual(['md3', 'md2']);
    expect(threadOf(0)).not.toBe(threadOf(1));
  });

  it('a worker that throws fails the job it ran; the job it held but had not started is run by another worker', async () => {
    // One kind, biggest first: worker 0 is sent jobs 0 (throws), 1 and 2, worker 1 jobs 3, 4 and 5.
    const jobs = [job(0, 'throw'), ...Array.from({ length: 7 }, (_, i) => job(i + 1))];
    const results = byId(await runAll(jobs, 2));
    expect(results.map((r) => r.id)).toEqual(jobs.map((j) => j.id));
    expect(results[0]).toMatchObject({ ok: false, code: 'ERROR' });
    expect(results[0].error).toContain('worker fell over on 0');
    expect(results.slice(1).every((r) => r.ok)).toBe(true);
    const survivor = results[2].thread;
    expect(results[1].thread).toBe(survivor);
  });

  it('a worker thread that exits holding jobs: the same', async () => {
    const jobs = [job(0, 'exit'), job(1), job(2), job(3)];
    const results = byId(await runAll(jobs, 2));
    expect(results.map((r) => r.id)).toEqual([0, 1, 2, 3]);
    expect(results[0]).toMatchObject({ ok: false });
    expect(results[0].error).toContain('exited with code 3');
    expect(results.slice(1).every((r) => r.ok)).toBe(true);
  });

  it('a worker that dies while a converted job is still being written: that job is run again by another worker', async () => {
    // Worker 0 is sent jobs 0 (its write takes a second), 1 (exits while 0 is still being written) and 2.
    const jobs = [job(0, 'slow-write'), job(1, 'exit'), ...Array.from({ length: 6 }, (_, i) => job(i + 2))];
    const results = byId(await runAll(jobs, 2));
    expect(results.map((r) => r.id)).toEqual(jobs.map((j) => j.id));
    expect(results[1]).toMatchObject({ ok: false });
    expect(results[1].error).toContain('exited with code 3');
    expect(results.filter((r) => r.id !== 1).every((r) => r.ok)).toBe(true);
    // job 0 was answered by the survivor, which also ran every job after it
    expect(new Set(results.filter((r) => r.id !== 1).map((r) => r.thread)).size).toBe(1);
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
});

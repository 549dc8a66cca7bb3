/**
 * The order `convert --all` hands out its jobs (commands/convert/batch-queue.ts), on random batches (fast-check, a
 * fixed number of runs) and on the bench archive's own catalog: every job exactly once whatever order the workers
 * ask in, each kind at home on one worker until that worker's own jobs are gone, biggest first, the homes' bytes
 * shared as the greedy rule says (checked against the rule written out here), and a job put back handed out again.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BatchQueue } from '../../src/commands/convert/batch-queue.js';

interface Job {
  id: number;
  kind: string;
  size: number;
}

const jobsArb = fc
  .array(fc.record({ kind: fc.constantFrom('md2', 'md3', 'md5mesh', 'player', 'iqm'), size: fc.integer({ min: 0, max: 5_000_000 }) }), { maxLength: 80 })
  .map((list) => list.map((j, id) => ({ id, ...j })));

/** Asks workers for jobs in the order `askers` gives (cycled), until none is left; what each got, in order. */
function drain(queue: BatchQueue<Job>, workers: number, askers: number[]): Job[][] {
  const got: Job[][] = Array.from({ length: workers }, () => []);
  const done = new Set<number>();
  for (let k = 0; done.size < workers; k++) {
    const w = askers.length ? askers[k % askers.length] % workers : k % workers;
    if (done.has(w)) {
      // a worker told "nothing left" stays done: ask the next one
      for (let i = 0; i < workers; i++) if (!done.has(i)) { const j = queue.next(i); if (j) got[i].push(j); else done.add(i); break; }
      continue;
    }
    const j = queue.next(w);
    if (j) got[w].push(j);
    else done.add(w);
  }
  return got;
}

/** The homes by the rule as stated: kinds by bytes, largest first (then by name), each to the least-loaded worker (lowest index on ties). */
function homesByRule(jobs: Job[], workers: number): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const j of jobs) bytes.set(j.kind, (bytes.get(j.kind) ?? 0) + j.size);
  const kinds = [...bytes.keys()].sort((a, b) => bytes.get(b)! - bytes.get(a)! || a.localeCompare(b));
  const load = Array.from({ length: workers }, () => 0);
  const home = new Map<string, number>();
  for (const k of kinds) {
    let best = 0;
    for (let w = 1; w < workers; w++) if (load[w] < load[best]) best = w;
    home.set(k, best);
    load[best] += bytes.get(k)!;
  }
  return home;
}

describe('BatchQueue', () => {
  it('hands out every job exactly once, whatever order the workers ask in', () => {
    fc.assert(
      fc.property(jobsArb, fc.integer({ min: 1, max: 5 }), fc.array(fc.nat(), { maxLength: 30 }), (jobs, workers, askers) => {
        const queue = new BatchQueue(jobs, workers);
        expect(queue.remaining).toBe(jobs.length);
        const got = drain(queue, workers, askers).flat();
        expect(got.map((j) => j.id).sort((a, b) => a - b)).toEqual(jobs.map((j) => j.id));
        expect(queue.remaining).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it("a worker gets its own kinds' jobs, biggest first, before any other's; then the biggest of the queue with the most bytes left", () => {
    fc.assert(
      fc.property(jobsArb, fc.integer({ min: 1, max: 4 }), fc.array(fc.nat(), { maxLength: 30 }), (jobs, workers, askers) => {
        const home = homesByRule(jobs, workers);
        // Replays the rule alongside the queue: own queue first, else the fullest other (lowest index on ties).
        const own = Array.from({ length: workers }, (_, w) => jobs.filter((j) => home.get(j.kind) === w).sort((a, b) => b.size - a.size));
        const queue = new BatchQueue(jobs, workers);
        for (let k = 0; queue.remaining > 0; k++) {
          const w = (askers.length ? askers[k % askers.length] : k) % workers;
          const left = own.map((q) => q.reduce((n, j) => n + j.size, 0));
          let from = w;
          if (own[w].length === 0) {
            from = -1;
            for (let i = 0; i < workers; i++) if (own[i].length && (from < 0 || left[i] > left[from])) from = i;
          }
          // (sorts are stable: jobs of one size keep the catalog's order in both)
          expect(queue.next(w)!.id).toBe(own[from].shift()!.id);
        }
        for (let w = 0; w < workers; w++) expect(queue.next(w)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });

  it('one kind per batch: the other workers take from it at once (nothing waits on a home)', () => {
    const jobs: Job[] = Array.from({ length: 6 }, (_, id) => ({ id, kind: 'md3', size: 100 - id }));
    const queue = new BatchQueue(jobs, 3);
    expect([queue.next(0), queue.next(1), queue.next(2)].map((j) => j!.size)).toEqual([100, 99, 98]);
  });

  it("a job put back (its worker died before starting it) is that worker's next, and is handed out again once", () => {
    fc.assert(
      fc.property(jobsArb.filter((j) => j.length > 0), fc.integer({ min: 1, max: 4 }), fc.nat(), (jobs, workers, pick) => {
        const queue = new BatchQueue(jobs, workers);
        const w = pick % workers;
        const first = queue.next(w)!;
        queue.putBack(first, w);
        expect(queue.remaining).toBe(jobs.length);
        expect(queue.next(w)!.id).toBe(first.id);
        queue.putBack(first, w);
        const got = drain(queue, workers, []).flat();
        expect(got.map((j) => j.id).sort((a, b) => a - b)).toEqual(jobs.map((j) => j.id));
      }),
      { numRuns: 200 },
    );
  });

  it('refuses a worker count that is not a whole number ≥ 1', () => {
    expect(() => new BatchQueue([], 0)).toThrow(RangeError);
    expect(() => new BatchQueue([], 1.5)).toThrow(RangeError);
  });
});

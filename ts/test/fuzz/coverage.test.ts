/**
 * The coverage-guided campaign (coverage.ts) for a fixed number of runs per binary parser, from the generated seeds
 * and the kept corpus (fixtures/fuzz-corpus/<target>/): no input breaks the invariant, the kept corpus reaches
 * library blocks the seeds alone do not (it is worth keeping), and the runs themselves still find new coverage.
 * `npm run fuzz -- --coverage TARGET --runs N --seed 20261207` runs the same campaign longer (and `--save` re-chooses
 * the kept corpus).
 */
import './alloc-meter-install.js'; // before glTF Transform loads (the md3 and zip seeds go through the glTF import)
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { COVERAGE_TARGETS, coverageSeeds, keptCorpus, runCoverageTurning } from './coverage.js';
import { LIBRARY_MODULES } from './coverage-meter.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
/** Runs per target: a few seconds of CPU each on an idle machine (never a time budget). */
const RUNS = 300;

describe('coverage-guided campaign, fixed run counts', () => {
  for (const target of COVERAGE_TARGETS) {
    test(`${target}: ${RUNS} runs from the generated seeds and the kept corpus`, async () => {
      const corpus = keptCorpus(ROOT, target);
      const r = await runCoverageTurning({ target, seed: 20261207, runs: RUNS, seeds: await coverageSeeds(target), corpus, filter: LIBRARY_MODULES });
      expect(r.violations.map((v) => `${v.kind} at run ${v.index} (${v.from}; ${v.ops.join(' ')}): ${v.detail}`)).toEqual([]);
      expect(r.stats.inputs).toBe(RUNS + r.queue.filter((e) => e.origin === 'seed' || e.origin === 'corpus').length);
      expect(r.seedBlocks).toBeGreaterThan(10);
      // the kept corpus is worth its place: it reaches blocks the generated seeds do not
      expect(corpus.length, `no kept corpus in ${join('fixtures/fuzz-corpus', target)}`).toBeGreaterThan(0);
      expect(r.corpusBlocks).toBeGreaterThan(r.seedBlocks);
      expect(r.found).toBeGreaterThan(0);
    });
  }
});

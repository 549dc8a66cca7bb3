/**
 * The grammar-aware campaigns of issue 36 (grammar.ts) for a fixed number of inputs each (never a time budget): every
 * shape at every scale — up to 20,000-deep `if` nests and `(!` conditions, padding inside deep nests, 20,000 repeated
 * commands, exec cycles in iqm.cfg; 200,000 groups, 20,000 of one name, files past 256 KiB in .framegroups — read
 * with no throw, a result proportional to the input and a step count (V8's block counts) linear in it.
 *
 * These fail on the code before issue 36's fixes to the readers (iqm-cfg.ts, cubescript.ts, framegroups.ts, clips):
 * see docs/fuzzing.md ("Issue 36's campaigns") for what each found. `npm run fuzz -- --only iqm-cfg --seed 20261207
 * --inputs 72` reproduces a failure of this test (the same inputs, with the time bound on).
 */
import { describe, expect, test } from 'vitest';
import { runGrammarCampaign, type GrammarKind } from './grammar.js';

/** Inputs per campaign: every shape at each of the three scales, four times over. */
const COUNTS: Record<GrammarKind, number> = { 'iqm-cfg': 72, framegroups: 48 };

describe('grammar-aware campaigns (issue 36), fixed input counts', () => {
  for (const kind of ['iqm-cfg', 'framegroups'] as const) {
    test(`${kind}: ${COUNTS[kind]} generated inputs, every shape at every scale`, async () => {
      const r = await runGrammarCampaign({ kind, seed: 20261207, start: 0, count: COUNTS[kind] });
      expect(r.violations.map((v) => `${v.kind} at input ${v.index} (${v.ops.join('; ')}): ${v.detail.slice(0, 300)}`)).toEqual([]);
      const s = r.stats[kind];
      expect(s.inputs).toBe(COUNTS[kind]);
      // every input read, or refused typed as the readers document (over maxAnimationClips / maxScriptBytes)
      const refused = Object.entries(s.codes).filter(([code]) => code === 'RESOURCE_LIMIT' || code === 'READ_FAILED').reduce((n, [, k]) => n + k, 0);
      expect(s.accepted + refused).toBe(COUNTS[kind]);
    });
  }
});

/**
 * The mutation fuzzer on a fixed number of inputs (`npm run fuzz` runs the same campaign for a million inputs and
 * more): every real file of ../shared/models, mutated, fed to every parser. Each input must return a model that
 * passes an independent re-check, or throw ModelParseError — no other exception, within the memory bound, the same
 * outcome in random chunks, and posing an accepted model throws nothing untyped. No time is asserted (`npm run
 * fuzz` holds each parse to its time bound; a test on a busy machine must not fail for being slow).
 */
import { describe, expect, test } from 'vitest';
import { CAMPAIGN_CADENCE, runCampaignTurning, truncationSweepTurning, type CampaignResult } from './campaign.js';
import { TARGETS } from './targets.js';

/** A readable failure: the first few violations with how to reproduce them. */
function violationsOf(r: CampaignResult): string[] {
  return r.violations.slice(0, 5).map((v) => `${v.kind} in ${v.target}, input ${v.index} of seed ${v.seed} (${v.from}; ${v.ops.join(' ')}): ${v.detail}`);
}

describe('mutation fuzzer, fixed input count', () => {
  test('mutated real files: a model or a typed error, within bounds, the same in chunks, usable', async () => {
    // A fixed number of inputs (input i goes to target i mod the target count: 1,100 each), whatever the machine's
    // speed; the seed fixed so a red run is reproducible: `node scripts/fuzz.mjs --seed 20260601 --inputs COUNT`.
    const count = 1100 * TARGETS.length;
    const r = await runCampaignTurning({ seed: 20260601, start: 0, count, ...CAMPAIGN_CADENCE });
    expect(violationsOf(r)).toEqual([]);
    for (const t of TARGETS) {
      const s = r.stats[t.name];
      // Each parser got its share (targets take turns), accepted some mutants (so `use` ran) and rejected others in
      // many different ways (so the mutations reach past the header).
      expect(s.inputs, t.name).toBe(1100);
      expect(s.accepted, t.name).toBeGreaterThan(10);
      expect(Object.keys(s.codes).length, `${t.name}: ${JSON.stringify(s.codes)}`).toBeGreaterThanOrEqual(t.minErrorCodes ?? 5);
    }
  });

  test('every real file cut at its block boundaries (every 5th boundary here; all of them in npm run fuzz)', async () => {
    const r = await truncationSweepTurning(5);
    expect(violationsOf(r)).toEqual([]);
    for (const t of TARGETS) expect(r.stats[t.name].inputs, t.name).toBeGreaterThan(20);
  });
});

/**
 * IQM in the mutation fuzzer, on a fixed number of inputs (no time budget): the corpus's small IQMs mutated (header
 * counts and offsets at their edges, bytes flipped, blocks cut and spliced), each input either a model that passes
 * the independent re-check (`checkIqm`: every index the posers follow) or one ModelParseError, within the parsers'
 * memory bound, the same in random chunks, and — every other input — posed, exported to glTF and written back.
 * `node scripts/fuzz.mjs --only iqm --seed 31 --inputs 1000000` runs the same campaign longer.
 */
import { describe, expect, test } from 'vitest';
import { CAMPAIGN_CADENCE, runCampaignTurning, truncationSweepTurning } from '../fuzz/campaign.js';

describe('IQM under the mutation fuzzer', () => {
  test('4000 mutated IQMs: a checked model or a typed error, the same in chunks, usable', async () => {
    const r = await runCampaignTurning({ seed: 31, start: 0, count: 4000, ...CAMPAIGN_CADENCE, only: ['iqm'] });
    expect(r.violations.slice(0, 3).map((v) => `${v.kind} (${v.from}; ${v.ops.join(' ')}): ${v.detail}`)).toEqual([]);
    const s = r.stats.iqm;
    expect(s.inputs).toBe(4000);
    expect(s.accepted).toBeGreaterThan(100);
    expect(Object.keys(s.codes).length, JSON.stringify(s.codes)).toBeGreaterThanOrEqual(4);
  });

  test('every IQM of the corpus cut at every 3rd of its block boundaries', async () => {
    const r = await truncationSweepTurning(3, ['iqm']);
    expect(r.violations.slice(0, 3).map((v) => `${v.kind}: ${v.detail}`)).toEqual([]);
    expect(r.stats.iqm.inputs).toBeGreaterThan(20);
  });
});

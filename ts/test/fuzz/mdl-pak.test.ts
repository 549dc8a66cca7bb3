/**
 * MDL and .pak under the mutation fuzzer on a fixed number of inputs (no time budget: a busy machine runs the same
 * inputs, slower): each input returns a model (or an archive) that passes the independent re-check, or throws
 * ModelParseError — no other exception, within the memory and time bounds, the same in chunks (MDL), and using an
 * accepted MDL (drawn, posed, exported, written back) throws nothing untyped. `npm run fuzz -- --only mdl,pak` runs
 * the same campaign longer.
 */
import { describe, expect, test } from 'vitest';
import { CAMPAIGN_CADENCE, runCampaign } from './campaign.js';

describe('MDL and .pak fuzz, fixed inputs', () => {
  test('4,000 mutated inputs (seed 20261201): no violation, models accepted, many ways to fail', () => {
    const r = runCampaign({ seed: 20261201, start: 0, count: 4000, only: ['mdl', 'pak'], ...CAMPAIGN_CADENCE });
    expect(r.violations.slice(0, 5).map((v) => `${v.kind} in ${v.target}, input ${v.index} (${v.from}; ${v.ops.join(' ')}): ${v.detail}`)).toEqual([]);
    expect(r.stats.mdl.inputs + r.stats.pak.inputs).toBe(4000);
    expect(r.stats.mdl.accepted).toBeGreaterThan(50);
    expect(r.stats.pak.accepted).toBeGreaterThan(50);
    expect(Object.keys(r.stats.mdl.codes).length, JSON.stringify(r.stats.mdl.codes)).toBeGreaterThanOrEqual(5);
    expect(Object.keys(r.stats.pak.codes).length, JSON.stringify(r.stats.pak.codes)).toBeGreaterThanOrEqual(4);
  });
});

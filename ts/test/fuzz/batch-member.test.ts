/**
 * `convert --all` with a hostile member (issue 36; batch-member.ts) for a fixed number of inputs (never a time
 * budget): a deep iqm.cfg, a big or repetitive .framegroups, a long md5anim, an MD2 of many frames beside good models,
 * each model converted as a batch worker converts it — the good ones convert, the hostile one converts or fails with a
 * typed code, within its memory bound and a step count linear in its bytes.
 *
 * Fails on the code before issue 36's fixes (docs/fuzzing.md, "Issue 36's campaigns"): the iqm.cfg of 4,000 nested
 * `if 1 [` takes the process down (a stack overflow inside a promise callback), and 4,000 nested `(!` run a quadratic
 * path. `npm run fuzz -- --only batch --seed 20261207 --inputs 18` runs the same inputs.
 */
import './alloc-meter-install.js'; // before glTF Transform loads
import { describe, expect, test } from 'vitest';
import { runBatchCampaign } from './batch-member.js';

describe('convert --all with a hostile member (issue 36), fixed input counts', () => {
  test('18 inputs: 6 hostile members × 3 scales beside good models', async () => {
    const r = await runBatchCampaign({ seed: 20261207, start: 0, count: 18 });
    expect(r.violations.map((v) => `${v.kind}, input ${v.index} (${v.ops.join('; ')}): ${v.detail.slice(0, 300)}`)).toEqual([]);
    expect(r.stats.batch.inputs).toBe(18);
    // the small and medium members convert
    expect(r.stats.batch.accepted).toBeGreaterThanOrEqual(12);
  });
});

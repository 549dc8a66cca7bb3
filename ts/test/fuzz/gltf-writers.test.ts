/**
 * Hostile glTF for the writers (issue 36; gltf-writers.ts) for a fixed number of inputs (never a time budget): PNG
 * bombs, long animations over many vertices, many joints over a long time, thousands of morph targets on one accessor,
 * each converted to md3, md2, md5, mdl and iqm with the default options and written — a model or a typed error, within
 * 256 MiB of typed arrays and a step count linear in the bytes read and written.
 *
 * Fails on the code before issue 36's fixes to the writers (docs/fuzzing.md, "Issue 36's campaigns", says which
 * input breaks which rule). `npm run fuzz -- --only gltf-writers --seed 20261207 --inputs 60` runs the same inputs
 * (and indices 0–19, the small tier, which this test leaves out).
 */
import './alloc-meter-install.js'; // before glTF Transform loads
import { describe, expect, test } from 'vitest';
import { runWriterCampaign, WRITER_FORMATS } from './gltf-writers.js';

describe('hostile glTF for the writers (issue 36), fixed input counts', () => {
  test('40 inputs: 4 shapes × 5 formats × the medium and large tiers', async () => {
    const r = await runWriterCampaign({ seed: 20261207, start: 20, count: 40 });
    expect(r.violations.map((v) => `${v.kind} in ${v.target}, input ${v.index} (${v.ops.join('; ')}): ${v.detail.slice(0, 300)}`)).toEqual([]);
    for (const f of WRITER_FORMATS) expect(r.stats[`gltf-writers:${f}`].inputs, f).toBe(8);
    // the medium tier converts and writes (the large one may be refused, with a typed error)
    for (const f of WRITER_FORMATS) expect(r.stats[`gltf-writers:${f}`].accepted, f).toBeGreaterThanOrEqual(4);
  });
});

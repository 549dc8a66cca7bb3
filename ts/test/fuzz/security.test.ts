/**
 * The classes of issue 27 under the fuzzer, each a target of its own and a fixed number of inputs (never a time
 * budget): `inflation` and `names` (security-targets.ts, mutated like every parser's seeds), `gltf-files` and
 * `gltf-deep` (gltf-hostile.ts, made by generators). `npm run fuzz -- --only inflation,names` and
 * `npm run fuzz -- --only gltf-files` (or gltf-deep) run the same campaigns for as many inputs as asked.
 */
import './alloc-meter-install.js';
import { describe, expect, test } from 'vitest';
import { CAMPAIGN_CADENCE, runCampaignTurning, type CampaignResult } from './campaign.js';
import { runHostileGltfCampaign } from './gltf-hostile.js';

const violationsOf = (r: CampaignResult) => r.violations.slice(0, 5).map((v) => `${v.kind} in ${v.target}, input ${v.index} of seed ${v.seed} (${v.from}; ${v.ops.join(' ')}): ${v.detail}`);

describe('issue 27 classes, fixed input counts', () => {
  test('inflation and names: 3,000 mutated inputs each', async () => {
    // `node scripts/fuzz.mjs --only inflation,names --seed 20260627 --inputs 6000` reproduces any failure
    const r = await runCampaignTurning({ seed: 20260627, start: 0, count: 6000, only: ['inflation', 'names'], ...CAMPAIGN_CADENCE });
    expect(violationsOf(r)).toEqual([]);
    for (const name of ['inflation', 'names']) {
      const s = r.stats[name];
      expect(s.inputs, name).toBe(3000);
      expect(s.accepted, name).toBeGreaterThan(50);
      expect(Object.keys(s.codes).length, `${name}: ${JSON.stringify(s.codes)}`).toBeGreaterThanOrEqual(3);
    }
    // the defaults refuse the seeds' bombs at open, and some mutants inflate to the bound and are read
    expect(r.stats.inflation.codes.INFLATE_LIMIT).toBeGreaterThan(100);
  });

  test('gltf-files: 600 .gltf files naming hostile files (links out, FIFOs, /dev/zero, URLs, .., %zz), read through gltfFileReader', async () => {
    const r = await runHostileGltfCampaign({ kind: 'gltf-files', seed: 20260627, start: 0, count: 600 });
    expect(violationsOf(r)).toEqual([]);
    const s = r.stats['gltf-files'];
    expect(s.inputs).toBe(600);
    expect(s.accepted).toBeGreaterThan(20);
    for (const code of ['READ_FAILED', 'RESOURCE_LIMIT', 'TRUNCATED', 'UNSAFE_PATH', 'UNSUPPORTED']) expect(s.codes[code], `${code}: ${JSON.stringify(s.codes)}`).toBeGreaterThan(2);
  });

  test('gltf-deep: 300 deep, long, cyclic and sparse structures', async () => {
    const r = await runHostileGltfCampaign({ kind: 'gltf-deep', seed: 20260627, start: 0, count: 300 });
    expect(violationsOf(r)).toEqual([]);
    const s = r.stats['gltf-deep'];
    expect(s.inputs).toBe(300);
    expect(s.accepted).toBeGreaterThan(20);
    for (const code of ['RESOURCE_LIMIT', 'UNSUPPORTED', 'BAD_COUNT']) expect(s.codes[code], `${code}: ${JSON.stringify(s.codes)}`).toBeGreaterThan(5);
  });
});

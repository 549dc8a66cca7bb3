/**
 * The glTF import under the mutation fuzzer, on a fixed number of inputs (`npm run fuzz -- --only gltf` runs the
 * same campaign longer): the corpus' glTF samples and the generated seeds, mutated (gltf-target.ts), fed to
 * `importGltf(…, { format: 'md3' })`. Each input imports to a model that passes the MD3 re-check and writes and reads
 * back, or throws ModelParseError — no other exception, within GLTF_MEMORY_BOUND (the time limit is `npm run fuzz`'s).
 */
import './alloc-meter-install.js';
import { describe, expect, test } from 'vitest';
import { importGltf } from '../../src/registry/import-gltf.js';
import { gltfToPlayer } from '../../src/formats/md3/player-from-gltf.js';
import { loopTurn } from '../helpers/loop-turn.js';
import { checkGltfInput, gltfSeeds, runGltfCampaign } from './gltf-target.js';

describe('glTF import fuzzer, fixed input count', () => {
  test('every seed imports', async () => {
    for (const s of await gltfSeeds()) {
      await loopTurn(); // an import awaits only promises already settled: the loop turns here (helpers/loop-turn.ts)
      const out = await checkGltfInput(s.bytes, s.resources);
      expect([s.name, out.code, out.violation]).toEqual([s.name, 'OK', undefined]);
    }
    // the player seed is one gltfToPlayer splits (so the campaign's player check gets past finding the parts): its
    // 25 clips and the 6 Team Arena gestures, which the cfg leaves to copy TORSO_GESTURE
    const player = (await gltfSeeds()).find((s) => s.name === 'generated:player.glb')!;
    expect((await gltfToPlayer(player)).lines.filter((l) => l.from)).toHaveLength(31);
  });

  test('an output past maxBytes is UNWRITABLE before anything is sampled (a mesh on many nodes makes an MD3 far bigger than the file)', async () => {
    const cesium = (await gltfSeeds()).find((s) => s.name.endsWith('CesiumMan.glb'))!;
    // 31 frames at 15 fps of 3273 vertices and a 56-byte frame record: 31 · (56 + 8 · 3273) = 813,440 bytes
    await expect(importGltf(cesium, { format: 'md3', maxBytes: 813_439 })).rejects.toThrow(/frames of 1 surfaces and 0 tags of MD3 are 813440 bytes to sample: over the limit maxImportBytes = 813439 /);
    expect((await importGltf(cesium, { format: 'md3', maxBytes: 813_440 })).frameCount).toBe(31);
  });

  test('mutated glTF: a model or a typed error, within bounds, written and read back; gltfToPlayer likewise', async () => {
    // Seed and count fixed, so a red run is reproducible: `node scripts/fuzz.mjs --only gltf --seed 20260625 --inputs 400`.
    const r = await runGltfCampaign({ seed: 20260625, start: 0, count: 400 });
    expect(r.violations.slice(0, 5).map((v) => `${v.kind}, input ${v.index} of seed ${v.seed} (${v.from}; ${v.ops.join(' ')}): ${v.detail}`)).toEqual([]);
    const s = r.stats.gltf;
    expect(s.inputs).toBe(400);
    expect(s.accepted).toBeGreaterThan(10);
    expect(Object.keys(s.codes).sort()).toEqual(['BAD_COUNT', 'UNSUPPORTED', 'UNWRITABLE']);
  });
});

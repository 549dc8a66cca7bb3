/**
 * The glTF importers' sampling options (checkSampling in gltf-scene.ts): fps and scale must be finite and positive,
 * and MD2, MD3, MD5 and the player refuse the same values with a RangeError before reading any animation.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gltfToMd2 } from '../../src/formats/md2/from-gltf.js';
import { gltfToMd3 } from '../../src/formats/md3/from-gltf.js';
import { gltfToMd5 } from '../../src/import/gltf-md5.js';
import { gltfToPlayer } from '../../src/formats/md3/player-from-gltf.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

const fox = () => ({ bytes: read(join(SHARED_MODELS, 'gltf-samples/bevy/assets/models/animated/Fox.glb')) });
const importers = { md2: gltfToMd2, md3: gltfToMd3, md5: gltfToMd5, player: gltfToPlayer } as const;

describe('glTF import options', () => {
  for (const [name, run] of Object.entries(importers)) {
    it(`${name}: fps and scale that are zero, negative, NaN or infinite are a RangeError`, async () => {
      for (const bad of [0, -1, NaN, Infinity, -Infinity]) {
        await expect(run(fox(), { fps: bad }), `fps ${bad}`).rejects.toThrow(new RangeError('fps and scale must be positive'));
        await expect(run(fox(), { scale: bad }), `scale ${bad}`).rejects.toThrow(new RangeError('fps and scale must be positive'));
      }
    });
  }
  it('a finite positive fps and scale are taken (the MD3 of Fox at 5 fps, half size)', async () => {
    const half = await gltfToMd3(fox(), { fps: 5, scale: 0.5 });
    const whole = await gltfToMd3(fox(), { fps: 5 });
    expect(half.frameCount).toBe(whole.frameCount);
    expect(half.frameRadii[0]).toBeCloseTo(whole.frameRadii[0] / 2, 1); // radii come from int16 positions (1/64 unit)
  });
});

/**
 * `loadPlayer(dir, { skin })` (Node): a real Quake 3 player folder → its parts, animation.cfg and skin resolved in
 * the game folder found above it, ready for `await toGlb(player, { textures: player.materials })`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { toGlb } from '../../src/registry/gltf.js';
import { locateGameFolder } from '../../src/load/game-folder.js';
import { loadPlayer, resolveTexturesOnDisk } from '../../src/registry/node.js';
import { SHARED_MODELS } from '../helpers/models.js';
import { readGlb } from '../helpers/textured.js';
import { expectClean, validate } from './validate.js';

const BSUIT = join(SHARED_MODELS, 'res-players_src.dpkdir/models/players/human_bsuit');

describe('loadPlayer', () => {
  test('human_bsuit: parts, animation.cfg and the _default skins, exported textured', async () => {
    const player = await loadPlayer(BSUIT);
    expect([player.lower.surfaces.length, player.upper.surfaces.length, player.head.surfaces.length]).toEqual([1, 1, 1]);
    expect(player.animationCfg?.animations.find((a) => a.name === 'BOTH_DEATH1')?.numFrames).toBeGreaterThan(0);
    expect(player.materials.place).toEqual({ gameDir: SHARED_MODELS, path: 'models/players/human_bsuit', archive: null, how: 'found' });
    expect(player.materials.materials.map((m) => [m.part, m.diffuse?.path])).toEqual(['lower', 'upper', 'head'].map((p) => [p, 'models/players/human_bsuit/human_bsuit.jpg']));
    expect([...player.materials.images.keys()]).toEqual(['models/players/human_bsuit/human_bsuit.jpg']);
    const glb = await toGlb(player, { textures: player.materials });
    expectClean([], 'bsuit', await validate(glb));
    const { json } = readGlb(glb);
    expect(json.materials.filter((m: any) => m.pbrMetallicRoughness.baseColorTexture).length).toBe(1); // one shared look
  });

  test('one part alone, named after its file (head), still takes its own materials', async () => {
    const player = await loadPlayer(BSUIT);
    const textures = await resolveTexturesOnDisk(join(BSUIT, 'head.md3'), player.head, { skin: 'default' });
    expect(textures.materials.map((m) => m.diffuse?.path)).toEqual(['models/players/human_bsuit/human_bsuit.jpg']);
    const { json } = readGlb(await toGlb(player.head, { textures, name: 'head' }));
    expect(json.images).toHaveLength(1);
  });

  test('a skin the folder lacks falls back to _default with a warning', async () => {
    const player = await loadPlayer(BSUIT, { skin: 'nosuch' });
    expect(player.materials.materials.every((m) => m.diffuse?.path === 'models/players/human_bsuit/human_bsuit.jpg')).toBe(true);
    expect(player.materials.warnings.length).toBeGreaterThan(0);
  });

  test('locateGameFolder: the folder above the nearest models/ wins; a scripts/ without .shader files is no game folder', async () => {
    const root = mkdtempSync(join(tmpdir(), 'idtech-locate-'));
    const file = (p: string, text = '') => (mkdirSync(join(root, p, '..'), { recursive: true }), writeFileSync(join(root, p), text));
    file('checkout/scripts/build.sh', 'echo');
    file('checkout/game/Models/props/box.md3');
    file('checkout/loose/box.md3');
    file('checkout/scripts2/scripts/props.shader', 'props/box { }');
    file('checkout/scripts2/props/box.md3');
    expect(await locateGameFolder(join(root, 'checkout/game/Models/props/box.md3'))).toMatchObject({ gameDir: join(root, 'checkout/game'), path: 'Models/props/box.md3', how: 'found' });
    expect(await locateGameFolder(join(root, 'checkout/loose/box.md3'))).toMatchObject({ gameDir: join(root, 'checkout/loose'), how: 'fallback' });
    expect(await locateGameFolder(join(root, 'checkout/scripts2/props/box.md3'))).toMatchObject({ gameDir: join(root, 'checkout/scripts2'), path: 'props/box.md3', how: 'found' });
  });

  test('locateGameFolder: an archive folder (.dpkdir) sends the search to the folder holding it', async () => {
    const place = await locateGameFolder(join(SHARED_MODELS, 'res-tremulous_src.dpkdir/models/mapobjects/stasis/stasis.md3'));
    expect(place).toEqual({ gameDir: SHARED_MODELS, path: 'models/mapobjects/stasis/stasis.md3', archive: null, how: 'found' });
  });
});

/**
 * `convert x.glb --player` and meshes named `weapon`: an upper body whose surfaces are `hands`, `weapon`, `weapon`
 * (the case) keeps all three; the weapon attachment (our exporter's `weapon` group on upper's tag_weapon,
 * ioquake3's weapon.md3) is left out with PLAYER_WEAPON_SKIPPED. Made from the real human_bsuit player and Tremulous'
 * rifle.md3 as its weapon.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Md3Model } from '../../src/base/model.js';
import { toGlb } from '../../src/registry/gltf.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { gltfToPlayer } from '../../src/formats/md3/player-from-gltf.js';
import { SHARED_MODELS } from '../helpers/models.js';

const BSUIT = join(SHARED_MODELS, 'res-players_src.dpkdir/models/players/human_bsuit');
const part = (f: string) => parseMd3(new Uint8Array(readFileSync(join(BSUIT, f))));
const rifle = parseMd3(new Uint8Array(readFileSync(join(SHARED_MODELS, 'res-tremulous_src.dpkdir/models/tremulous/weapons/rifle/rifle.md3'))));

/** human_bsuit's upper with its one surface three times over, named as the upper body. */
function handsAndWeapons(): Md3Model {
  const upper = part('upper.md3');
  const s = upper.surfaces[0];
  return { ...upper, surfaces: ['hands', 'weapon', 'weapon'].map((name) => ({ ...s, name })) };
}

describe('gltfToPlayer and nodes named weapon', () => {
  it('surfaces named weapon are kept; no warning about them', async () => {
    const glb = await toGlb({ models: { lower: part('lower.md3'), upper: handsAndWeapons(), head: part('head.md3') } });
    const r = await gltfToPlayer({ bytes: glb });
    expect(r.upper.surfaces.map((s) => s.name)).toEqual(['hands', 'weapon', 'weapon']);
    expect(r.warnings.map((w) => w.code)).not.toContain('PLAYER_WEAPON_SKIPPED');
  });

  it('the weapon attachment on tag_weapon is left out, with one warning saying so; the surfaces named weapon stay', async () => {
    const glb = await toGlb({ models: { lower: part('lower.md3'), upper: handsAndWeapons(), head: part('head.md3'), weapon: rifle } });
    const r = await gltfToPlayer({ bytes: glb });
    expect(r.upper.surfaces.map((s) => s.name)).toEqual(['hands', 'weapon', 'weapon']);
    expect(r.upper.surfaces[1].vertexCount).toBe(part('upper.md3').surfaces[0].vertexCount);
    const skipped = r.warnings.filter((w) => w.code === 'PLAYER_WEAPON_SKIPPED');
    expect(skipped.map((w) => w.message)).toEqual(['node "weapon" (1 mesh) is the weapon attachment (weapon.md3, hung on tag_weapon): not written into the player\'s parts']);
  });
});

/**
 * `DEFAULT_FORMATS` is the one list: the defaulting `toGlb` and `resolveModelTextures` of `/advanced`, `/write` and
 * `/textures` look a bare parsed model up among it by its data (`owns`, first match). So every registration that
 * exports must be reachable so: its own model's data is owned by it and by no format listed before it (a player's
 * parts are not taken for an MD3, a Tremulous folder's for a player's).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { md3Model } from '../../src/formats/md3/model-entry.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { openModelSet, type ModelSet } from '../../src/load/model-set.js';
import { DEFAULT_FORMATS, entryOwning } from '../../src/registry/formats.js';
import { toGlb } from '../../src/registry/gltf.js';
import { openModelOnDisk } from '../../src/registry/node.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { tremulousGame } from '../helpers/tremulous-game.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

/** A model of each format that exports (MANIFEST; the Tremulous folders are helpers/tremulous-game.ts's). */
const ON_DISK: Record<string, string> = {
  md5mesh: 'actors/drone/mesh.md5mesh',
  md2: 'assimp/test/models/MD2/faerie.md2',
  md3: 'assimp/test/models-nonbsd/MD3/watercan.md3',
  player: 'res-players_src.dpkdir/models/players/human_bsuit',
  mdl: 'LibreQuake/lq1/progs/dog.mdl',
  iqm: 'actors-iqm/janitor/janitor.iqm',
  hl1mdl: 'assimp/test/models/MDL/MDL (HL1)/blend_additive.mdl',
  mdc: 'assimp/test/models/MDC/spider.mdc',
  mds: 'rtcw-made/mds/cesiumman.mds',
  mdm: 'rtcw-made/mdmmdx/cesiumman.mdm',
};
const IN_GAME: Record<string, string> = { nonseg: 'models/players/spitfire', buildable: 'models/buildables/slime_zunge' };

async function sample(id: string): Promise<ModelSet> {
  if (ON_DISK[id]) return openModelOnDisk(join(SHARED_MODELS, ON_DISK[id]));
  const fs = memoryFileSystem([...tremulousGame()].map(([path, bytes]) => ({ path, bytes })));
  return openModelSet(fs, IN_GAME[id], { formats: DEFAULT_FORMATS });
}

describe('DEFAULT_FORMATS, the one list', () => {
  it('every registration that exports to glTF is found by its own data (no format before it claims the data)', async () => {
    const exporting = DEFAULT_FORMATS.filter((f) => f.gltf);
    expect(exporting.map((f) => f.id)).toEqual(['md5mesh', 'md2', 'md3', 'player', 'nonseg', 'buildable', 'mdl', 'iqm', 'hl1mdl', 'mdc', 'mds', 'mdm']);
    for (const f of exporting) {
      const set = await sample(f.id);
      expect(set.registration, f.id).toBe(f); // the sample is the format's own
      expect(entryOwning(set.data).id, f.id).toBe(f.id);
    }
  });

  it("toGlb finds a bare model there as by its format's entry: the same bytes, the same refusals", async () => {
    // watercan.md3 (MANIFEST: one surface, 92 vertices)
    const model = parseMd3(read(`${SHARED_MODELS}/assimp/test/models-nonbsd/MD3/watercan.md3`));
    expect(Buffer.compare(await toGlb(model), await toGlb(model, { formats: [md3Model] }))).toBe(0);
    await expect(toGlb({ format: 'md5anim' })).rejects.toThrow(/^Doom 3 animation \(md5anim\): no glTF export for this format$/);
    await expect(toGlb({})).rejects.toThrow(/no format here holds this value \(formats: md5mesh, md5anim, md2, md3, player, nonseg, buildable, mdl, iqm, hl1mdl, mdc, mds, mdm, mdx, md5camera\)/);
  });
});

/**
 * An MDL's materials through a file system: the palette at gfx/palette.lmp (else LibreQuake's, with a warning),
 * replacement skins found as vkQuake looks them up (`<model>_<i>` then progs/, textures/; png, tga, jpg), their
 * `_glow` / `_luma`, and what reaches a .glb through resolveModelTextures.
 */
import { describe, expect, test } from 'vitest';
import { parseMdl } from '../../src/formats/mdl/index.js';
import { DEFAULT_QUAKE_PALETTE } from '../../src/images/quake-palette.js';
import { encodePng } from '../../src/images/png-encode.js';
import { mdlSkinPicture, resolveMdlMaterials } from '../../src/formats/mdl/materials.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { readGlb } from '../export/gltf-eval.js';
import { buildMdl, richSpec } from '../mdl/_build.js';
import { toGlb } from '../../src/registry/gltf.js';
import { resolveModelTextures } from '../../src/registry/textures.js';

const model = parseMdl(buildMdl(richSpec()));
const path = 'progs/thing.mdl';
/** A palette unlike Quake's: every colour the inverse of LibreQuake's. */
const inverted = DEFAULT_QUAKE_PALETTE.map((c) => 255 - c);
const png = encodePng(new Uint8Array(4 * 4).fill(200), 2, 2);

describe('resolveMdlMaterials', () => {
  test('the palette at gfx/palette.lmp decodes the embedded skins', async () => {
    const fs = memoryFileSystem([{ path: 'gfx/palette.lmp', bytes: inverted }]);
    const set = await resolveMdlMaterials(fs, model, path);
    expect(set.palettePath).toBe('gfx/palette.lmp');
    expect(set.warnings).toEqual([]);
    expect(set.materials.map((m) => [m.index, m.diffuse?.path, m.diffuse?.embedded])).toEqual([[0, `${path}/skin0`, true], [1, `${path}/skin1_0`, true]]);
    expect(set.pixels.get(`${path}/skin0`)!.rgba).toEqual(mdlSkinPicture(model, 0, inverted).base);
    expect(set.pixels.get(`${path}/skin0`)!.rgba).not.toEqual(mdlSkinPicture(model, 0).base);
  });

  test('no palette in the file system: LibreQuake\'s, with a warning', async () => {
    const set = await resolveMdlMaterials(memoryFileSystem([]), model, path);
    expect(set.warnings.map((w) => w.code)).toEqual(['PALETTE_NOT_FOUND']);
    expect(set.pixels.get(`${path}/skin0`)!.rgba).toEqual(mdlSkinPicture(model, 0).base);
  });

  test('fullbright texels become the glow image, black in the skin', async () => {
    const set = await resolveMdlMaterials(null, model, path);
    for (const m of set.materials) {
      const pic = mdlSkinPicture(model, model.skins[m.index].firstPicture);
      expect(m.emissive ? set.pixels.get(m.emissive.path!)!.rgba : null).toEqual(pic.glow);
    }
  });

  test('a replacement skin takes precedence, in vkQuake\'s order; its _glow / _luma too; a group has none', async () => {
    const fs = memoryFileSystem([
      { path: 'textures/progs/thing.mdl_0.png', bytes: png },
      { path: 'progs/progs/thing.mdl_0.tga', bytes: png }, // found first: progs/<model>_0 before textures/<model>_0
      { path: 'progs/thing.mdl_0_luma.png', bytes: png },
      { path: 'progs/thing.mdl_1.png', bytes: png }, // record 1 is a group: not replaced
    ]);
    const set = await resolveMdlMaterials(fs, model, path);
    const [m0, m1] = set.materials;
    expect(m0.diffuse?.path).toBe('progs/progs/thing.mdl_0.tga');
    expect(m0.diffuse?.tried).toEqual(['progs/thing.mdl_0.png', 'progs/thing.mdl_0.tga', 'progs/thing.mdl_0.jpg', 'progs/progs/thing.mdl_0.png', 'progs/progs/thing.mdl_0.tga']);
    expect(m0.emissive?.path).toBe('progs/thing.mdl_0_luma.png');
    expect(m0.emissive?.tried.slice(0, 4)).toEqual(['progs/thing.mdl_0_glow.png', 'progs/thing.mdl_0_glow.tga', 'progs/thing.mdl_0_glow.jpg', 'progs/thing.mdl_0_luma.png']);
    expect(set.pixels.has(`${path}/skin0`)).toBe(false);
    expect(m1.diffuse?.path).toBe(`${path}/skin1_0`);
  });

  test('through resolveModelTextures to a .glb: the replacement\'s bytes, the embedded skin as PNG, the glow as emissive', async () => {
    const fs = memoryFileSystem([{ path: 'progs/thing.mdl_0_glow.png', bytes: png }, { path: 'gfx/palette.lmp', bytes: DEFAULT_QUAKE_PALETTE }, { path: 'progs/thing.mdl_0.png', bytes: png }]);
    const textures = await resolveModelTextures(fs, model, path);
    expect([...textures.images.keys()].sort()).toEqual(['progs/thing.mdl_0.png', 'progs/thing.mdl_0_glow.png']);
    const g = readGlb(await toGlb(model, { name: 'thing', textures }));
    const mat = g.json.materials[0];
    expect(g.json.images.length).toBe(2);
    expect(mat.emissiveTexture).toBeDefined();
    expect(mat.pbrMetallicRoughness.baseColorTexture).toBeDefined();
    // The registration resolves the skin shown (record 0 unless `skin` names another), as the material of the one mesh.
    expect(textures.materials.map((m) => [m.index, m.diffuse?.path])).toEqual([[0, 'progs/thing.mdl_0.png']]);
    const skin1 = await resolveModelTextures(fs, model, path, { skin: 'skin1' });
    expect(skin1.materials.map((m) => [m.index, m.diffuse?.path])).toEqual([[0, `${path}/skin1_0`]]);
    expect([...(skin1.pixels?.keys() ?? [])]).toEqual([`${path}/skin1_0`, `${path}/skin1_0_glow`]); // its fullbrights as the glow
    const g1 = readGlb(await toGlb(model, { name: 'thing', textures: skin1 }));
    expect(g1.json.materials[0].name).toBe(`${path}/skin1_0`);
    // a skin the model does not carry: a warning naming the ones it does, and record 0 shown
    const missing = await resolveModelTextures(fs, model, path, { skin: 'skin9' });
    expect(missing.warnings.map((w) => w.code)).toContain('SKIN_NOT_FOUND');
    expect(missing.materials.map((m) => m.diffuse?.path)).toEqual(['progs/thing.mdl_0.png']);
    // without textures, the exporter's mdlSkin picks among the carried skins
    expect(readGlb(await toGlb(model, { name: 'thing', mdlSkin: 1 })).json.materials[0].name).toBe('thing/skin1_0'); // named after the model given
  });
});

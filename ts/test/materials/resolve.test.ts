/**
 * The resolver on the corpus's textured models (../shared/models README groups A1–A5, B1–B3, C1–C3): every surface
 * reaches the image the README documents, through the engine rule the group exercises; missing textures are
 * warnings, one per name, never exceptions.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Md3Model } from '../../src/base/model.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import { listSkins, MaterialResolver, PLAYER_PARTS, type MaterialSet, type ResolvedMaterial } from '../../src/materials/index.js';
import { SHARED_MODELS } from '../helpers/models.js';
import { sharedBytes, sharedFileSystem } from '../helpers/shared-fs.js';

/** A game folder of the corpus and a model in it. */
interface Case {
  group: string;
  root: string;
  model: string;
  resolve: (r: MaterialResolver, path: string) => Promise<MaterialSet>;
  /** Per surface / mesh / skin record: the documented image paths (relative to root). */
  expect: { surface: string; diffuse: string; normal?: string; specular?: string }[];
}

const md3 = (root: string, opts?: { skin?: string }) => (r: MaterialResolver, path: string) => r.md3(parseMd3(sharedBytes(join(root, path))), path, opts);
const md2 = (root: string) => (r: MaterialResolver, path: string) => r.md2(parseMd2(sharedBytes(join(root, path))), path);
const md5 = (root: string) => (r: MaterialResolver, path: string) => r.md5(parseMd5Mesh(sharedBytes(join(root, path))), path);

const PLAYERS = 'res-players_src.dpkdir';
const TREM = 'res-tremulous_src.dpkdir';
const AAA = 'aaa-assets';
const WEAPONS = 'res-weapons_src.dpkdir';
const stasis = 'models/mapobjects/stasis/';
const portal = 'models/fx/portal/';
const launcher = 'models/weapons/grenade_launcher/';

const CASES: Case[] = [
  {
    group: 'A2 shaders without extension, files .png/.jpg',
    root: TREM,
    model: `${stasis}stasis.md3`,
    resolve: md3(TREM),
    expect: [
      { surface: 'bubbles', diffuse: `${stasis}bubbles.png` },
      { surface: 'chamber', diffuse: `${stasis}chamber.png` },
      { surface: 'flow_pipe', diffuse: `${stasis}flowpipe.png` },
      { surface: 'lifemeter', diffuse: `${stasis}lifemeter.png` },
      // lifemeter2's first stage scrolls meters (tcMod scroll) under the alpha-tested lifemeter2: no stage is lit
      // by rgbGen lightingDiffuse, so ioquake3's single-pass rank (VertexLightingCollapse) picks the unmoving one.
      { surface: 'lifemeter2', diffuse: `${stasis}lifemeter2.png` },
      { surface: 'window', diffuse: `${stasis}window.png` },
    ],
  },
  { group: 'A2b grass', root: TREM, model: 'models/mapobjects/plant_life/grass.md3', resolve: md3(TREM), expect: [{ surface: 'grass', diffuse: 'models/mapobjects/plant_life/grass.png' }] },
  { group: 'A5 plain .tga → .jpg fallback', root: TREM, model: 'models/mapobjects/nexus6/wallthing.md3', resolve: md3(TREM), expect: [{ surface: 'wallthing', diffuse: 'models/mapobjects/nexus6/wallthing.jpg' }] },
  { group: 'A5 computer.jpg → shader computer', root: TREM, model: 'models/mapobjects/nexus6/computer.md3', resolve: md3(TREM), expect: [{ surface: 'computer', diffuse: 'models/mapobjects/nexus6/computer.jpg' }] },
  {
    group: 'A3 leading / names, no skin: the implicit images',
    root: AAA,
    model: `${portal}portals.md3`,
    resolve: md3(AAA),
    expect: [
      { surface: 'portalcenter', diffuse: `${portal}portalcenter.jpg` },
      { surface: 'portalring', diffuse: `${portal}portalring.jpg` },
    ],
  },
  {
    group: 'A3 skin blue: shader stages say .tga, files are .jpg',
    root: AAA,
    model: `${portal}portals.md3`,
    resolve: md3(AAA, { skin: 'blue' }),
    expect: [
      { surface: 'portalcenter', diffuse: `${portal}bluecenter.jpg` },
      { surface: 'portalring', diffuse: `${portal}bluering.jpg` },
    ],
  },
  {
    group: 'A3 skin orange',
    root: AAA,
    model: `${portal}portals.md3`,
    resolve: md3(AAA, { skin: 'orange' }),
    expect: [
      { surface: 'portalcenter', diffuse: `${portal}orangecenter.jpg` },
      { surface: 'portalring', diffuse: `${portal}orangering.jpg` },
    ],
  },
  {
    group: 'A4 .shader diffuse + .mtr normal and specular',
    root: AAA,
    model: `${launcher}grenade_launcher.md3`,
    resolve: md3(AAA),
    expect: ['glauncher', 'glauncher_chamber'].map((surface) => ({
      surface,
      diffuse: `${launcher}launcher_d.jpg`,
      normal: `${launcher}launcher_n.tga`,
      specular: `${launcher}launcher_s.tga`,
    })),
  },
  {
    group: 'B1 Daemon diffuseMap/normalMap/specularMap',
    root: WEAPONS,
    model: 'models/weapons/grenade/grenade.md5mesh',
    resolve: md5(WEAPONS),
    expect: [{ surface: '', diffuse: 'models/weapons/grenade/grenade.png', normal: 'models/weapons/grenade/grenade_n.png', specular: 'models/weapons/grenade/grenade_s.png' }],
  },
  {
    group: 'B2 static md5mesh',
    root: WEAPONS,
    model: 'models/weapons/firebomb/firebomb.md5mesh',
    resolve: md5(WEAPONS),
    expect: [{ surface: '', diffuse: 'models/weapons/firebomb/firebomb.png', normal: 'models/weapons/firebomb/firebomb_n.png', specular: 'models/weapons/firebomb/firebomb_s.png' }],
  },
  {
    group: 'B3 md5.cfg md5skin / md5bumpmap by `// meshes:` names',
    root: 'actors',
    model: 'drone/mesh.md5mesh',
    resolve: md5('actors'),
    expect: ['HumanMale.001', 'HumanMale.002'].map((surface) => ({ surface, diffuse: 'drone/skin.jpg', normal: 'drone/normals.png' })),
  },
  {
    group: 'C1 MD2 skin name is the real path',
    root: 'distrib/baseaq/pak0',
    model: 'models/indicator/arrow_blue.md2',
    resolve: md2('distrib/baseaq/pak0'),
    expect: [{ surface: '', diffuse: 'models/indicator/arrow_blue.pcx' }],
  },
  {
    group: 'C1 red',
    root: 'distrib/baseaq/pak0',
    model: 'models/indicator/arrow_red.md2',
    resolve: md2('distrib/baseaq/pak0'),
    expect: [{ surface: '', diffuse: 'models/indicator/arrow_red.pcx' }],
  },
  {
    group: 'C2 truncated skin name: skin.jpg beside the model (AssaultCube)',
    root: 'AC',
    model: 'packages/models/mapmodels/sitters/ton/down/tris.md2',
    resolve: md2('AC'),
    expect: [{ surface: '', diffuse: 'packages/models/mapmodels/sitters/ton/down/skin.jpg' }],
  },
  {
    group: 'C3 Windows-ish skin path: its file name beside the model',
    root: 'assimp/test/models-nonbsd/MD2',
    model: 'dolphin.md2',
    resolve: md2('assimp/test/models-nonbsd/MD2'),
    expect: [{ surface: '', diffuse: 'dolphin_f.bmp' }],
  },
];

/** The 1-based line of the first line of a corpus file that contains `text` (or, trimmed, equals it with `exact`). */
const lineOf = (path: string, text: string, exact = false) =>
  readFileSync(join(SHARED_MODELS, path), 'latin1')
    .split('\n')
    .findIndex((l) => (exact ? l.trim() === text : l.includes(text))) + 1;

const onDisk = (root: string, path: string | null | undefined) => !!path && existsSync(join(SHARED_MODELS, root, path));

describe('every surface of every textured corpus model resolves to its documented image', () => {
  for (const c of CASES) {
    test(`${c.group}: ${c.model}`, async () => {
      const set = await c.resolve(new MaterialResolver(sharedFileSystem(c.root)), c.model);
      expect(set.materials.map((m) => m.surface)).toEqual(c.expect.map((e) => e.surface));
      for (const [i, e] of c.expect.entries()) {
        const m = set.materials[i];
        expect(m.diffuse?.path, `${e.surface} diffuse`).toBe(e.diffuse);
        if (e.normal) expect(m.normal?.path, `${e.surface} normal`).toBe(e.normal);
        if (e.specular) expect(m.specular?.path, `${e.surface} specular`).toBe(e.specular);
        for (const img of [m.diffuse, m.normal, m.specular]) if (img?.path) expect(onDisk(c.root, img.path), img.path).toBe(true);
      }
      expect(set.warnings.filter((w) => w.code === 'IMAGE_NOT_FOUND' || w.code === 'SHADER_NOT_FOUND')).toEqual([]);
    });
  }

  test('A1 player human_bsuit: each part through its _default.skin to human_bsuit.jpg', async () => {
    const fs = sharedFileSystem(PLAYERS);
    const dir = 'models/players/human_bsuit';
    const part = (p: string) => parseMd3(sharedBytes(`${PLAYERS}/${dir}/${p}.md3`));
    const set = await new MaterialResolver(fs).player({ lower: part('lower'), upper: part('upper'), head: part('head') }, dir);
    expect(set.materials.map((m) => [m.part, m.surface, m.diffuse?.path, m.nameSource.kind])).toEqual([
      ['lower', 'l_legs', `${dir}/human_bsuit.jpg`, 'skin'],
      ['upper', 'u_torso', `${dir}/human_bsuit.jpg`, 'skin'],
      ['head', 'h_head', `${dir}/human_bsuit.jpg`, 'skin'],
    ]);
    expect(set.materials.map((m) => m.nameSource.kind === 'skin' && m.nameSource.at.path)).toEqual([`${dir}/lower_default.skin`, `${dir}/upper_default.skin`, `${dir}/head_default.skin`]);
    expect(set.warnings).toEqual([]);
  });
});

describe('engine rules on real data', () => {
  const trem = () => new MaterialResolver(sharedFileSystem(TREM));
  const byName = (set: MaterialSet, surface: string) => set.materials.find((m) => m.surface === surface) as ResolvedMaterial;

  test('the first stage decides how a surface blends: filter multiplies, add adds, an alpha test masks, cull disable is two-sided', async () => {
    const s = await md3(TREM)(trem(), `${stasis}stasis.md3`);
    expect([byName(s, 'window').blendMode, byName(s, 'chamber').blendMode]).toEqual(['multiply', 'opaque']);
    expect(byName(s, 'window').others.map((o) => o.path)).toEqual([`${stasis}bubbles.png`]);
    expect(byName(s, 'flow_pipe').others.map((o) => o.path)).toEqual(['models/tremulous/buildables/overmind/ref2.png']);
    const grass = (await md3(TREM)(trem(), 'models/mapobjects/plant_life/grass.md3')).materials[0];
    expect([grass.alphaTest, grass.doubleSided]).toEqual([{ op: '>=', cutoff: 0.5, written: 'GE128' }, true]);
    const blue = (await md3(AAA, { skin: 'blue' })(new MaterialResolver(sharedFileSystem(AAA)), `${portal}portals.md3`)).materials;
    expect(blue.map((m) => [m.blendMode, m.doubleSided, m.definition.kind])).toEqual([['additive', true, 'shader'], ['additive', true, 'shader']]);
  });

  test('$lightmap then a filtered image is that image, opaque; the additive third stage is its glow; a dotted stage name finds computer.blend.jpg', async () => {
    const m = (await md3(TREM)(trem(), 'models/mapobjects/nexus6/computer.md3')).materials[0];
    const script = `${TREM}/scripts/nexus6.shader`;
    expect(m.definition).toMatchObject({ kind: 'shader', name: 'models/mapobjects/nexus6/computer', at: { path: 'scripts/nexus6.shader', line: lineOf(script, 'models/mapobjects/nexus6/computer', true) } });
    expect([m.blendMode, m.diffuse?.writtenAt?.line]).toEqual(['opaque', lineOf(script, 'map models/mapobjects/nexus6/computer', true)]);
    // Daemon's CollapseStages: colour stage, lightmap stage, `blendfunc GL_ONE GL_ONE` stage → diffuse + glow map.
    expect(m.others.map((o) => o.builtin ?? o.path)).toEqual(['$lightmap']);
    expect(m.emissive?.path).toBe('models/mapobjects/nexus6/computer.blend.jpg');
    expect(m.emissive?.tried).toEqual(['models/mapobjects/nexus6/computer.blend.tga', 'models/mapobjects/nexus6/computer.blend.jpg']);
  });

  test('no definition: the name is an image, and the .tga named is tried before the .jpg found', async () => {
    const m = (await md3(TREM)(trem(), 'models/mapobjects/nexus6/wallthing.md3')).materials[0];
    expect(m.definition.kind).toBe('implicit');
    expect(m.diffuse?.tried).toEqual(['models/mapobjects/nexus6/wallthing.tga', 'models/mapobjects/nexus6/wallthing.jpg']);
  });

  test('animMap: every frame found and the rate kept; the diffuse is the first frame', async () => {
    const portals = parseMd3(sharedBytes(`${AAA}/${portal}portals.md3`));
    const model: Md3Model = { ...portals, surfaces: [{ ...portals.surfaces[0], shaders: [{ name: 'gfx/portalgun/red', index: 0 }] }] };
    const m = (await new MaterialResolver(sharedFileSystem(AAA)).md3(model, `${portal}portals.md3`)).materials[0];
    expect(m.animation?.fps).toBe(24);
    expect(m.animation?.frames.map((f) => f.path)).toEqual([1, 2, 3, 4].map((k) => `gfx/portalgun/red_${k}.jpg`));
    expect(m.diffuse?.path).toBe('gfx/portalgun/red_1.jpg');
  });

  test('missing animMap frames: one IMAGE_NOT_FOUND per frame name, with the script line; never an exception', async () => {
    const firebomb = parseMd5Mesh(sharedBytes(`${WEAPONS}/models/weapons/firebomb/firebomb.md5mesh`));
    const mesh = { ...firebomb, meshes: [firebomb.meshes[0], { ...firebomb.meshes[0], shader: 'gfx/weapons/firebomb/fire' }, { ...firebomb.meshes[0], shader: 'gfx/weapons/firebomb/fire' }] };
    const set = await new MaterialResolver(sharedFileSystem(WEAPONS)).md5(mesh, 'models/weapons/firebomb/firebomb.md5mesh');
    const missing = set.warnings.filter((w) => w.code === 'IMAGE_NOT_FOUND');
    expect(missing).toHaveLength(25);
    expect(new Set(missing.map((w) => w.message)).size).toBe(25);
    const animLine = lineOf(`${WEAPONS}/scripts/firebomb.shader`, 'animMap');
    expect(missing.every((w) => w.path === 'scripts/firebomb.shader' && w.line === animLine)).toBe(true);
    expect(set.materials[1]).toMatchObject({ blendMode: 'additive', translucent: true, diffuse: { path: null, name: 'gfx/weapons/firebomb/fire/fire-01' } });
  });

  test('no shader, material or image: one SHADER_NOT_FOUND per name (rifle_view: 3 meshes, 2 names)', async () => {
    const path = 'models/weapons/rifle/rifle_view.md5mesh';
    const set = await md5(WEAPONS)(new MaterialResolver(sharedFileSystem(WEAPONS)), path);
    expect(set.materials.map((m) => [m.shaderName, m.definition.kind, m.diffuse?.path ?? null])).toEqual([
      ['models/weapons/rifle/rifle', 'none', null],
      ['models/weapons/hand', 'none', null],
      ['models/weapons/hand', 'none', null],
    ]);
    expect(set.warnings.map((w) => w.code)).toEqual(['SHADER_NOT_FOUND', 'SHADER_NOT_FOUND']);
  });

  test('Cube md5.cfg: masks kept as a mask image; the turret, whose images are not shipped, warns per file', async () => {
    const r = new MaterialResolver(sharedFileSystem('actors'));
    const drone = (await md5('actors')(r, 'drone/mesh.md5mesh')).materials[0];
    expect(drone.others.map((o) => [o.role, o.path])).toEqual([['mask', 'drone/mask.jpg']]);
    expect(drone.nameSource).toMatchObject({ kind: 'cube-cfg', at: { path: 'drone/md5.cfg', line: lineOf('actors/drone/md5.cfg', 'md5skin HumanMale.001') } });
    const turret = await md5('actors')(r, 'turret/turret.md5mesh');
    expect(turret.materials.map((m) => m.surface)).toEqual(['turret-cannon', 'turret-circle', 'turret-stand', 'turret-top']);
    expect(turret.warnings.map((w) => w.message.split("'")[1])).toEqual(['skin1.png', 'norms1.png', 'mask1.jpg', 'skin2.png', 'norms2.png', 'mask2.jpg']);
  });

  test('MD2 beside-model fallbacks say so: IMAGE_BESIDE_MODEL, with every path tried', async () => {
    const set = await md2('AC')(new MaterialResolver(sharedFileSystem('AC')), 'packages/models/mapmodels/sitters/ton/down/tris.md2');
    expect(set.materials[0].nameSource.kind).toBe('beside-model');
    expect(set.warnings.map((w) => w.code)).toEqual(['IMAGE_BESIDE_MODEL']);
    expect(set.materials[0].diffuse?.tried.at(-1)).toBe('packages/models/mapmodels/sitters/ton/down/skin.jpg');
  });

  test('a player skin that does not exist falls back to _default with one warning per part', async () => {
    const dir = 'models/players/human_bsuit';
    const lower = parseMd3(sharedBytes(`${PLAYERS}/${dir}/lower.md3`));
    const set = await new MaterialResolver(sharedFileSystem(PLAYERS)).player({ lower }, dir, { skin: 'red' });
    expect(set.materials[0].diffuse?.path).toBe(`${dir}/human_bsuit.jpg`);
    expect(set.warnings.map((w) => [w.code, w.path])).toEqual([['SKIN_NOT_FOUND', `${dir}/lower_red.skin`]]);
  });
});

describe('skins a folder offers', () => {
  test('a player folder: default, complete for lower, upper and head', async () => {
    const offers = await listSkins(sharedFileSystem(PLAYERS), 'models/players/human_bsuit', PLAYER_PARTS);
    expect(offers).toEqual([
      {
        name: 'default',
        complete: true,
        files: Object.fromEntries(PLAYER_PARTS.map((p) => [p, `models/players/human_bsuit/${p}_default.skin`])),
      },
    ]);
  });

  test('a model folder: portals_blue and portals_orange are skins blue and orange of portals', async () => {
    const offers = await listSkins(sharedFileSystem(AAA), portal.slice(0, -1));
    expect(offers.map((o) => [o.name, o.files, o.complete])).toEqual([
      ['blue', { portals: `${portal}portals_blue.skin` }, true],
      ['orange', { portals: `${portal}portals_orange.skin` }, true],
    ]);
  });
});

import { test } from 'vitest';
import { MaterialResolver } from '../../src/materials/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import { sharedFileSystem, sharedBytes } from '../helpers/shared-fs.js';

const show = (set: any) => {
  for (const m of set.materials) console.log(m.part ?? '', m.surface, '|', m.shaderName, '|', m.definition.kind, '|', m.diffuse?.path, m.normal?.path, m.specular?.path, m.blendMode, m.alphaTest?.written, m.sides, (m.others||[]).map((o: any) => o.path ?? o.builtin ?? o.name).join(','), m.animation ? m.animation.frames.map((f:any)=>f.path).join(',') : '');
  for (const w of set.warnings) console.log('  W', w.code, w.message);
};
test('scratch', async () => {
  const r1 = new MaterialResolver(sharedFileSystem('res-players_src.dpkdir'));
  const f = 'res-players_src.dpkdir/models/players/human_bsuit/';
  show(await r1.player({ lower: parseMd3(sharedBytes(f + 'lower.md3')), upper: parseMd3(sharedBytes(f + 'upper.md3')), head: parseMd3(sharedBytes(f + 'head.md3')) }, 'models/players/human_bsuit'));
  const r2 = new MaterialResolver(sharedFileSystem('res-tremulous_src.dpkdir'));
  for (const p of ['models/mapobjects/stasis/stasis.md3', 'models/mapobjects/plant_life/grass.md3', 'models/mapobjects/nexus6/wallthing.md3', 'models/mapobjects/nexus6/computer.md3']) show(await r2.md3(parseMd3(sharedBytes('res-tremulous_src.dpkdir/' + p)), p));
  const r3 = new MaterialResolver(sharedFileSystem('aaa-assets'));
  const portals = parseMd3(sharedBytes('aaa-assets/models/fx/portal/portals.md3'));
  show(await r3.md3(portals, 'models/fx/portal/portals.md3'));
  show(await r3.md3(portals, 'models/fx/portal/portals.md3', { skin: 'blue' }));
  show(await r3.md3(parseMd3(sharedBytes('aaa-assets/models/weapons/grenade_launcher/grenade_launcher.md3')), 'models/weapons/grenade_launcher/grenade_launcher.md3'));
  const r4 = new MaterialResolver(sharedFileSystem('res-weapons_src.dpkdir'));
  for (const p of ['models/weapons/grenade/grenade.md5mesh', 'models/weapons/firebomb/firebomb.md5mesh', 'models/weapons/rifle/rifle_view.md5mesh']) show(await r4.md5(parseMd5Mesh(sharedBytes('res-weapons_src.dpkdir/' + p)), p));
  const r5 = new MaterialResolver(sharedFileSystem('actors'));
  show(await r5.md5(parseMd5Mesh(sharedBytes('actors/drone/mesh.md5mesh')), 'drone/mesh.md5mesh'));
  show(await r5.md5(parseMd5Mesh(sharedBytes('actors/turret/turret.md5mesh')), 'turret/turret.md5mesh'));
  const r6 = new MaterialResolver(sharedFileSystem('distrib/baseaq/pak0'));
  show(await r6.md2(parseMd2(sharedBytes('distrib/baseaq/pak0/models/indicator/arrow_blue.md2')), 'models/indicator/arrow_blue.md2'));
  const r7 = new MaterialResolver(sharedFileSystem('AC'));
  show(await r7.md2(parseMd2(sharedBytes('AC/packages/models/mapmodels/sitters/ton/down/tris.md2')), 'packages/models/mapmodels/sitters/ton/down/tris.md2'));
  const r8 = new MaterialResolver(sharedFileSystem('assimp/test/models-nonbsd/MD2'));
  show(await r8.md2(parseMd2(sharedBytes('assimp/test/models-nonbsd/MD2/dolphin.md2')), 'dolphin.md2'));
  console.log((await r2.library()).warnings, (await r3.library()).warnings, (await r4.library()).warnings);
});

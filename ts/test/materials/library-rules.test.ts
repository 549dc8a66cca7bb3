/**
 * Resolver rules the corpus has no file for, on small game folders written here: which script wins, a script
 * the engine ignores, Doom 3 materials and implicit materials, skins without an entry, aborting.
 */
import { describe, expect, test } from 'vitest';
import type { Md5Mesh } from '../../src/base/model.js';
import { ModelParseError } from '../../src/base/errors.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import { loadMaterialLibrary, MaterialResolver } from '../../src/materials/index.js';
import { doom3DdsName, hasDdsCommand, tesseractDdsName } from '../../src/materials/names.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { sharedBytes } from '../helpers/shared-fs.js';

const enc = (s: string) => new TextEncoder().encode(s);
const folder = (files: Record<string, string>) => memoryFileSystem(Object.entries(files).map(([path, text]) => ({ path, bytes: enc(text) })));

/** The corpus grenade mesh with its one mesh's shader renamed. */
function meshNamed(shader: string): Md5Mesh {
  const m = parseMd5Mesh(sharedBytes('res-weapons_src.dpkdir/models/weapons/grenade/grenade.md5mesh'));
  return { ...m, meshes: m.meshes.map((p) => ({ ...p, shader })) };
}

describe('the library', () => {
  test('the last shader file listed wins (ioquake3 concatenates in reverse), others are reported', async () => {
    const lib = await loadMaterialLibrary(
      folder({
        'scripts/a.shader': 'x\n{\n{\nmap from_a\n}\n}',
        'scripts/b.shader': 'x\n{\n{\nmap from_b\n}\n}\nx\n{\n{\nmap from_b_again\n}\n}',
        'scripts/sub/c.shader': 'x\n{\n{\nmap from_subfolder\n}\n}',
      }),
    );
    expect(lib.shaders.get('x')?.stages[0].map).toBe('from_b');
    expect(lib.shaders.get('x')?.path).toBe('scripts/b.shader');
    expect(lib.warnings.map((w) => [w.code, w.path, w.line])).toEqual([
      ['SHADER_REDEFINED', 'scripts/b.shader', 7],
      ['SHADER_REDEFINED', 'scripts/a.shader', 1],
    ]);
  });

  test('a file the engine ignores (a missing brace) is skipped whole with SCRIPT_IGNORED at its line; the rest loads', async () => {
    const fs = folder({ 'scripts/bad.shader': 'y\n{\n{\nmap y\n}\n', 'scripts/good.shader': 'z\n{\n{\nmap z\n}\n}' });
    const lib = await loadMaterialLibrary(fs);
    expect([...lib.shaders.keys()]).toEqual(['z']);
    expect(lib.warnings).toMatchObject([{ code: 'SCRIPT_IGNORED', path: 'scripts/bad.shader', line: 6 }]);
    // Every resolution reports it: the definitions it held are unknown.
    const set = await new MaterialResolver(fs).md5(meshNamed('z'), 'm.md5mesh');
    expect(set.warnings.map((w) => w.code)).toEqual(['SCRIPT_IGNORED', 'IMAGE_NOT_FOUND']);
  });

  test('Doom 3 materials: the first definition in sorted file order wins', async () => {
    const lib = await loadMaterialLibrary(folder({ 'materials/a.mtr': 'm { diffusemap first }', 'materials/b.mtr': 'M.tga { diffusemap second }' }));
    expect(lib.materials.get('m')?.stages[0].map?.text).toBe('first');
    expect(lib.warnings.map((w) => w.code)).toEqual(['MATERIAL_REDEFINED']);
    expect(lib.doom3).toBe(true);
  });
});

describe('Doom 3 and implicit materials on an md5mesh', () => {
  test('a Doom 3 material: diffuse, the first image of an addnormals program, specular; .tga falls back to .jpg', async () => {
    const fs = folder({
      'materials/m.mtr': 'models/g { diffusemap models/g_d\n bumpmap addnormals(models/g_local, heightmap(models/g_h, 4))\n specularmap models/g_s.tga\n twoSided }',
      'models/g_d.tga': '',
      'models/g_local.tga': '',
      'models/g_s.jpg': '',
    });
    const m = (await new MaterialResolver(fs).md5(meshNamed('models/g'), 'models/g.md5mesh')).materials[0];
    expect(m.definition).toMatchObject({ kind: 'mtr', name: 'models/g', at: { path: 'materials/m.mtr', line: 1 } });
    expect([m.diffuse?.path, m.normal?.path, m.specular?.path]).toEqual(['models/g_d.tga', 'models/g_local.tga', 'models/g_s.jpg']);
    expect(m.normal?.program).toBe('addnormals(models/g_local, heightmap(models/g_h, 4))');
    expect([m.blendMode, m.doubleSided]).toEqual(['opaque', true]);
  });

  test('no definition in a Doom 3 folder: the implicit material blends and clamps (idMaterial::SetDefaultText)', async () => {
    const fs = folder({ 'materials/other.mtr': 'unrelated { diffusemap x }', 'models/plain.jpg': '' });
    const m = (await new MaterialResolver(fs).md5(meshNamed('models/plain'), 'models/plain.md5mesh')).materials[0];
    expect(m).toMatchObject({ definition: { kind: 'implicit' }, blendMode: 'alpha', clamp: true, translucent: true, diffuse: { path: 'models/plain.jpg' } });
  });

  test('no definition in a Quake 3 / Daemon folder: the implicit shader is opaque (R_FindShader)', async () => {
    const fs = folder({ 'scripts/other.shader': 'unrelated\n{\n{\nmap x\n}\n}', 'models/plain.png': '' });
    const m = (await new MaterialResolver(fs).md5(meshNamed('models/plain'), 'models/plain.md5mesh')).materials[0];
    expect(m).toMatchObject({ definition: { kind: 'implicit' }, blendMode: 'opaque', clamp: false, diffuse: { path: 'models/plain.png' } });
  });

  test('an aborted signal stops resolution with ABORTED, the one error type', async () => {
    const ac = new AbortController();
    ac.abort();
    const r = new MaterialResolver(folder({ 'models/plain.png': '' }), { signal: ac.signal });
    const e = await r.md5(meshNamed('models/plain'), 'models/plain.md5mesh').catch((x) => x);
    expect(e).toBeInstanceOf(ModelParseError);
    expect((e as ModelParseError).code).toBe('ABORTED');
  });
});

describe("engines' precompressed files: Doom 3's dds/ tree, Tesseract's <dds>", () => {
  test("names: Doom 3's dds/ file name (ImageProgramStringToCompressedFileName), Tesseract's, the <dds> command", () => {
    expect(doom3DdsName('models/monsters/imp/imp.tga')).toBe('dds/models/monsters/imp/imp.dds');
    expect(doom3DdsName('textures/base_wall/a.jpg')).toBe('dds/textures/base_wall/a_jpg.dds');
    expect(doom3DdsName('a\\b/c/d/e/f/g')).toBe('dds/a/b/c/d/e f g.dds'); // separators past the fourth become spaces
    expect(tesseractDdsName('actors/drone/skin.jpg')).toBe('actors/drone/skin.dds');
    expect(tesseractDdsName('x.jpeg')).toBe('x..dds'); // the last four characters, whatever they are (texture.cpp memcpy)
    expect([tesseractDdsName('abc'), tesseractDdsName('a/skin.DDS')]).toEqual([null, null]);
    expect(['<dds>x.png', '<dds:2>x.png', '<mad:1/1/1><dds>x.png', '<thumbnail><dds>x.png', 'x.png'].map(hasDdsCommand)).toEqual([true, true, true, false, false]);
  });

  test('a Doom 3 material takes dds/<name>.dds when it is there, else the image; a material of scripts/ (XreaL) never looks', async () => {
    const mtr = 'models/g { diffusemap models/g_d.tga\n specularmap models/g_s\n bumpmap addnormals(models/g_local, heightmap(models/g_h, 4)) }';
    const fs = folder({ 'materials/m.mtr': mtr, 'dds/models/g_d.dds': 'DDS ', 'models/g_d.tga': '', 'models/g_s.tga': '', 'models/g_local.tga': '' });
    const m = (await new MaterialResolver(fs).md5(meshNamed('models/g'), 'models/g.md5mesh')).materials[0];
    expect(m.diffuse).toMatchObject({ path: 'dds/models/g_d.dds', tried: ['dds/models/g_d.dds'] });
    expect(m.specular).toMatchObject({ path: 'models/g_s.tga', tried: ['dds/models/g_s.dds', 'models/g_s.tga'] });
    expect(m.normal?.tried[0]).toBe('models/g_local.tga'); // an image program: its dds/ file is named after the whole program
    const xreal = folder({ 'scripts/m.mtr': mtr, 'dds/models/g_d.dds': 'DDS ', 'models/g_d.tga': '' });
    const x = (await new MaterialResolver(xreal).md5(meshNamed('models/g'), 'models/g.md5mesh')).materials[0];
    expect(x.diffuse).toMatchObject({ path: 'models/g_d.tga', tried: ['models/g_d.tga'] });
  });

  test("Doom 3's implicit material (no definition, a folder with materials/) looks in dds/ first too", async () => {
    const fs = folder({ 'materials/other.mtr': 'unrelated { diffusemap x }', 'models/plain.jpg': '', 'dds/models/plain.dds': 'DDS ' });
    const m = (await new MaterialResolver(fs).md5(meshNamed('models/plain'), 'models/plain.md5mesh')).materials[0];
    expect(m.diffuse).toMatchObject({ path: 'dds/models/plain.dds' });
  });

  test('md5.cfg: "<dds>skin.jpg" takes skin.dds beside it when there is one, else skin.jpg; a name without <dds> never looks', async () => {
    const cfg = 'md5skin * "<dds>skin.jpg" "<dds>mask.jpg"\nmd5bumpmap * normals.png\n';
    const files = (extra: Record<string, string>) => folder({ 'd/md5.cfg': cfg, 'd/skin.jpg': '', 'd/mask.jpg': '', 'd/normals.png': '', 'd/normals.dds': '', ...extra });
    const withDds = (await new MaterialResolver(files({ 'd/skin.dds': 'DDS ' })).md5(meshNamed('x'), 'd/m.md5mesh')).materials[0];
    expect(withDds.diffuse).toMatchObject({ path: 'd/skin.dds', tried: ['d/skin.dds'] });
    expect(withDds.others[0]).toMatchObject({ role: 'mask', path: 'd/mask.jpg', tried: ['d/mask.dds', 'd/mask.jpg'] });
    expect(withDds.normal).toMatchObject({ path: 'd/normals.png', tried: ['d/normals.png'] });
    const without = (await new MaterialResolver(files({})).md5(meshNamed('x'), 'd/m.md5mesh')).materials[0];
    expect(without.diffuse).toMatchObject({ path: 'd/skin.jpg', tried: ['d/skin.dds', 'd/skin.jpg'] });
  });
});

describe('skins', () => {
  const portals = () => parseMd3(sharedBytes('aaa-assets/models/fx/portal/portals.md3'));

  test('a skin without an entry for a surface: that surface gets the default shader and one warning', async () => {
    const fs = folder({ 'm_x.skin': 'PortalRing,ring.tga\n', 'ring.jpg': '' });
    const set = await new MaterialResolver(fs).md3(portals(), 'm.md3', { skin: 'x' });
    expect(set.materials.map((m) => [m.surface, m.diffuse?.path ?? null, m.definition.kind])).toEqual([
      ['portalcenter', null, 'none'],
      ['portalring', 'ring.jpg', 'implicit'],
    ]);
    expect(set.warnings.map((w) => w.code)).toEqual(['SKIN_SURFACE_MISSING']);
  });

  test('a skin file by path; empty values as the engine reads them, each consequence warned', async () => {
    const fs = folder({ 'skins/any.skin': 'portalcenter,\nportalring,', 'skins/two.skin': 'portalring,' });
    const set = await new MaterialResolver(fs).md3(portals(), 'm.md3', { skinPath: 'skins/any.skin' });
    // CommaParse takes `portalring` as portalcenter's value (next line); the ',' after it then starts an entry of
    // its own, so portalring has no entry at all.
    expect(set.materials.map((m) => m.shaderName)).toEqual(['portalring', '']);
    expect(set.warnings.map((w) => w.code)).toEqual(['SKIN_VALUE_ON_NEXT_LINE', 'SHADER_NOT_FOUND', 'SKIN_SURFACE_MISSING']);
    // A value missing at the end of the file is an empty shader name: the default shader.
    const two = await new MaterialResolver(fs).md3(portals(), 'm.md3', { skinPath: 'skins/two.skin' });
    expect(two.warnings.map((w) => w.code)).toEqual(['SKIN_SURFACE_MISSING', 'NO_SHADER']);
  });
});

/**
 * IdTechLoader from a user's side, in Node: models from a game folder, from a .pk3 member, from URLs (the project's
 * static server) and from bytes; materials resolved as the engines resolve them and made three.js materials; TGA
 * and PCX decoded by the image floor (so they run here; textures.test.ts compares them with the CLI's); progress, the
 * loading manager, abort, and the parsers' typed errors passing through.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  CustomBlending, DataTexture, DoubleSide, DstColorFactor, FrontSide, LoadingManager, SkinnedMesh, ZeroFactor, type Mesh, type MeshStandardMaterial,
} from 'three';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { folderFileSystem } from '../../src/vfs/node.js';
import { openArchiveFrom } from '../../src/vfs/zip-archive.js';
import { IdTechLoader, gameRootOf, type IdTechProgress } from '../../src/three/loader.js';
import type { IdTechModel } from '../../src/three/model.js';
import { materialsUnder } from './three-eval.js';
import { modelToThree } from '../../src/three/model-to-three.js';
import { startServer } from '../../../scripts/serve.mjs';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { makeZip } from '../helpers/zip-writer.js';

const materialsOf = (m: IdTechModel): MeshStandardMaterial[] => materialsUnder(m.scene);
const codes = (m: IdTechModel) => m.warnings.map((w) => w.code);

describe('from a game folder (a FileSystem)', () => {
  const root = folderFileSystem(SHARED_MODELS);

  it('an .md5mesh with its .md5anims: a SkinnedMesh, one clip per anim, materials from md5.cfg', async () => {
    const model = await new IdTechLoader().setFileSystem(root).loadAsync(['actors/drone/mesh.md5mesh', 'actors/drone/forward.md5anim', 'actors/drone/death.md5anim']);
    expect(model.format).toBe('md5mesh');
    expect(model.animations.map((c) => c.name)).toEqual(['forward', 'death']);
    expect(model.skeleton!.bones.length).toBe(27); // MANIFEST: numJoints=27
    let skinned = 0;
    model.scene.traverse((o) => (skinned += (o as SkinnedMesh).isSkinnedMesh ? 1 : 0));
    expect(skinned).toBe(1);
    // B3: the mesh's shaders are empty, md5.cfg's md5skin names skin.jpg for both meshes
    expect(model.materials.map((m) => m.diffuse?.path)).toEqual(['actors/drone/skin.jpg', 'actors/drone/skin.jpg']);
    expect(materialsOf(model).map((m) => m.name)).toEqual(['HumanMale.001', 'HumanMale.002']);
    // Node has no image decoder for JPEG: said once, the material stays untextured
    expect(codes(model).filter((c) => c === 'TEXTURE_DECODER_UNAVAILABLE')).toHaveLength(1);
    model.dispose();
  });

  it('a Quake 3 player folder: parts chained by tags, animation.cfg clips, skins from <part>_default.skin', async () => {
    const fs = folderFileSystem(join(SHARED_MODELS, 'res-players_src.dpkdir'));
    const model = await new IdTechLoader().setFileSystem(fs).setTextures(false).loadAsync('models/players/human_bsuit/');
    expect(model.format).toBe('player');
    expect(Object.keys(model.parts!)).toEqual(['lower', 'upper', 'head']);
    expect(model.parts!.upper.parent!.name).toBe('lower_tag_torso');
    expect(model.parts!.head.parent!.name).toBe('upper_tag_head');
    expect(model.animations.some((c) => c.name === 'BOTH_DEATH1')).toBe(true);
    expect(model.materials.map((m) => `${m.part}:${m.diffuse?.path}`)).toEqual(['lower', 'upper', 'head'].map((p) => `${p}:models/players/human_bsuit/human_bsuit.jpg`));
    model.dispose();
  });

  it('render states as resolved: alpha test and two sides (grass), a multiply blend (the stasis window)', async () => {
    const fs = folderFileSystem(join(SHARED_MODELS, 'res-tremulous_src.dpkdir'));
    const loader = new IdTechLoader().setFileSystem(fs).setTextures(false);
    const grass = materialsOf(await loader.loadAsync('models/mapobjects/plant_life/grass.md3'));
    expect(grass[0].alphaTest).toBe(0.5); // alphaFunc GE128
    expect(grass[0].side).toBe(DoubleSide); // cull disable
    const stasis = await loader.loadAsync('models/mapobjects/stasis/stasis.md3');
    const window = materialsOf(stasis)[stasis.materials.findIndex((m) => m.surface === 'window')];
    expect([window.blending, window.blendSrc, window.blendDst, window.transparent, window.depthWrite]).toEqual([CustomBlending, DstColorFactor, ZeroFactor, true, false]);
    const chamber = materialsOf(stasis)[stasis.materials.findIndex((m) => m.surface === 'chamber')];
    expect([chamber.transparent, chamber.side]).toEqual([false, FrontSide]);
  });

  it('a TGA normal map decoded by the image floor into a DataTexture (RLE, 32 bpp, bottom-left origin)', async () => {
    const fs = folderFileSystem(join(SHARED_MODELS, 'aaa-assets'));
    const model = await new IdTechLoader().setFileSystem(fs).setNormalMaps(true).loadAsync('models/weapons/grenade_launcher/grenade_launcher.md3');
    const mats = materialsOf(model);
    expect(model.materials[0].normal?.path).toBe('models/weapons/grenade_launcher/launcher_n.tga');
    const tex = mats[0].normalMap as DataTexture;
    expect(tex).toBeInstanceOf(DataTexture);
    // the file's header says 512 × 512 (bytes 12..15, little-endian)
    const tga = read(join(SHARED_MODELS, 'aaa-assets/models/weapons/grenade_launcher/launcher_n.tga'));
    expect([tex.image.width, tex.image.height]).toEqual([tga[12] | (tga[13] << 8), tga[14] | (tga[15] << 8)]);
    const data = tex.image.data as Uint8Array;
    expect(data.length).toBe(512 * 512 * 4);
    // a normal map: blue (z) dominates on average
    let r = 0, b = 0;
    for (let i = 0; i < data.length; i += 4) { r += data[i]; b += data[i + 2]; }
    expect(b).toBeGreaterThan(r);
    // both surfaces name glauncher: one decode, two textures sharing its source
    expect((mats[1].normalMap as DataTexture).source).toBe(tex.source);
    model.dispose();
  });

  it('an MD2 whose skin is a PCX: the PCX the resolver names is the texture, with a .png beside it or not', async () => {
    const dir = join(SHARED_MODELS, 'distrib/baseaq/pak0');
    const beside = await new IdTechLoader().setFileSystem(folderFileSystem(dir)).loadAsync('models/indicator/arrow_blue.md2');
    const only = memoryFileSystem(['arrow_blue.md2', 'arrow_blue.pcx'].map((f) => ({ path: `models/indicator/${f}`, bytes: read(join(dir, 'models/indicator', f)) })));
    const alone = await new IdTechLoader().setFileSystem(only).loadAsync('models/indicator/arrow_blue.md2');
    for (const model of [beside, alone]) {
      const map = materialsOf(model)[0].map as DataTexture;
      expect(map).toBeInstanceOf(DataTexture);
      expect(map.name).toBe('models/indicator/arrow_blue.pcx');
      expect(codes(model).filter((c) => /PCX|TEXTURE/.test(c))).toEqual([]);
    }
  });
});

describe('a player folder holding a weapon.md3', () => {
  it('the weapon hangs on upper\'s tag_weapon, its surfaces resolved by their own shaders after the parts\' skins', async () => {
    const dir = join(SHARED_MODELS, 'res-tremulous_src.dpkdir/models/tremulous/players/human_base');
    const launcher = read(join(SHARED_MODELS, 'aaa-assets/models/weapons/grenade_launcher/grenade_launcher.md3'));
    const fs = memoryFileSystem([
      ...['lower', 'upper', 'head'].map((p) => ({ path: `models/players/armed/${p}.md3`, bytes: read(join(dir, `${p}.md3`)) })),
      { path: 'models/players/armed/weapon.md3', bytes: launcher },
    ]);
    const model = await new IdTechLoader().setFileSystem(fs).setTextures(false).loadAsync('models/players/armed/');
    expect(Object.keys(model.parts!)).toEqual(['lower', 'upper', 'head', 'weapon']);
    expect(model.parts!.weapon.parent!.name).toBe('upper_tag_weapon');
    const weapon = model.materials.filter((m) => m.part === 'weapon');
    expect(weapon.map((m) => m.surface)).toEqual(parseMd3(launcher).surfaces.map((s) => s.name));
    // the weapon's mesh draws them: its materials are named after the shaders resolved for its surfaces
    let mesh: Mesh | undefined;
    model.parts!.weapon.traverse((o) => (mesh ??= (o as Mesh).isMesh ? (o as Mesh) : undefined));
    expect((mesh!.material as MeshStandardMaterial[]).map((m) => m.name)).toEqual(weapon.map((m) => m.shaderName || m.surface));
  });
});

describe('from a .pk3', () => {
  it('a player whose files are archive members, streamed from the archive', async () => {
    const dir = join(SHARED_MODELS, 'res-players_src.dpkdir/models/players/human_bsuit');
    const zip = makeZip(readdirSync(dir).map((f) => ({ name: `models/players/human_bsuit/${f}`, data: read(join(dir, f)) })));
    const pk3 = await openArchiveFrom(zip, { name: 'bsuit.pk3' });
    const model = await new IdTechLoader().setFileSystem(pk3).setTextures(false).loadAsync('models/players/human_bsuit/');
    expect(model.format).toBe('player');
    expect(model.materials.every((m) => m.diffuse?.origin === 'bsuit.pk3:models/players/human_bsuit/human_bsuit.jpg')).toBe(true);
    expect(pk3.inflatedBytes).toBeGreaterThan(726140); // lower.md3 alone (MANIFEST) came out of the archive
  });
});

describe('from URLs', () => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await startServer({ port: 0 });
  });
  afterAll(() => server.close());

  it('streams the files with progress and the manager\'s events; images are looked up in the game folder the URL is in', async () => {
    const events: string[] = [];
    const manager = new LoadingManager(() => events.push('load'), undefined, () => events.push('error'));
    manager.onStart = () => events.push('start');
    const progress: IdTechProgress[] = [];
    const model = await new IdTechLoader(manager).setPath(`${server.url}/models/`).loadAsync(['actors/drone/mesh.md5mesh', 'actors/drone/idle.md5anim'], (e) => progress.push(e as unknown as IdTechProgress));
    expect(model.animations.map((c) => c.name)).toEqual(['idle']);
    // MANIFEST sizes: mesh.md5mesh 204801 + idle.md5anim 6131 bytes, every byte counted once
    const last = progress[progress.length - 1];
    expect([last.loaded, last.total, last.lengthComputable]).toEqual([204801 + 6131, 204801 + 6131, true]);
    expect(progress.every((p, i) => i === 0 || p.loaded >= progress[i - 1].loaded)).toBe(true);
    expect(events).toEqual(['start', 'load']);
    // the game root is /models/ (no deeper `/models/` in the path): md5.cfg beside the mesh names skin.jpg there
    expect(model.materials[0].diffuse?.origin).toBe(`${server.url}/models/actors/drone/skin.jpg`);
  });

  it('a folder URL is probed for its folder format\'s files: what it lacks (no animation.cfg) is no error', async () => {
    const dir = 'res-tremulous_src.dpkdir/models/tremulous/players/human_base';
    const progress: IdTechProgress[] = [];
    const base = await new IdTechLoader().setTextures(false).loadAsync(`${server.url}/models/${dir}/`, (e) => progress.push(e as unknown as IdTechProgress));
    expect(base.format).toBe('player');
    expect(Object.keys(base.parts!)).toEqual(['lower', 'upper', 'head']);
    expect(base.animations.map((c) => c.name)).toEqual(['lower', 'upper']); // without animation.cfg: each part's frames
    // the three parts' bytes, each counted once, the total from their Content-Lengths
    const parts = ['lower', 'upper', 'head'].reduce((n, p) => n + statSync(join(SHARED_MODELS, dir, `${p}.md3`)).size, 0);
    const last = progress[progress.length - 1];
    expect([last.loaded, last.total, last.lengthComputable]).toEqual([parts, parts, true]);
    const bsuit = await new IdTechLoader().setTextures(false).loadAsync(`${server.url}/models/res-players_src.dpkdir/models/players/human_bsuit/`);
    expect(bsuit.animations.some((c) => c.name === 'BOTH_DEATH1')).toBe(true); // its animation.cfg was found
    expect(bsuit.materials.map((m) => m.diffuse?.origin)).toEqual(['lower', 'upper', 'head'].map(() => `${server.url}/models/res-players_src.dpkdir/models/players/human_bsuit/human_bsuit.jpg`));
  });

  it('the game folder of a URL is the part before its last /models/', () => {
    expect(gameRootOf('http://h/models/res-tremulous_src.dpkdir/models/mapobjects/stasis/stasis.md3')).toEqual({ root: 'http://h/models/res-tremulous_src.dpkdir/', path: 'models/mapobjects/stasis/stasis.md3' });
    expect(gameRootOf('http://h/a/b/tris.md2')).toEqual({ root: 'http://h/a/b/', path: 'tris.md2' });
  });

  it('a missing file is READ_FAILED; an abort rejects with ABORTED', async () => {
    const loader = new IdTechLoader().setPath(`${server.url}/models/`);
    await expect(loader.loadAsync('actors/drone/nothing.md2')).rejects.toMatchObject({ code: ErrorCode.ReadFailed });
    await expect(loader.loadAsync('actors/drone/mesh.md5mesh', undefined, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: ErrorCode.Aborted });
    const pending = loader.loadAsync(['res-weapons_src.dpkdir/models/weapons/rifle/rifle_view.md5mesh', 'res-weapons_src.dpkdir/models/weapons/rifle/rifle_view_idle.md5anim'], () => loader.abort());
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.Aborted });
  });
});

describe('from bytes', () => {
  it('one buffer is sniffed; named files are any set loadAsync takes', async () => {
    const md2 = await new IdTechLoader().parseAsync(read(join(SHARED_MODELS, 'assimp/test/models/MD2/faerie.md2')).buffer as ArrayBuffer);
    expect(md2.format).toBe('md2');
    expect(md2.animations[0].name).toBe('stand');
    const files = ['lower', 'upper', 'head'].map((p) => ({ name: `${p}.md3`, source: read(join(SHARED_MODELS, `res-tremulous_src.dpkdir/models/tremulous/players/human_base/${p}.md3`)) }));
    const player = await new IdTechLoader().setMorph('poser').parseAsync(files);
    expect(player.format).toBe('player');
    expect(player.animations.map((c) => c.name)).toEqual(['lower', 'upper']);
  });

  it('clips bind to the model\'s nodes, never to the scene group named after the model', async () => {
    const model = await new IdTechLoader().parseAsync([{ name: 'faerie.md2', source: read(join(SHARED_MODELS, 'assimp/test/models/MD2/faerie.md2')) }]);
    expect(model.scene.name).toBe('faerie');
    model.play('run'); // frames 40..45 (MANIFEST: stand(40) run(6))
    model.update(0.05);
    let mesh: Mesh | undefined;
    model.scene.traverse((o) => (mesh ??= (o as Mesh).isMesh ? (o as Mesh) : undefined));
    expect(mesh!.name).not.toBe(model.scene.name);
    expect(mesh!.morphTargetInfluences![40]).toBeCloseTo(0.5, 5);
    expect(mesh!.morphTargetInfluences![41]).toBeCloseTo(0.5, 5);
  });

  it('bad bytes reject with the parser\'s ModelParseError; an anim for another mesh with ANIM_MESH_MISMATCH', async () => {
    const loader = new IdTechLoader();
    const bad = read(join(SHARED_MODELS, 'assimp/test/models/MD5/invalid/InvalidBoneIndex.md5mesh'));
    const err = await loader.parseAsync([{ name: 'bad.md5mesh', source: bad }]).catch((e) => e);
    expect(err).toBeInstanceOf(ModelParseError);
    expect(err.code).toBe(ErrorCode.IndexOutOfRange);
    const mismatch = loader.parseAsync([
      { name: 'turret.md5mesh', source: read(join(SHARED_MODELS, 'actors/turret/turret.md5mesh')) },
      { name: 'idle.md5anim', source: read(join(SHARED_MODELS, 'actors/drone/idle.md5anim')) },
    ]);
    await expect(mismatch).rejects.toMatchObject({ code: ErrorCode.AnimMeshMismatch });
    // an animation alone is no model: the registry says what it plays on, naming the file
    await expect(loader.parseAsync([{ name: 'a.md5anim', source: new Uint8Array(1) }])).rejects.toMatchObject({ code: ErrorCode.UnknownFormat, file: 'a.md5anim', detail: expect.stringMatching(/plays on .*md5mesh/) });
  });
});

describe('from parsed data (modelToThree)', () => {
  it('the registration owning the data builds it; what plays on it is checked as the loader checks it', async () => {
    const faerie = parseMd2(read(join(SHARED_MODELS, 'assimp/test/models/MD2/faerie.md2')));
    const md2 = await modelToThree(faerie, { name: 'faerie' });
    expect([md2.format, md2.scene.name]).toEqual(['md2', 'faerie']);
    expect(md2.animations.map((c) => c.name)).toEqual(faerie.clips.map((c) => c.name));
    const mesh = parseMd5Mesh(read(join(SHARED_MODELS, 'actors/drone/mesh.md5mesh')));
    const idle = parseMd5Anim(read(join(SHARED_MODELS, 'actors/drone/idle.md5anim')));
    const drone = await modelToThree(mesh, { companions: [{ name: 'idle', data: idle }], skinning: 'exact' });
    expect([drone.format, drone.skeleton!.bones.length, drone.animations.map((c) => c.name)]).toEqual(['md5mesh', 27, ['idle']]);
    drone.dispose();
    const turret = parseMd5Mesh(read(join(SHARED_MODELS, 'actors/turret/turret.md5mesh')));
    await expect(modelToThree(turret, { companions: [{ name: 'idle', data: idle }] })).rejects.toMatchObject({ code: ErrorCode.AnimMeshMismatch });
  });
});


/**
 * Clips, companions and materials as the engines that ship IQM read them: Tesseract / Red Eclipse `iqm.cfg` (exec,
 * iqmdir, iqmanim with names, speeds and parts, iqmskin / iqmbumpmap, if / loop), the animation files a mesh is
 * played with (a Red Eclipse player: its mesh and the animation-only files player.cfg names), Tesseract's pairing
 * test, DarkPlaces `.framegroups`, and the material resolver's `iqm()` through the cfg, `.skin` files and names.
 */
import { describe, expect, it } from 'vitest';
import { iqmCompanionsBeside } from '../../src/formats/iqm/companions.js';
import { iqmAcceptsCompanion } from '../../src/pose/iqm-anim-match.js';
import { boundFrameGroups, parseFrameGroups } from '../../src/formats/iqm/framegroups.js';
import { configClips, readIqmConfig } from '../../src/formats/iqm/iqm-cfg.js';
import { clipFrames } from '../../src/formats/iqm/clips.js';
import { MaterialResolver } from '../../src/materials/resolver.js';
import { readIqmConfigLater } from '../../src/formats/iqm/model-entry.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { sharedFileSystem } from '../helpers/shared-fs.js';
import { iqmFile } from './_corpus.js';

const fs = () => sharedFileSystem('actors-iqm');
const text = (s: string) => new TextEncoder().encode(s);

describe('Tesseract iqm.cfg', () => {
  it("runs a Red Eclipse player's config: iqmload, exec of player.cfg and ragdoll.cfg, iqmdir, anims by name", async () => {
    const c = await readIqmConfig(fs(), 'player/male/iqm.cfg');
    expect(c.cfgs).toEqual(['player/male/iqm.cfg', 'player/player.cfg', 'player/ragdoll.cfg']);
    expect(c.loads).toEqual([{ file: 'player/male/RE_Player_male.iqm', skeleton: 'player' }]);
    const idle = c.anims.find((a) => a.names.includes('idle'))!;
    expect(idle).toMatchObject({ file: 'player/idle.iqm', speed: 10, part: 0, dynamic: false });
    // `iqmanimpart ribs` starts the upper body's part; "a|b" names several clips
    const gun = c.anims.find((a) => a.names.includes('pistol primary'))!;
    expect(gun).toMatchObject({ names: ['pistol primary', 'plasma primary'], file: 'player/gun_fire.iqm', speed: 20, part: 1 });
    // `if (|| [strcmp (mdlname) "actors/player/female/headless"] …)` picks the skin by the model's folder
    expect(c.skins.at(-1)).toMatchObject({ mesh: '*', diffuse: 'player/diffuse.png', masks: 'player/mask.png' });
    const headless = await readIqmConfig(fs(), 'player/female/headless/iqm.cfg');
    expect(headless.skins.at(-1)!.diffuse).toBe('player/headless.png');
    expect(c.lods).toEqual([{ model: 'player/male/lod1', distance: 128 }, { model: 'player/male/lod2', distance: 512 }]);
    // files the config names but the corpus lacks are warnings, not errors
    expect(c.warnings.map((w) => w.code)).toContain('IQM_CFG_MISSING');
  });

  it("names the player's clips as Tesseract does: one per name and part, repeated lines as variants, 10 fps by default", async () => {
    const clips = configClips(await readIqmConfig(fs(), 'player/male/iqm.cfg'));
    const byName = (n: string, part = 0, variant = 0) => clips.find((c) => c.name === n && c.part === part && c.variant === variant)!;
    expect(byName('run forward')).toMatchObject({ file: 'player/runcycle0.iqm', fps: 35 });
    expect(byName('sprint')).toMatchObject({ file: 'player/runcycle0.iqm', fps: 45 });
    expect(byName('boost backward')).toMatchObject({ file: 'player/boost_backward.iqm', fps: 10 }); // no speed given
    expect(byName('idle', 1)).toMatchObject({ file: 'player/idle.iqm', fps: 10, part: 1 }); // the upper body's own idle
    expect([byName('claw primary', 1, 0).file, byName('claw primary', 1, 1).file]).toEqual(['player/claw_primary.iqm', 'player/claw_primary2.iqm']);
    // setanim's offsets (skelmodel.h): start skips, a negative end drops frames from the end
    expect(clipFrames({ startOffset: 2, endOffset: 0 }, 10, 20)).toEqual({ first: 12, count: 18 });
    expect(clipFrames({ startOffset: 0, endOffset: -5 }, 0, 20)).toEqual({ first: 0, count: 15 });
    expect(clipFrames({ startOffset: -3, endOffset: 2 }, 0, 20)).toEqual({ first: 17, count: 2 });
  });

  it('marks anims named through game variables (a loop over $W_NAMES) as dynamic, and keeps their files', async () => {
    const c = await readIqmConfig(fs(), 'janitor/iqm.cfg');
    const dynamic = c.anims.filter((a) => a.dynamic);
    expect(dynamic.map((a) => a.file)).toEqual(['janitor/arm-idle.iqm', 'janitor/arm-shoot.iqm', 'janitor/arm-shoot.iqm']);
    expect(dynamic[0].names).toEqual(['(at $W_NAMES $i)']);
  });

  it('reads FILE:ANIM, offsets and escapes', async () => {
    const mem = memoryFileSystem([
      { path: 'm/iqm.cfg', bytes: text('iqmload m.iqm\niqmanim "a^"b" "x.iqm:walk" 24 2 1 -1 ; iqmanim c x.iqm // note\n') },
      { path: 'm/m.iqm', bytes: new Uint8Array(4) },
      { path: 'm/x.iqm', bytes: new Uint8Array(4) },
    ]);
    const c = await readIqmConfig(mem, 'm/iqm.cfg');
    expect(c.anims.map((a) => [a.names, a.file, a.anim, a.speed, a.priority, a.startOffset, a.endOffset])).toEqual([
      [['a"b'], 'm/x.iqm', 'walk', 24, 2, 1, -1],
      [['c'], 'm/x.iqm', null, 0, 0, 0, 0],
    ]);
  });
});

describe('companions', () => {
  it("a player mesh's clips are the ones its config names (name, file, rate), its files each read once, found from below the game root", async () => {
    const refs = await iqmCompanionsBeside(fs(), 'player/male/RE_Player_male.iqm');
    const clip = (name: string) => refs.find((r) => typeof r !== 'string' && r.name === name) as { path: string; fps?: number } | undefined;
    // player.cfg: iqmanim "run forward" "runcycle0.iqm" 35 … iqmanim "sprint" "runcycle0.iqm" 45: one file, two clips
    expect(clip('run forward')).toMatchObject({ path: 'player/runcycle0.iqm', fps: 35 });
    expect(clip('sprint')).toMatchObject({ path: 'player/runcycle0.iqm', fps: 45 });
    const files = [...new Set(refs.map((r) => (typeof r === 'string' ? r : r.path)))];
    expect(files.length).toBe(85); // the distinct files player.cfg names that the corpus holds (it lacks sword-idle2.iqm)
    expect(files.slice(0, 3)).toEqual(['player/idle.iqm', 'player/sink.iqm', 'player/swim.iqm']);
    expect(new Set(files).size).toBe(files.length);
    const mesh = iqmFile('player/male/RE_Player_male.iqm').model;
    for (const f of files) expect(iqmAcceptsCompanion(mesh, iqmFile(f).model, 'iqm', []), f).toBeNull();
  });

  it('a mesh plays a file with one pose per joint; another count is refused with the reason', () => {
    const mesh = iqmFile('player/male/RE_Player_male.iqm').model;
    expect(iqmAcceptsCompanion(mesh, iqmFile('janitor/idle.iqm').model, 'iqm', [])).toMatch(/11 poses, the mesh 78 joints/);
    expect(iqmAcceptsCompanion(mesh, iqmFile('player/male/lod1/RE_Player_male_lod1.iqm').model, 'iqm', [])).toMatch(/no anims/);
    expect(iqmAcceptsCompanion(mesh, {}, 'md5anim', [])).toMatch(/md5anim/);
  });

  it("a mesh without a config, or whose config loads another mesh, has none; the clips a config names on the mesh's own file are its own", async () => {
    const own = await iqmCompanionsBeside(fs(), 'turret/sphere/turret_sphere.iqm');
    expect(own).toHaveLength(14);
    expect(own.every((r) => typeof r !== 'string' && r.path === 'turret/sphere/turret_sphere.iqm' && r.fps === 20)).toBe(true);
    expect(await iqmCompanionsBeside(fs(), 'player/hud_hands.iqm')).toEqual([]);
    expect([...new Set((await iqmCompanionsBeside(fs(), 'janitor/janitor.iqm')).map((r) => (typeof r === 'string' ? r : r.path)))]).toEqual(['janitor/idle.iqm', 'janitor/arm-deploy.iqm', 'janitor/arm-idle.iqm', 'janitor/arm-shoot.iqm']);
  });
});

describe('DarkPlaces .framegroups', () => {
  it('reads start, length, fps, loop and name per line with DarkPlaces defaults and bounds', () => {
    const { groups, warnings } = parseFrameGroups('1 39 30 1 // idle\n40 10 15 0 shoot\n\n60 5\n70\n// comment only\n80 3 x\n');
    expect(groups.map((g) => [g.name, g.firstFrame, g.frameCount, g.fps, g.loop, g.comment])).toEqual([
      ['groupified_0_anim', 1, 39, 30, true, 'idle'],
      ['shoot', 40, 10, 15, false, ''],
      ['groupified_2_anim', 60, 5, 20, true, ''],
      ['groupified_3_anim', 80, 3, 0, true, ''],
    ]);
    expect(warnings.map((w) => w.code)).toEqual(['FRAMEGROUP_SKIPPED']);
    // Mod_FrameGroupify_ParseGroups_Store: first in [0, frames − 1], count in [1, frames − first], fps ≥ 1
    expect(boundFrameGroups(groups, 50).map((g) => [g.firstFrame, g.frameCount, g.fps])).toEqual([[1, 39, 30], [40, 10, 15], [49, 1, 20], [49, 1, 1]]);
  });
});

describe('IQM materials', () => {
  it("resolve a Red Eclipse player's mesh through its config: the skin, masks and bump map player.cfg gives", async () => {
    const { materials, warnings } = await new MaterialResolver(fs()).iqm(iqmFile('player/male/RE_Player_male.iqm').model, 'player/male/RE_Player_male.iqm', { readConfig: readIqmConfigLater });
    expect(materials).toHaveLength(1);
    expect(materials[0].diffuse!.path).toBe('player/diffuse.png');
    expect(materials[0].normal!.path).toBe('player/norm.png');
    expect(materials[0].others.map((o) => o.path)).toEqual(['player/mask.png']);
    expect(materials[0].nameSource).toMatchObject({ kind: 'cube-cfg', at: { path: 'player/player.cfg' } });
    expect(warnings).toEqual([]);
  });

  it('resolve a material name through a shader script, a .skin, DarkPlaces MODEL_N.skin, and the extension fallback', async () => {
    const model = structuredClone(iqmFile('player/mine_pose.iqm').model);
    model.meshes[0].material = 'models/mine/body';
    model.meshes[1].material = 'models/mine/light';
    const mem = memoryFileSystem([
      { path: 'models/mine/mine.iqm', bytes: new Uint8Array(4) },
      { path: 'models/mine/body.jpg', bytes: new Uint8Array(4) },
      { path: 'scripts/mine.shader', bytes: text('models/mine/light\n{\n  { map models/mine/glow.tga\n blendFunc add }\n}\n') },
      { path: 'models/mine/glow.tga', bytes: new Uint8Array(4) },
      { path: 'models/mine/mine_red.skin', bytes: text('cube.002,models/mine/red\ncube.001,models/mine/light\n') },
      { path: 'models/mine/red.png', bytes: new Uint8Array(4) },
      { path: 'models/mine/mine.iqm_1.skin', bytes: text('Cube.002,models/mine/light\n') },
    ]);
    const r = new MaterialResolver(mem);
    const plain = await r.iqm(model, 'models/mine/mine.iqm');
    expect(plain.materials.map((m) => [m.diffuse?.path, m.definition.kind])).toEqual([['models/mine/body.jpg', 'implicit'], ['models/mine/glow.tga', 'shader']]);
    const red = await r.iqm(model, 'models/mine/mine.iqm', { skin: 'red' });
    expect(red.materials.map((m) => m.diffuse?.path)).toEqual(['models/mine/red.png', 'models/mine/glow.tga']);
    const dp = await r.iqm(model, 'models/mine/mine.iqm', { skinNum: 1 });
    expect(dp.materials[0].diffuse?.path).toBe('models/mine/glow.tga');
    expect(dp.warnings.map((w) => w.code)).toContain('SKIN_SURFACE_MISSING'); // Cube.001 has no line in _1.skin
  });
});

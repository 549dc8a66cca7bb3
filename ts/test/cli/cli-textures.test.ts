/**
 * `convert` and `inspect` resolve textures by themselves (built CLI): a real Quake 3 player folder and a real model
 * inside a .pk3 zipped from ../shared/models convert to .glb files the Khronos validator accepts, with the resolved
 * images inside and each surface's image reported on stderr; --skin, --game-dir, --no-textures and .obj + .mtl.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliTemp, runCli as run, shared as M } from '../helpers/cli.js';
import { SHARED_MODELS } from '../helpers/models.js';
import { makeZip } from '../helpers/zip-writer.js';
import { readGlb } from '../helpers/textured.js';
import { expectClean, validate } from '../export/validate.js';

const tmp = cliTemp('cli-textures');
const TREM = M('res-tremulous_src.dpkdir');
const BSUIT = M('res-players_src.dpkdir/models/players/human_bsuit');
const results: string[] = [];

/** Every file under `dir`, relative to it. */
const walk = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)).map((p) => `${d.name}/${p}`) : [d.name]));

describe('convert resolves textures in the game folder', () => {
  it('a player folder: each part through its _default.skin, the image embedded once', async () => {
    const out = join(tmp, 'bsuit.glb');
    const r = await run('convert', BSUIT, '-o', out);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    expect(lines).toContain(`textures from ${SHARED_MODELS} (found above the model):`);
    for (const part of ['lower/l_legs', 'upper/u_torso', 'head/h_head']) expect(lines).toContain(`  ${part}: models/players/human_bsuit/human_bsuit.jpg`); // the skin names the image itself: said once
    const glb = new Uint8Array(readFileSync(out));
    expectClean(results, 'bsuit', await validate(glb));
    const { json, bin } = readGlb(glb);
    expect(json.images).toHaveLength(1);
    const view = json.bufferViews[json.images[0].bufferView];
    expect(Buffer.compare(Buffer.from(bin.subarray(view.byteOffset, view.byteOffset + view.byteLength)), readFileSync(join(BSUIT, 'human_bsuit.jpg')))).toBe(0);
  });

  it('a model inside a .pk3 zipped from the corpus: the archive\'s folder is mounted, the shader script and images come from the archive', async () => {
    const files = ['models/mapobjects/stasis', 'scripts'].flatMap((d) => walk(join(TREM, d)).map((p) => `${d}/${p}`)).filter((p) => /stasis|overmind\/ref2/.test(p) || p.startsWith('models/mapobjects/stasis/'));
    files.push('models/tremulous/buildables/overmind/ref2.png');
    const game = join(tmp, 'game', 'base');
    mkdirSync(game, { recursive: true });
    writeFileSync(join(game, 'pak0.pk3'), makeZip(files.map((name) => ({ name, data: new Uint8Array(readFileSync(join(TREM, name))) }))));
    const out = join(tmp, 'stasis.glb');
    const r = await run('convert', join(game, 'pak0.pk3', 'models/mapobjects/stasis/stasis.md3'), '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`textures from ${game} (found above the model), model in ${join(game, 'pak0.pk3')}:`);
    expect(r.stderr).toContain('  chamber: models/mapobjects/stasis/chamber.tga → models/mapobjects/stasis/chamber.png');
    const glb = new Uint8Array(readFileSync(out));
    expectClean(results, 'stasis in pak0.pk3', await validate(glb));
    const { json } = readGlb(glb);
    expect(json.images.map((i: { name: string }) => i.name).sort()).toEqual(['bubbles', 'chamber', 'flowpipe', 'lifemeter', 'lifemeter2', 'window']);
  });

  it('--skin picks <model>_NAME.skin; --no-textures leaves the images out', async () => {
    const portal = M('aaa-assets/models/fx/portal/portals.md3');
    const orange = await run('convert', portal, '--skin', 'orange', '-o', join(tmp, 'orange.glb'));
    expect(orange.status, orange.stderr).toBe(0);
    expect(orange.stderr).toContain('  portalring: models/fx/portal/orangering → models/fx/portal/orangering.jpg');
    expect(readGlb(new Uint8Array(readFileSync(join(tmp, 'orange.glb')))).json.images.map((i: { name: string }) => i.name).sort()).toEqual(['orangecenter', 'orangering']);
    const none = await run('convert', portal, '--no-textures', '-o', join(tmp, 'none.glb'));
    expect(none.status, none.stderr).toBe(0);
    expect(none.stderr).not.toContain('textures from');
    expect(readGlb(new Uint8Array(readFileSync(join(tmp, 'none.glb')))).json.images).toBeUndefined();
    expect((await run('convert', portal, '--no-textures', '--skin', 'blue', '-o', join(tmp, 'x.glb'))).status).toBe(2);
  });

  it('--skin naming a multi-stage alien shader (Tremulous level2adv form): the glb shows the lit body stage, not the effect layer', async () => {
    const game = join(tmp, 'alien');
    const folder = join(game, 'models/players/level2');
    mkdirSync(folder, { recursive: true });
    mkdirSync(join(game, 'scripts'));
    writeFileSync(join(folder, 'level2.md3'), readFileSync(join(TREM, 'models/tremulous/weapons/rifle/rifle.md3')));
    writeFileSync(join(folder, 'level2_default.skin'), 'rifle,models/players/level2/level2adv\n');
    writeFileSync(
      join(game, 'scripts/level2.shader'),
      'models/players/level2/level2adv\n{\n\t{\n\t\tmap models/players/level2/lvl2_fx\n\t\trgbGen identity\n\t\ttcMod scroll 5 -5\n\t}\n\t{\n\t\tmap models/players/level2/adv\n\t\tblendfunc blend\n\t\trgbGen lightingDiffuse\n\t}\n}\n',
    );
    // Two different images (the corpus's PNGs stand in for the alien's TGAs).
    writeFileSync(join(folder, 'lvl2_fx.png'), readFileSync(join(TREM, 'models/mapobjects/stasis/bubbles.png')));
    writeFileSync(join(folder, 'adv.png'), readFileSync(join(TREM, 'models/mapobjects/stasis/chamber.png')));
    const out = join(tmp, 'alien.glb');
    const r = await run('convert', join(folder, 'level2.md3'), '--skin', 'default', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('  rifle: models/players/level2/level2adv → models/players/level2/adv.png');
    expect(r.stderr).toContain('STAGE_DROPPED');
    const { json, bin } = readGlb(new Uint8Array(readFileSync(out)));
    expect(json.images).toHaveLength(1);
    const view = json.bufferViews[json.images[json.textures[json.materials[0].pbrMetallicRoughness.baseColorTexture.index].source].bufferView];
    expect(Buffer.compare(Buffer.from(bin.subarray(view.byteOffset, view.byteOffset + view.byteLength)), readFileSync(join(folder, 'adv.png')))).toBe(0);
  });

  it('--game-dir names the game folder; without a marker folder above, the model\'s own folder is used with NO_GAME_FOLDER', async () => {
    const r = await run('convert', M('aaa-assets/models/fx/portal/portals.md3'), '--game-dir', M('aaa-assets'), '--skin', 'blue', '-o', join(tmp, 'blue.glb'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`textures from ${M('aaa-assets')} (--game-dir):`);
    expect(r.stderr).toContain('  portalring: models/fx/portal/bluering → models/fx/portal/bluering.jpg');
    const lone = join(tmp, 'lone');
    mkdirSync(lone);
    writeFileSync(join(lone, 'grass.md3'), readFileSync(join(TREM, 'models/mapobjects/plant_life/grass.md3')));
    const l = await run('convert', join(lone, 'grass.md3'), '-o', join(tmp, 'lone.glb'));
    expect(l.status, l.stderr).toBe(0);
    expect(l.stderr).toContain('NO_GAME_FOLDER');
  });

  it('.obj writes OUT.mtl and every image it names beside OUT', async () => {
    const out = join(tmp, 'grass.obj');
    const r = await run('convert', join(TREM, 'models/mapobjects/plant_life/grass.md3'), '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('mtllib grass.mtl');
    const mtl = readFileSync(join(tmp, 'grass.mtl'), 'utf8');
    const maps = [...mtl.matchAll(/^map_\w+ (.+)$/gm)].map((m) => m[1]);
    expect(maps).toEqual(['grass_grass.png', 'grass_grass.png']); // map_Kd and map_d (alphaFunc GE128)
    for (const f of maps) expect(existsSync(join(tmp, f)), relative(tmp, f)).toBe(true);
  });

  it('inspect lists each surface\'s resolved image', async () => {
    const r = await run('inspect', join(TREM, 'models/mapobjects/stasis/stasis.md3'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('texture 4            lifemeter2: models/mapobjects/stasis/lifemeter2.tga → models/mapobjects/stasis/lifemeter2.png');
    const j = JSON.parse((await run('inspect', join(TREM, 'models/mapobjects/stasis/stasis.md3'), '--json')).stdout);
    expect(j.textures.map((t: { image: string }) => t.image)).toEqual(['bubbles.png', 'chamber.png', 'flowpipe.png', 'lifemeter.png', 'lifemeter2.png', 'window.png'].map((f) => `models/mapobjects/stasis/${f}`));
  });
});

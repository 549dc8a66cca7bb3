/**
 * What `convert` used to drop without a word, now said or refused: a --clip past the model's frames (exit 2, nothing
 * written: a clip is exported whole or not at all), --skin for a format without skins by name (exit 2), an
 * animation whose name does not fit MD2's 16-byte frame names (FRAME_NAME_CUT), a Daemon specularMap glTF has no
 * slot for (SPECULAR_MAP_DROPPED, named in the material's extras), a joint-name ENGINE_LIMIT said once (the model set
 * and the glTF export both said it), and a folder inside an archive told what a loose folder is told.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { cliTemp, runCli, shared } from '../helpers/cli.js';
import { readGlb } from '../helpers/textured.js';
import { makeZip } from '../helpers/zip-writer.js';

const tmp = cliTemp('silent-drops');
const FAERIE = shared('assimp/test/models/MD2/faerie.md2'); // 198 frames
const DRONE = shared('actors/drone/mesh.md5mesh');
const PLAYERS = shared('res-players_src.dpkdir/models/players');

describe('refused, nothing written (exit 2)', () => {
  it('a --clip partly past the end names the frames asked for and those the file has', async () => {
    const out = join(tmp, 'clip.glb');
    const r = await runCli('convert', FAERIE, '--no-textures', '--clip', 'run:190:20', '-o', out);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`--clip run:190:20 asks for frames 190..209, and ${FAERIE} has frames 0..197`);
    expect(existsSync(out)).toBe(false);
    expect((await runCli('convert', FAERIE, '--no-textures', '--clip', 'run:190:8', '-o', out)).status).toBe(0);
  });

  it('--skin on an MD2 or an md5mesh (no skins by name), for glTF, OBJ and id output', async () => {
    for (const [input, out, title] of [[FAERIE, 'x.glb', 'Quake 2 model (MD2)'], [DRONE, 'x.obj', 'md5mesh'], [FAERIE, 'x.md3', 'MD2']] as const) {
      const r = await runCli('convert', input, '--skin', 'red', '-o', join(tmp, out));
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--skin picks a skin by name \(\.md3: <model>_NAME\.skin beside it;.*\)/);
      expect(r.stderr).toContain(title);
    }
  });
});

describe('said', () => {
  it('an md5anim named longer than an MD2 frame name holds → FRAME_NAME_CUT naming the frames it got', async () => {
    const dir = join(tmp, 'long');
    mkdirSync(dir, { recursive: true });
    copyFileSync(shared('actors/drone/idle.md5anim'), join(dir, 'a_very_long_animation_name.md5anim'));
    const out = join(tmp, 'long.md2');
    const r = await runCli('convert', DRONE, '--anim', join(dir, 'a_very_long_animation_name.md5anim'), '--no-textures', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning FRAME_NAME_CUT: animation "a_very_long_animation_name": a frame name holds 16 bytes, 2 of them the frame number: its \d+ frames are named a_very_long_an01…/);
    expect(parseMd2(new Uint8Array(readFileSync(out))).frameNames[0]).toBe('a_very_long_an01');
  });

  it("Daemon's specularMap: SPECULAR_MAP_DROPPED, and the image named in the material's extras", async () => {
    const out = join(tmp, 'grenade.glb');
    const r = await runCli('convert', shared('res-weapons_src.dpkdir/models/weapons/grenade/grenade.md5mesh'), '-o', out);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning SPECULAR_MAP_DROPPED: models/weapons/grenade/grenade: its specular map models/weapons/grenade/grenade_s.png');
    const { json } = readGlb(new Uint8Array(readFileSync(out)));
    expect(json.materials.map((m: any) => m.extras?.specularMap)).toContain('models/weapons/grenade/grenade_s.png');
  });

  it('a renamed joint of an md5anim is one ENGINE_LIMIT line, not one from the set and one from the export', async () => {
    const r = await runCli('convert', join(PLAYERS, 'human_naked/body.md5mesh'), '--anim', join(PLAYERS, 'human_nobsuit_common/walk.md5anim'), '--no-textures', '-o', join(tmp, 'walk.glb'));
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.includes('ENGINE_LIMIT') && l.includes('joint 32'));
    expect(lines, r.stderr).toHaveLength(1);
  });

  it('a folder inside an archive is told what it lacks and which model to name, as the same folder loose', async () => {
    const pk3 = join(tmp, 'drone.pk3');
    writeFileSync(pk3, makeZip([{ name: 'drone/mesh.md5mesh', data: readFileSync(DRONE), method: 0 }, { name: 'drone/idle.md5anim', data: readFileSync(shared('actors/drone/idle.md5anim')), method: 0 }]));
    const r = await runCli('convert', `${pk3}:drone`, '-o', join(tmp, 'd.glb'));
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('not a Quake 3 player folder');
    expect(r.stderr).toContain('to convert one model in it, name its file (mesh.md5mesh, with --anim for an .md5anim)');
    const missing = await runCli('convert', `${pk3}:nothing`, '-o', join(tmp, 'd.glb'));
    // the folder formats named from the registrations (Quake 3 player, Tremulous' non-segmented player and buildable)
    expect(missing.stderr).toMatch(/no such model file or Quake 3 player folder( or [^:\n]*)? in the archive/);
  });
});

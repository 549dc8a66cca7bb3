/**
 * Quake's MDL and .pak through the CLI (the built dist/cli.js): `inspect` of a model (frame and skin groups, flags),
 * of a .pak and of a member of it (`PAK:progs/x.mdl`), `convert` to .glb with the carried skin embedded and to .obj
 * at a pose, and `convert --all` over a Quake game folder whose models are in id1/pak0.pak — built here from
 * LibreQuake's files (../shared/models/LibreQuake).
 */
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseMdl } from '../../src/formats/mdl/index.js';
import { readGlb } from '../helpers/textured.js';
import { makePak } from '../helpers/pak-writer.js';
import { cliTemp, runCli, shared } from '../helpers/cli.js';
import { mdlRows, readRow } from '../mdl/_helpers.js';

const PALETTE = shared('LibreQuake/lq1/gfx/palette.lmp');
const OGRE = shared('LibreQuake/lq1/progs/ogre.mdl');
const gamePath = (path: string) => `progs/${path.split('/').pop()}`;

describe('idtech-models and Quake\'s own files', () => {
  let tmp: string;
  let pak: string;
  beforeAll(() => {
    tmp = cliTemp('mdl');
    mkdirSync(join(tmp, 'quake', 'id1'), { recursive: true });
    pak = join(tmp, 'quake', 'id1', 'pak0.pak');
    writeFileSync(pak, makePak([{ name: 'gfx/palette.lmp', data: readFileSync(PALETTE) }, ...mdlRows().map((r) => ({ name: gamePath(r.path), data: readRow(r) }))]));
  });

  it('inspect --json of an MDL says what the file holds, as the parser reads it', async () => {
    const r = await runCli('inspect', OGRE, '--json');
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    const model = parseMdl(readFileSync(OGRE));
    expect(j.format).toBe('mdl');
    expect([j.variant, j.vertices, j.triangles, j.frames, j.poses]).toEqual([model.variant, model.vertexCount, model.triangleCount, model.frameCount, model.poseCount]);
    expect(j.clips).toEqual(model.clips.map((c) => `${c.name} ${c.firstFrame}+${c.frameCount}`));
  });

  it('inspect of the .pak lists every MDL in it, and PAK:member inspects one out of it with the pak\'s palette', async () => {
    const listing = await runCli('inspect', pak);
    expect(listing.status, listing.stderr).toBe(0);
    expect(listing.stdout).toContain(`${mdlRows().length} models`);
    for (const r of mdlRows()) expect(listing.stdout).toContain(gamePath(r.path));
    const member = await runCli('inspect', `${pak}:progs/ogre.mdl`);
    expect(member.status, member.stderr).toBe(0);
    expect(member.stdout).toMatch(/^format\s+mdl$/m);
    expect(member.stdout + member.stderr).not.toContain('PALETTE_NOT_FOUND');
  });

  it('convert to .glb embeds the skin the model carries; to .obj writes the pose asked for', async () => {
    const glb = join(tmp, 'ogre.glb');
    const r = await runCli('convert', OGRE, '-o', glb);
    expect(r.status, r.stderr).toBe(0);
    const g = readGlb(readFileSync(glb));
    const model = parseMdl(readFileSync(OGRE));
    expect(g.json.images?.length).toBeGreaterThan(0);
    expect(g.json.animations?.length).toBe(model.clips.length);
    const obj = join(tmp, 'ogre.obj');
    const o = await runCli('convert', OGRE, '--frame', String(model.poseCount - 1), '-o', obj);
    expect(o.status, o.stderr).toBe(0);
    expect(readFileSync(obj, 'utf8').match(/^v /gm)?.length).toBe(model.vertexCount);
    const past = await runCli('convert', OGRE, '--frame', String(model.poseCount), '-o', obj);
    expect(past.status).toBe(2);
    expect(past.stderr).toContain(`--frame ${model.poseCount}: ${OGRE} has frames 0..${model.poseCount - 1}`);
  });

  it('convert --all over the game folder converts every model of its pak', async () => {
    const out = join(tmp, 'all');
    const r = await runCli('convert', '--all', join(tmp, 'quake', 'id1'), '-o', out, '--jobs', '2', '--json');
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect([j.converted, j.failed]).toEqual([mdlRows().length, 0]);
    expect(readdirSync(join(out, 'progs')).filter((n) => n.endsWith('.glb')).length).toBe(mdlRows().length);
  });
});

describe('convert PAK --all: a .pak member is as new as the .pak (its directory holds no times)', () => {
  it('a second run finds the output up to date; after the .pak changes, converted again', async () => {
    const dir = cliTemp('mdl-pak-time');
    const pak = join(dir, 'pak0.pak');
    writeFileSync(pak, makePak([{ name: 'gfx/palette.lmp', data: readFileSync(PALETTE) }, { name: 'progs/ogre.mdl', data: readFileSync(OGRE) }]));
    const past = new Date(Date.now() - 3600_000);
    utimesSync(pak, past, past);
    const out = join(dir, 'out');
    const summary = async () => {
      const r = await runCli('convert', pak, '--all', '--jobs', '1', '--json', '-o', out);
      expect(r.status, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout);
      return [j.converted, j.upToDate];
    };
    expect(await summary()).toEqual([1, 0]);
    expect(await summary()).toEqual([0, 1]); // before: [1, 0], every run converted it again
    const later = new Date(Date.now() + 3600_000);
    utimesSync(pak, later, later);
    expect(await summary()).toEqual([1, 0]);
  });
});

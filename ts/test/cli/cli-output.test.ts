/**
 * What the CLI prints a new user (issue 29 item 13), on corpus files: inspect's table says each fact once and
 * readably, missing shaders are one group per file, engine built-in images are not misses, warnings are filed under
 * the file they concern, a folder and an archive are named once and as given, the archive table keeps its columns
 * with long paths, and every line of a batch names the archive its model came from.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliTemp, runCli, shared } from '../helpers/cli.js';
import { makeZip } from '../helpers/zip-writer.js';

const tmp = cliTemp('output');
const BSUIT = shared('res-players_src.dpkdir/models/players/human_bsuit');
const MGTURRET = shared('res-tremulous_src.dpkdir/models/tremulous/buildables/mgturret/mgturret.md3');
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A game folder holding a player `bad` whose upper.md3 is bsuit's lower.md3 (no tag_head), with bsuit's skins. */
function headlessPlayer(root: string): string {
  const dir = join(root, 'models', 'players', 'bad');
  mkdirSync(dir, { recursive: true });
  for (const f of ['lower.md3', 'head.md3', 'lower_default.skin', 'upper_default.skin', 'head_default.skin']) copyFileSync(join(BSUIT, f), join(dir, f));
  copyFileSync(join(BSUIT, 'lower.md3'), join(dir, 'upper.md3'));
  return dir;
}

describe("inspect's table", () => {
  it('shows each fact once: no raw JSON rows, textures as lines, empty values said; --json keeps them as data', async () => {
    const file = shared('LibreQuake/lq1/progs/wizard.mdl');
    const r = await runCli('inspect', file);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(r.stdout).not.toMatch(/[{}]/); // no object printed as JSON
    const labels = lines.map((l) => l.slice(0, 20).trim()).filter(Boolean);
    expect(labels.filter((l, i) => labels.indexOf(l) !== i)).toEqual([]); // every row label once
    expect(labels).not.toContain('textures');
    expect(labels).not.toContain('textureWarnings');
    expect(labels).not.toContain('gameFolder');
    expect(lines).toContain(`${'game folder'.padEnd(20)} ${shared('LibreQuake/lq1')}`);
    expect(lines).toContain(`${'texture 0'.padEnd(20)} #0: progs/wizard.mdl/skin0 (carried by the model)`);
    expect(lines).toContain(`${'flags'.padEnd(20)} none`); // an empty list is said, not left blank
    expect(lines.every((l) => l.length > 21)).toBe(true);
    const j = JSON.parse((await runCli('inspect', file, '--json')).stdout);
    expect(j.textures).toEqual([{ surface: '', shader: 'progs/wizard.mdl/skin0', image: 'progs/wizard.mdl/skin0', builtin: null, normal: null }]);
    expect(j.textureWarnings).toEqual([]);
    expect(j.flags).toEqual([]);
  });

  it('an MD3 surface its skin maps to an engine image (*white) is drawn with it, not reported missing', async () => {
    const dir = join(tmp, 'builtin', 'models', 'players', 'bsuit');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(BSUIT, 'head.md3'), join(dir, 'head.md3'));
    writeFileSync(join(dir, 'head_white.skin'), 'tag_head,\nh_head,*white\n');
    const r = await runCli('inspect', join(dir, 'head.md3'), '--skin', 'white');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${'texture 0'.padEnd(20)} h_head: *white → engine image *white`);
    expect(r.stdout).not.toMatch(/NOT_FOUND/);
    expect(JSON.parse((await runCli('inspect', join(dir, 'head.md3'), '--skin', 'white', '--json')).stdout).textures[0]).toMatchObject({ image: null, builtin: '*white' });
  });
});

describe('missing shaders', () => {
  it('are one group per file: a head with the extensions tried, then one line per name with the surfaces using it', async () => {
    const r = await runCli('convert', MGTURRET, '-o', join(tmp, 'mgturret.glb'));
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stderr.split('\n');
    const at = lines.findIndex((l) => l.includes('SHADER_NOT_FOUND'));
    expect(lines.filter((l) => l.includes('SHADER_NOT_FOUND'))).toHaveLength(1);
    expect(lines[at]).toBe(`${MGTURRET}: warning SHADER_NOT_FOUND: 5 names with no shader, material or image, each looked for with .tga, .jpg, .jpeg, .png, .pcx, .bmp:`);
    const surfaces: [string, string][] = [['turret_base', 'turret_base'], ['turret_shiny', 'turret_shiny'], ['turret_coil2', 'turret_coil'], ['turret_barrel', 'turret_barrel'], ['turret_top', 'turret_top']];
    expect(lines.slice(at + 1, at + 6)).toEqual(surfaces.map(([shader, surface]) => `  models/tremulous/buildables/mgturret/${shader} (surface ${surface})`));
    expect(r.stderr.match(/\.pcx/g)).toHaveLength(1);
  });

  it('a name several surfaces use is one line naming them all; inspect indents the names under its row', async () => {
    const root = join(tmp, 'shared-name');
    const dir = headlessPlayer(root);
    const r = await runCli('convert', dir, '-o', join(tmp, 'shared-name.glb'));
    expect(r.status, r.stderr).toBe(0);
    // bsuit's skins name human_bsuit.jpg, which is not in this game folder: lower's l_legs and head's h_head use it
    const miss = r.stderr.split('\n').filter((l) => l.includes('SHADER_NOT_FOUND'));
    expect(miss).toEqual([
      `${join(dir, 'lower_default.skin')}: warning SHADER_NOT_FOUND: no shader, material or image named 'models/players/human_bsuit/human_bsuit.jpg' (looked for models/players/human_bsuit/human_bsuit.{jpg,tga,jpeg,png,pcx,bmp}); used by surface l_legs, surface h_head`,
    ]);
    const t = (await runCli('inspect', MGTURRET)).stdout.split('\n');
    const head = t.findIndex((l) => l.startsWith('texture warning      SHADER_NOT_FOUND: 5 names'));
    expect(t[head + 1]).toBe(`${''.padEnd(20)}   models/tremulous/buildables/mgturret/turret_base (surface turret_base)`);
  });
});

describe('warnings are filed under the file they concern', () => {
  it("a player's MISSING_TAG for upper.md3 under upper.md3, at no byte", async () => {
    const dir = headlessPlayer(join(tmp, 'tag'));
    const r = await runCli('convert', dir, '-o', join(tmp, 'tag.glb'));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.includes('MISSING_TAG'))).toEqual([`${join(dir, 'upper.md3')}: warning MISSING_TAG: no tag_head (its tags: ["tag_torso"]): head is placed at upper's origin, as the game does`]);
  });
});

describe('names said once and never empty', () => {
  it('inspect of a player folder given itself names the folder as given', async () => {
    const r = await runCli('inspect', BSUIT);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${escape(BSUIT)}\\s+player\\s+default\\s+lower 191, upper 153, head 1$`, 'm'));
  });

  it('NOT_AN_ARCHIVE names the archive once', async () => {
    const fake = join(tmp, 'fake.pk3');
    writeFileSync(fake, 'hello\n');
    for (const args of [['inspect', fake], ['convert', '--all', fake, '-o', join(tmp, 'fake-out')]]) {
      const r = await runCli(...args);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`idtech-models: ${fake}:byte 0: NOT_AN_ARCHIVE: 6 bytes cannot hold a zip end record (22)\n`);
    }
  });
});

describe('the archive table', () => {
  it('keeps its columns with a long member path, cut in the middle with an ellipsis', async () => {
    const md3 = readFileSync(MGTURRET);
    const long = `models/${'very_long_folder_name/'.repeat(6)}mgturret.md3`;
    const pk3 = join(tmp, 'long.pk3');
    writeFileSync(pk3, makeZip([{ name: long, data: md3 }, { name: 'models/short.md3', data: md3 }]));
    const r = await runCli('inspect', pk3);
    expect(r.status, r.stderr).toBe(0);
    const [, header, ...rows] = r.stdout.trimEnd().split('\n');
    const column = header.indexOf('format');
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.slice(column, column + 5)).toBe('md3  ');
    const cut = rows.find((row) => row.includes('…'))!;
    expect(cut.slice(0, column).trimEnd()).toMatch(/^models\/very_long_folder_name\/.*….*_name\/mgturret\.md3$/);
    expect(cut.slice(0, column).trimEnd()).toHaveLength(80);
    expect(JSON.parse((await runCli('inspect', pk3, '--json')).stdout).models.map((m: { path: string }) => m.path)).toContain(long);
  });
});

describe('convert --all', () => {
  it('names the archive on every line about a model: its warnings, their continuation aside, and its failure', async () => {
    const root = join(tmp, 'batch-src');
    const dir = headlessPlayer(root);
    const pk3 = join(tmp, 'batch.pk3');
    const files = ['lower.md3', 'upper.md3', 'head.md3', 'lower_default.skin', 'upper_default.skin', 'head_default.skin'];
    writeFileSync(pk3, makeZip([
      ...files.map((f) => ({ name: `models/players/bad/${f}`, data: readFileSync(join(dir, f)) })),
      { name: 'models/broken/tris.md2', data: readFileSync(shared('assimp/test/models/MD2/malformed_zero_numvertices.md2')) },
    ]));
    const r = await runCli('convert', '--all', pk3, '-o', join(tmp, 'batch-out'));
    const lines = r.stderr.trimEnd().split('\n');
    const modelLines = lines.filter((l) => !l.startsWith('  ') && !l.startsWith('converted '));
    expect(modelLines.length).toBeGreaterThanOrEqual(4); // MISSING_TAG, SHADER_NOT_FOUND, SKIN_SURFACE_MISSING, the failure
    for (const l of modelLines) expect(l).toMatch(/^(failed: )?batch\.pk3:models\//);
    expect(lines).toContain("batch.pk3:models/players/bad/upper.md3: warning MISSING_TAG: no tag_head (its tags: [\"tag_torso\"]): head is placed at upper's origin, as the game does");
    expect(lines.some((l) => l.startsWith('batch.pk3:models/players/bad/lower_default.skin: warning SHADER_NOT_FOUND'))).toBe(true);
  });
});

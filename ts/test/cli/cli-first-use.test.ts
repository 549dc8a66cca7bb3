/**
 * The built CLI as a new user meets it: a missing file, a folder where a file goes, a folder that is not a
 * player, an anim that does not fit its mesh and a Doom 3 camera file each give ONE line naming the file once
 * (exit 1); `--version`; `COMMAND --help` and `help COMMAND` explain every option the command accepts; the
 * top-level usage stays short; bad usage exits 2 with the command's synopsis. Needs dist/ (node scripts/bundle.mjs).
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs, type Command } from '../../src/commands/args.js';
import { bench } from '../../src/commands/bench/bench.js';
import { convert } from '../../src/commands/convert/convert.js';
import { inspect } from '../../src/commands/inspect/inspect.js';
import { DEFAULT_FORMATS, readableExtensions } from '../../src/registry/formats.js';
import type { ChildResult } from '../helpers/child.js';
import { runCli as run } from '../helpers/cli.js';
import { REPO, SHARED_MODELS } from '../helpers/models.js';

const tmp = mkdtempSync(join(tmpdir(), 'idtech-cli-first-'));
const M = (p: string) => join(SHARED_MODELS, p);
const DRONE = M('actors/drone/mesh.md5mesh');
const DRONE_IDLE = M('actors/drone/idle.md5anim');
const RIFLE_IDLE = M('res-weapons_src.dpkdir/models/weapons/rifle/rifle_view_idle.md5anim');
const CAMERA = M('assimp/test/models/MD5/invalid/InvalidCameraCut.md5camera');
const HUMAN = M('res-tremulous_src.dpkdir/models/tremulous/players/human_base');

const occurrences = (text: string, s: string) => text.split(s).length - 1;

/** Exit 1 and exactly one stderr line, starting `idtech-models: FILE: ` with FILE said once and no stack. */
function oneLine(r: ChildResult, file: string): string {
  expect(r.status, r.stderr).toBe(1);
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0].startsWith(`idtech-models: ${file}: `), lines[0]).toBe(true);
  expect(occurrences(lines[0], file)).toBe(1);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  return lines[0];
}

describe('bad input: one line, the file named once, exit 1', () => {
  const nope = join(tmp, 'nope.md5mesh');
  it('a missing file, for every place a file is named', async () => {
    for (const r of [await run('inspect', nope), await run('convert', nope, '-o', join(tmp, 'x.glb')), await run('convert', nope, '-o', join(tmp, 'x.obj')), await run('bench', nope)]) {
      const line = oneLine(r, nope);
      expect(line).toBe(`idtech-models: ${nope}: no such file or folder (ENOENT)`);
    }
    const anim = join(tmp, 'nope.md5anim');
    for (const out of ['x.glb', 'x.obj']) expect(oneLine(await run('convert', DRONE, '--anim', anim, '-o', join(tmp, out)), anim)).toMatch(/\(ENOENT\)$/);
    expect(oneLine(await run('bench', DRONE, anim), anim)).toMatch(/\(ENOENT\)$/);
  });
  it('a folder where a model file goes names the folder', async () => {
    const dir = M('actors/drone');
    // inspect lists a folder's models instead (cli-batch.test.ts): the mesh with the anims beside it
    expect((await run('inspect', dir)).stdout).toMatch(/^mesh\.md5mesh\s+md5mesh\s+-\s+death\.md5anim \(5\), forward\.md5anim \(12\), idle\.md5anim \(2\)/m);
    expect(oneLine(await run('convert', DRONE, '--anim', dir, '-o', join(tmp, 'x.glb')), dir)).toMatch(/is a folder/);
    expect(oneLine(await run('bench', dir), dir)).toMatch(/is a folder/);
  });
  it('an output in a folder that does not exist', async () => {
    const out = join(tmp, 'no-such-folder', 'x.glb');
    expect(oneLine(await run('convert', DRONE, '-o', out), out)).toBe(`idtech-models: ${out}: cannot write it: the folder ${join(tmp, 'no-such-folder')} does not exist (ENOENT)`);
  });
  it('a folder that is not a Quake 3 player says what a player folder holds and what this one lacks', async () => {
    const dir = M('actors/drone');
    const line = oneLine(await run('convert', dir, '-o', join(tmp, 'x.glb')), dir);
    expect(line).toContain('not a Quake 3 player folder');
    expect(line).toContain('lower.md3, upper.md3 and head.md3 (animation.cfg and weapon.md3 optional)');
    expect(line).toContain('no lower.md3, upper.md3, head.md3');
    expect(line).toContain('name its file (mesh.md5mesh, with --anim for an .md5anim)'); // the folder's one mesh
    // a folder with only lower.md3 (linked from a real player): names the two parts it lacks
    const partial = join(tmp, 'partial-player');
    mkdirSync(partial);
    symlinkSync(join(HUMAN, 'lower.md3'), join(partial, 'lower.md3'));
    expect(oneLine(await run('convert', partial, '-o', join(tmp, 'x.glb')), partial)).toMatch(/this one has no upper\.md3, head\.md3; to convert one model in it, name its file \(lower\.md3\)$/);
  });
  it('a player folder to OBJ is bad usage (exit 2): OBJ is one model', async () => {
    const r = await run('convert', HUMAN, '-o', join(tmp, 'x.obj'));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/player folder converts to \.glb or \.gltf/);
  });
});

describe('an anim that does not fit its mesh blames the anim', () => {
  it('convert … -o x.obj', async () => {
    // rifle_view_idle animates the rifle's 46 joints; the drone has 27 (MANIFEST: numJoints=27)
    const line = oneLine(await run('convert', DRONE, '--anim', RIFLE_IDLE, '-o', join(tmp, 'x.obj')), RIFLE_IDLE);
    expect(line).toBe(`idtech-models: ${RIFLE_IDLE}: ANIM_MESH_MISMATCH: the anim has 46 joints, the mesh 27 (played on ${DRONE})`);
  });
  for (const out of ['x.glb', 'x.gltf']) {
    it(`convert … -o ${out}: the drone's own idle written, the rifle's anim the warning that names it, exit 1 (cli-anim-policy.test.ts)`, async () => {
      const r = await run('convert', DRONE, '--anim', DRONE_IDLE, '--anim', RIFLE_IDLE, '--no-textures', '-o', join(tmp, out));
      expect(r.status, r.stderr).toBe(1);
      expect(r.stderr).toContain(`${RIFLE_IDLE}: warning ANIM_MESH_MISMATCH: the anim has 46 joints, the mesh 27: not played on ${DRONE}`);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });
  }
  it('bench MESH ANIM', async () => {
    expect(oneLine(await run('bench', DRONE, RIFLE_IDLE), RIFLE_IDLE)).toMatch(/: ANIM_MESH_MISMATCH: the anim has 46 joints, the mesh 27 \(played on /);
  });
});

describe('.md5camera (Doom 3 camera paths) is refused by name', () => {
  const expected = (file: string) => `idtech-models: ${file}: a Doom 3 camera path (.md5camera), which this tool does not read (it reads ${readableExtensions()})`;
  it('by its extension, in inspect and convert', async () => {
    expect(oneLine(await run('inspect', CAMERA), CAMERA)).toBe(expected(CAMERA));
    expect(oneLine(await run('convert', CAMERA, '-o', join(tmp, 'cam.glb')), CAMERA)).toBe(expected(CAMERA));
  });
  it('by its content when the name says nothing (it used to be read as an md5anim)', async () => {
    const bare = join(tmp, 'camera-without-extension');
    writeFileSync(bare, readFileSync(CAMERA));
    expect(oneLine(await run('inspect', bare), bare)).toBe(expected(bare));
  });
});

describe('--version, help, usage', () => {
  it('--version prints the version of package.json', async () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8'));
    for (const flag of ['--version', '-V']) {
      const r = await run(flag);
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(`idtech-models ${version}\n`);
    }
  });

  const commands: Command[] = [inspect, convert, bench];
  for (const c of commands) {
    it(`${c.spec.name} --help explains every option it accepts; help ${c.spec.name} says the same`, async () => {
      const r = await run(c.spec.name, '--help');
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      expect((await run('help', c.spec.name)).stdout).toBe(r.stdout);
      expect((await run(c.spec.name, '-h')).stdout).toBe(r.stdout);
      // The option lines of the help (`  -o, --output OUT   …` / `  --step   …`), read back from its text.
      const listed = [...r.stdout.matchAll(/^ {2}((?:-\w, )?--[\w-]+)(?: (\S+))?(?: {2,}(\S.*))?$/gm)];
      const names = listed.flatMap((m) => m[1].split(', '));
      for (const o of c.spec.options) {
        for (const n of [o.name, ...(o.aliases ?? [])]) expect(names, `${c.spec.name} --help lists ${n}`).toContain(n);
      }
      // Every option the help lists is one the parser takes (given a value when the help shows one) …
      for (const m of listed) {
        for (const n of m[1].split(', ').filter((x) => x !== '-h' && x !== '--help')) {
          expect(() => parseArgs(m[2] ? [n, 'v'] : [n], c.spec), `${c.spec.name} accepts ${n}`).not.toThrow();
        }
      }
      // … and each comes with its sentence, starting beside it (or on the next line, under a long name).
      for (const o of c.spec.options) {
        const start = o.help.split(' ').slice(0, 2).join(' ');
        expect(r.stdout, o.name).toMatch(new RegExp(`${o.name}[^\n]*(\n {26})?${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      }
      // the parser refuses what the help does not list
      const bad = await run(c.spec.name, '--no-such-option');
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain(`${c.spec.name} has no option --no-such-option`);
      expect(bad.stderr).toContain(`See 'idtech-models ${c.spec.name} --help' for every option.`);
    });
  }

  it('the top-level usage is short: one line per command, no options; then each format read, in at most two lines', async () => {
    const r = await run('--help');
    expect(r.status).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    const reads = lines.findIndex((l) => l.startsWith('reads ('));
    const writes = lines.findIndex((l) => l.startsWith('writes: '));
    expect(lines.length - (writes - reads)).toBeLessThanOrEqual(12);
    const formats = lines.slice(reads + 1, writes);
    // one entry per model format registered (MD5, MD2, MD3, the folder formats, Quake MDL, IQM, GoldSrc MDL), each in at most two lines
    const models = DEFAULT_FORMATS.filter((f) => f.role === 'model');
    expect(formats.filter((l) => /^ {2}\S/.test(l))).toHaveLength(models.length);
    expect(formats.length).toBeLessThanOrEqual(2 * models.length);
    for (const c of commands) expect(lines.filter((l) => l.startsWith(`  ${c.spec.name} `))).toHaveLength(1);
    expect(r.stdout).not.toMatch(/--anim|--clip|--backend/);
    expect((await run('help')).stdout).toBe(r.stdout);
    // without a command: the same text on stderr, exit 2
    const none = await run();
    expect(none.status).toBe(2);
    expect(none.stderr).toBe(r.stdout);
  });

  it('bad usage exits 2 with the message and the command synopsis, not the whole manual', async () => {
    const r = await run('convert', DRONE, '--frame', '1', '--frame', '2', '--anim', DRONE_IDLE, '-o', join(tmp, 'x.obj'));
    expect(r.status).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('idtech-models: --frame is given twice');
    expect(lines.slice(1).every((l) => /^(usage: | {7})idtech-models convert |^See /.test(l))).toBe(true);
    expect((await run('help', 'frobnicate')).status).toBe(2);
    // an option of the other output is refused, not ignored
    const step = await run('convert', DRONE, '--step', '-o', join(tmp, 'x.obj'));
    expect(step.status).toBe(2);
    expect(step.stderr).toMatch(/^idtech-models: --step is for glTF output \(\.glb, \.gltf\), not \.obj$/m);
    // a glTF option for an input it does nothing to is refused too
    const clip = await run('convert', DRONE, '--clip', 'run:0:2', '-o', join(tmp, 'x.glb'));
    expect(clip.status).toBe(2);
    // the formats whose glTF export takes clips, as the registry says (MD2, MD3, MDL today)
    const clipFiles = DEFAULT_FORMATS.filter((f) => !f.folder && f.gltf?.uses.includes('clips')).flatMap((f) => f.extensions);
    expect(clipFiles.length).toBeGreaterThan(1);
    const listed = `${clipFiles.slice(0, -1).join(', ')} and ${clipFiles[clipFiles.length - 1]} files`;
    expect(clip.stderr.split('\n')).toContain(`idtech-models: --clip acts on ${listed}, not on .md5mesh files`);
    // an .md5anim given as the input says where it goes
    const anim = await run('convert', DRONE_IDLE, '-o', join(tmp, 'x.glb'));
    expect(anim.status).toBe(2);
    expect(anim.stderr).toContain(`convert MESH.md5mesh --anim ${DRONE_IDLE}`);
  });
});

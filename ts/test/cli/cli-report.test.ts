/**
 * What the built CLI reports about real files: warnings grouped one line per kind with a count (`(×N)` when
 * identical, `(and N more like it)` when they differ only in numbers and quoted names), in inspect and convert;
 * `convert`'s last stderr line summarises what was written (files, meshes, vertices, clips, size), every number
 * read here independently from the input or the written file. Needs dist/ (node scripts/bundle.mjs).
 */
import { cpSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import type { ChildResult } from '../helpers/child.js';
import { runCli as run } from '../helpers/cli.js';
import { warningLines } from '../../src/commands/warnings.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

const tmp = mkdtempSync(join(tmpdir(), 'idtech-cli-report-'));
const M = (p: string) => join(SHARED_MODELS, p);
const BOARMAN = M('assimp/test/models-nonbsd/MD5/BoarMan.md5mesh');
const FAERIE = M('assimp/test/models/MD2/faerie.md2');
const GRENADE_MD3 = M('res-tremulous_src.dpkdir/models/tremulous/weapons/grenade/grenade.md3');
const BSUIT = M('res-players_src.dpkdir/models/players/human_bsuit');

const stderrLines = (r: ChildResult) => r.stderr.trimEnd().split('\n');
/** The summary's size: KB and MB of 1024, as `ls -h` counts. */
const size = (bytes: number) => (bytes < 2 ** 20 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 2 ** 20).toFixed(1)} MB`);

/** The JSON of a written .glb (first chunk) or .gltf. */
function writtenJson(path: string): any {
  const bytes = new Uint8Array(readFileSync(path));
  if (!path.endsWith('.glb')) return JSON.parse(new TextDecoder().decode(bytes));
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + dv.getUint32(12, true))));
}

describe('warnings, grouped by kind', () => {
  it('BoarMan: 13 empty meshes are one EMPTY_MESH line, counted', async () => {
    const meshes = parseMd5Mesh(read(BOARMAN)).meshes;
    const empty = meshes.map((m, i) => ({ m, i })).filter(({ m }) => m.vertexCount === 0);
    expect(empty.length).toBe(13); // docs/gltf.md: "BoarMan.md5mesh has 13 such meshes"
    const { m: first, i } = empty[0];
    const label = first.name || `mesh${i}`; // the exporter names an unnamed mesh by its index
    const r = await run('convert', BOARMAN, '-o', join(tmp, 'boarman.glb'));
    expect(r.status, r.stderr).toBe(0);
    const lines = stderrLines(r).filter((l) => l.includes('EMPTY_MESH'));
    expect(lines).toEqual([`${BOARMAN}: warning EMPTY_MESH: mesh ${i} ("${label}") has no vertices: not exported (and ${empty.length - 1} more like it)`]);
  });
  it('identical warnings count as (×N); ones alike as (and N more like it)', async () => {
    // (a --clip past the model's frames made them here; it is refused now, exit 2: cli-silent-drops.test.ts)
    const w = (message: string) => ({ file: FAERIE, warning: { code: 'CLIP_RANGE', message, offset: 0 }, positioned: false });
    const same = warningLines([w('clip "far" (frames 300..304) is outside'), w('clip "far" (frames 300..304) is outside'), w('clip "far" (frames 300..304) is outside')]);
    expect(same).toEqual([`${FAERIE}: warning CLIP_RANGE: clip "far" (frames 300..304) is outside (×3)`]);
    const alike = warningLines([w('clip "far" (frames 300..304) is outside'), w('clip "farther" (frames 400..401) is outside')]);
    expect(alike).toEqual([`${FAERIE}: warning CLIP_RANGE: clip "far" (frames 300..304) is outside (and 1 more like it)`]);
    // through the CLI: two renamed joints of one md5anim are one line (jump: joints 4 and 5, MANIFEST)
    const players = M('res-players_src.dpkdir/models/players');
    const r = await run('convert', join(players, 'human_naked/body.md5mesh'), '--anim', join(players, 'human_nobsuit_common/jump.md5anim'), '--no-textures', '-o', join(tmp, 'jump.glb'));
    expect(r.status, r.stderr).toBe(0);
    const engine = stderrLines(r).filter((l) => l.includes('ENGINE_LIMIT'));
    expect(engine, r.stderr).toHaveLength(1);
    expect(engine[0]).toMatch(/\(and \d+ more like it\)$/);
  });
  it('a player folder: each part and animation.cfg warns under its own name, at its line:column', async () => {
    // human_bsuit's own `footsteps custom` is one of Unvanquished's (and Tremulous') kinds: a copy with one no
    // game knows
    const folder = join(tmp, 'human_bsuit');
    cpSync(BSUIT, folder, { recursive: true });
    const cfg = readFileSync(join(BSUIT, 'animation.cfg'), 'latin1').replace('footsteps custom', 'footsteps hooves').split('\n');
    writeFileSync(join(folder, 'animation.cfg'), cfg.join('\n'), 'latin1');
    const r = await run('convert', folder, '-o', join(tmp, 'bsuit.glb'));
    expect(r.status, r.stderr).toBe(0);
    // its line and the column of `hooves`
    const line = cfg.findIndex((l) => /^\s*footsteps\s/.test(l));
    const column = cfg[line].indexOf('hooves') + 1;
    expect(stderrLines(r)).toContain(`${join(folder, 'animation.cfg')}: warning BAD_FOOTSTEPS at ${line + 1}:${column}: unknown footsteps "hooves" (kept 'normal', as the engine does)`);
  });
  it('inspect: a table line per kind, every warning with its offset in --json', async () => {
    const bytes = read(GRENADE_MD3);
    const ofsEnd = new DataView(bytes.buffer, bytes.byteOffset).getInt32(104, true); // MD3 header: ofsEnd
    expect(bytes.length).toBeGreaterThan(ofsEnd);
    const text = await run('inspect', GRENADE_MD3);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^warnings\s+1$/m);
    expect(text.stdout).toContain(`\nwarning              TRAILING_BYTES at byte ${ofsEnd}: ${bytes.length - ofsEnd} byte(s) after ofsEnd ${ofsEnd} are ignored\n`);
    const j = JSON.parse((await run('inspect', GRENADE_MD3, '--json')).stdout);
    expect(j.warnings).toEqual([{ code: 'TRAILING_BYTES', message: `${bytes.length - ofsEnd} byte(s) after ofsEnd ${ofsEnd} are ignored`, offset: ofsEnd }]);
    expect((await run('inspect', FAERIE)).stdout).toMatch(/^warnings\s+none$/m);
  });
});

describe('convert ends with one summary line', () => {
  it('.glb from an md5mesh and two anims: meshes, vertices, clips, size', async () => {
    const out = join(tmp, 'drone.glb');
    const r = await run('convert', M('actors/drone/mesh.md5mesh'), '--anim', M('actors/drone/idle.md5anim'), '--anim', M('actors/drone/forward.md5anim'), '--no-textures', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    const mesh = parseMd5Mesh(read(M('actors/drone/mesh.md5mesh')));
    const vertices = mesh.meshes.reduce((n, m) => n + m.vertexCount, 0);
    expect(vertices).toBe(1439);
    expect(stderrLines(r)).toEqual([`wrote ${out}: ${mesh.meshes.length} meshes, ${vertices} vertices, 2 clips, ${size(statSync(out).size)}`]);
  });
  it('.gltf names both files and counts both in the size', async () => {
    const out = join(tmp, 'faerie.gltf');
    const r = await run('convert', FAERIE, '-o', out);
    expect(r.status, r.stderr).toBe(0);
    const bin = join(tmp, 'faerie.bin');
    const j = writtenJson(out);
    const clips = /frames: (.*)$/.exec(readFileSync(join(SHARED_MODELS, 'MANIFEST.tsv'), 'utf8').split('\n').find((l) => l.includes('MD2/faerie.md2'))!)![1].split(' ').length;
    expect(j.animations.length).toBe(clips); // 16 frame-name clips (MANIFEST: stand(40) run(6) …)
    const vertices = j.accessors[j.meshes[0].primitives[0].attributes.POSITION].count;
    expect(stderrLines(r).at(-1)).toBe(`wrote ${out}, ${bin}: 1 mesh, ${vertices} vertices, ${clips} clips, ${size(statSync(out).size + statSync(bin).size)}`);
  });
  it('a player folder: its parts and the animations of its animation.cfg', async () => {
    const out = join(tmp, 'bsuit.glb');
    const r = await run('convert', BSUIT, '-o', out);
    expect(r.status, r.stderr).toBe(0);
    const j = writtenJson(out);
    const positions = new Set<number>(j.meshes.flatMap((m: any) => m.primitives.map((p: any) => p.attributes.POSITION)));
    const vertices = [...positions].reduce((n, a) => n + j.accessors[a].count, 0);
    expect(stderrLines(r).at(-1)).toBe(`wrote ${out}: ${j.meshes.length} meshes, ${vertices} vertices, ${j.animations.length} clips, ${size(statSync(out).size)}`);
    expect(j.animations.length).toBeGreaterThan(20);
  });
  it('.obj: meshes, vertices, which frame, the backend, size', async () => {
    const out = join(tmp, 'drone.obj');
    const r = await run('convert', M('actors/drone/mesh.md5mesh'), '--anim', M('actors/drone/forward.md5anim'), '--frame', '5', '--backend', 'ts', '--no-textures', '-o', out);
    expect(r.status, r.stderr).toBe(0);
    const obj = readFileSync(out, 'utf8');
    const objects = obj.split('\n').filter((l) => l.startsWith('o ')).length;
    const v = obj.split('\n').filter((l) => l.startsWith('v ')).length;
    expect(stderrLines(r)).toEqual([`wrote ${out}: ${objects} meshes, ${v} vertices, frame 5 of ${M('actors/drone/forward.md5anim')}, backend ts, ${size(statSync(out).size)}`]);
  });
});

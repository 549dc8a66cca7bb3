/**
 * Archives through the built CLI (dist/cli.js, also the worker threads of --all): `inspect ARCHIVE_OR_DIR`,
 * `convert ARCHIVE:INNER` (byte for byte the loose file's conversion) and `convert … --all -o OUTDIR` on archives
 * zipped from ../shared/models (deflated and stored) and on hostile ones built here — traversal names, names no
 * platform may write, a size that lies, a bomb, a symbolic link out of OUTDIR, names with DEL, C1 or bidirectional
 * controls, a model that fills its worker's heap and one that never ends: each a typed failure in the summary,
 * nothing written outside OUTDIR, the other models converted. Needs dist/ (node scripts/bundle.mjs).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { archivePath } from '../../src/commands/inputs.js';
import { batchStatus } from '../../src/commands/convert/batch-progress.js';
import { middleEllipsis, PATH_COLUMN_MAX } from '../../src/commands/inspect/archive.js';
import { execChild } from '../helpers/child.js';
import { BIN, runCli as run } from '../helpers/cli.js';
import { runChild } from '../helpers/child.js';
import { zerosDeflated } from '../helpers/bomb.js';
import { corpusArchives } from '../helpers/corpus-archives.js';
import { goldsrcCompanionOnly, unreadButListed, unreadModelFiles } from '../helpers/corpus-kinds.js';
import { manifest, read, SHARED_MODELS } from '../helpers/models.js';
import { makePak } from '../helpers/pak-writer.js';
import { makeZip } from '../helpers/zip-writer.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';

const tmp = mkdtempSync(join(tmpdir(), 'idtech-cli-batch-'));
const json = (r: { stdout: string }) => JSON.parse(r.stdout);

/** Every file under `dir`, '/'-separated relative paths, sorted. */
function walk(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name), base) : [relative(base, join(dir, e.name)).split('\\').join('/')]))
    .sort();
}

/**
 * What the corpus holds, worked out from MANIFEST alone: every file of a model format the package registers (an IQM
 * whose notes say it is animation only is its mesh's, not a model of its own), a folder with lower/upper/head.md3 as
 * one player (its parts not listed again), and the files the parsers refuse (assimp's invalid/ and the zero-vertex
 * MD2). The formats follow the registry, so a newly registered format's files are expected here too. Model files of
 * formats this build does not read (helpers/corpus-kinds.ts) are listed only where a registered extension claims them
 * (none is: `.mds`, `.mdm`, `.mdx` are no model to this build and are not listed; `.mdc` is read since formats/mdc). GoldSrc's `.mdl` is read
 * (formats/goldsrc, told apart from Quake's by its first bytes): its models listed as hl1mdl, its sequence group and
 * texture files not listed (they are read with the model beside them).
 */
const MODEL_FORMATS = DEFAULT_FORMATS.filter((f) => f.role === 'model' && f.extensions.length);
async function expectedCorpus() {
  // A file Red Eclipse's player.cfg plays (`iqmanim NAME FILE`, from actors/player) is the player's animation even
  // where it carries meshes (mine_pose.iqm): listed under the player, not as a model of its own.
  const playerCfg = join(SHARED_MODELS, 'actors-iqm/player/player.cfg');
  const played = new Set(existsSync(playerCfg) ? [...new TextDecoder('latin1').decode(read(playerCfg)).matchAll(/iqmanim\s+"[^"]*"\s+"([^"]+)"/g)].map((m) => `actors-iqm/player/${m[1]}`) : []);
  const unread = unreadButListed();
  const rows = [...manifest().filter((r) => MODEL_FORMATS.some((f) => f.id === r.format) && !/animation only/.test(r.notes) && !played.has(r.path) && !goldsrcCompanionOnly(r)), ...unread];
  const folders = new Map<string, string[]>();
  for (const r of rows) folders.set(dirname(r.path), [...(folders.get(dirname(r.path)) ?? []), r.path.split('/').pop()!]);
  const players = [...folders].filter(([, names]) => ['lower.md3', 'upper.md3', 'head.md3'].every((n) => names.includes(n))).map(([f]) => f).sort();
  const isPart = (p: string) => players.includes(dirname(p)) && ['lower.md3', 'upper.md3', 'head.md3', 'weapon.md3'].includes(p.split('/').pop()!);
  const models = [...rows.filter((r) => !isPart(r.path)).map((r) => r.path), ...players].sort();
  // Broken = what the parsers refuse (they follow the engines: assimp's "invalid" Overflowing*Index md5meshes load
  // in Doom 3 and here, with warnings), checked only among the files the corpus marks as invalid or malformed.
  const refused = async (r: { format: string; path: string; absPath: string }) => {
    const format = MODEL_FORMATS.find((f) => f.id === r.format) ?? MODEL_FORMATS.find((f) => f.extensions.some((e) => r.path.toLowerCase().endsWith(e)))!;
    return format.parseStream!(read(r.absPath)).then(() => false, () => true);
  };
  const broken: string[] = [];
  for (const r of rows) if ((/\/invalid\//.test(r.path) || /malformed/.test(r.path)) && (await refused(r))) broken.push(r.path);
  // An unread format's file must be refused, never read as the format its extension names.
  for (const r of unread) {
    if (!(await refused(r))) throw new Error(`${r.path} (${r.format}) parses as the format its extension names`);
    broken.push(r.path);
  }
  return { models, players, broken: broken.sort(), unread: unread.map((r) => r.path).sort() };
}
const wanted = await expectedCorpus();
const { archives } = await corpusArchives();

describe('ARCHIVE:INNER paths', () => {
  it('split at the colon after an archive extension, never at a drive letter, and not when the path exists', async () => {
    expect(await archivePath('pak0.pk3:models/players/sarge/')).toEqual({ archive: 'pak0.pk3', inner: 'models/players/sarge', form: 'colon' });
    expect(await archivePath('C:\\q3\\baseq3\\pak0.PK3:models\\x.md3')).toEqual({ archive: 'C:\\q3\\baseq3\\pak0.PK3', inner: 'models/x.md3', form: 'colon' });
    expect(await archivePath('D:/doom3/base/pak000.pk4:models/md5/imp.md5mesh')).toEqual({ archive: 'D:/doom3/base/pak000.pk4', inner: 'models/md5/imp.md5mesh', form: 'colon' });
    expect(await archivePath('C:\\models\\x.md3')).toBeNull();
    expect(await archivePath('res.dpk:')).toEqual({ archive: 'res.dpk', inner: '', form: 'colon' });
    const odd = join(tmp, 'odd.pk3:name.md3'); // a Linux file whose name holds the pattern is that file
    writeFileSync(odd, read(join(SHARED_MODELS, 'assimp/test/models-nonbsd/MD3/watercan.md3')));
    expect(await archivePath(odd)).toBeNull();
  });
});

describe('inspect ARCHIVE_OR_DIR', () => {
  const want = wanted;
  it('lists every model of the corpus archive, players assembled, md5 anims beside their mesh with frames, skins', async () => {
    const r = await run('inspect', archives.deflate, '--json');
    expect(r.status, r.stderr).toBe(0);
    const j = json(r);
    expect(j.models.map((m: { path: string }) => m.path)).toEqual(want.models);
    expect(j.players).toEqual(want.players);
    const drone = j.models.find((m: { path: string }) => m.path === 'actors/drone/mesh.md5mesh');
    const framesOf = (p: string) => Number(/numFrames=(\d+)/.exec(manifest().find((r) => r.path === p)!.notes)![1]);
    expect(drone.anims).toEqual(['death', 'forward', 'idle'].map((n) => ({ path: `actors/drone/${n}.md5anim`, frames: framesOf(`actors/drone/${n}.md5anim`) })));
    expect(j.models.find((m: { path: string }) => m.path === 'aaa-assets/models/fx/portal/portals.md3').skins).toEqual(['blue', 'orange']);
    const bsuit = j.models.find((m: { path: string }) => m.path.endsWith('players/human_bsuit'));
    expect(bsuit.skins).toEqual(['default']);
    expect(bsuit.frames).toEqual({ lower: 191, upper: 153, head: 1 }); // README: 153- and 191-frame parts
    expect(j.models.find((m: { path: string }) => m.path.endsWith('faerie.md2')).frames).toBe(198);
    expect(j.models.find((m: { path: string }) => m.path.endsWith('malformed_zero_numvertices.md2')).error).toMatch(/^BAD_COUNT: /);
    // GoldSrc's .mdl (IDST): listed as hl1mdl, not as Quake's MDL; its group (IDSQ) and texture files are not listed.
    expect(want.unread).toEqual([]);
    const goldsrc = manifest().filter((r) => r.format === 'hl1mdl');
    const hl = goldsrc.filter((r) => !goldsrcCompanionOnly(r));
    expect(hl.length).toBeGreaterThan(0);
    for (const r of hl) expect(j.models.find((m: { path: string }) => m.path === r.path), r.path).toMatchObject({ format: 'hl1mdl' });
    for (const r of goldsrc.filter(goldsrcCompanionOnly)) expect(j.models.some((m: { path: string }) => m.path === r.path), r.path).toBe(false);
    // RtCW/ET's formats not registered (of MDC, MDS, MDM, MDX): not listed (their extensions are no registered
    // format's), though the archive holds them.
    const unlisted = unreadModelFiles().filter((r) => !want.unread.includes(r.path));
    expect(new Set(unlisted.map((r) => r.format))).toEqual(new Set(['mdc', 'mds', 'mdm', 'mdx'].filter((k) => !DEFAULT_FORMATS.some((f) => f.id === k))));
    for (const r of unlisted) expect(j.models.some((m: { path: string }) => m.path === r.path), r.path).toBe(false);
  });
  it('the table names each model once; a stored archive and Info-ZIP’s lists the same models', async () => {
    const table = await run('inspect', archives.stored);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toBe(`${archives.stored}: ${want.models.length} models, ${want.players.length} players`);
    // A path longer than the column is cut in the middle (cli-output.test.ts): GoldSrc's models in their group folders are.
    const shown = want.models.map((m) => middleEllipsis(m, PATH_COLUMN_MAX));
    for (const m of shown) expect(table.stdout).toMatch(new RegExp(`^${m.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s`, 'm'));
    expect(json(await run('inspect', archives.infozip, '--json')).models.length).toBe(want.models.length);
  });
});

describe('convert ARCHIVE:INNER', () => {
  const cases: [string, string[]][] = [
    ['res-tremulous_src.dpkdir/models/tremulous/weapons/grenade/grenade.md3', []],
    ['assimp/test/models/MD2/faerie.md2', []],
    ['res-players_src.dpkdir/models/players/human_bsuit', []],
    ['actors/drone/mesh.md5mesh', ['actors/drone/idle.md5anim', 'actors/drone/forward.md5anim']],
  ];
  // The corpus archive's root is not a game root (its paths start with the source repositories), so these compare
  // untextured; the textured comparison is below, on archives made from the .dpkdir folders (unpacked .dpk files).
  for (const [inner, anims] of cases) {
    it(`${inner.split('/').pop()} from a deflated and a stored .pk3 is byte for byte the loose file's .glb`, async () => {
      const loose = join(tmp, `loose-${inner.split('/').pop()}.glb`);
      const r0 = await run('convert', join(SHARED_MODELS, inner), ...anims.flatMap((a) => ['--anim', join(SHARED_MODELS, a)]), '--no-textures', '-o', loose);
      expect(r0.status, r0.stderr).toBe(0);
      for (const kind of ['deflate', 'stored'] as const) {
        const out = join(tmp, `${kind}-${inner.split('/').pop()}.glb`);
        const folder = !/\.\w+$/.test(inner); // a player folder, named with a trailing '/'
        const r = await run('convert', `${archives[kind]}:${inner}${folder ? '/' : ''}`, ...anims.flatMap((a) => ['--anim', a]), '--no-textures', '-o', out);
        expect(r.status, r.stderr).toBe(0);
        expect(r.stderr).toMatch(new RegExp(`wrote ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `));
        expect(Buffer.compare(readFileSync(out), readFileSync(loose))).toBe(0);
      }
    });
  }
  it('textured: a model and a player inside a .pk3 made from a .dpkdir embed the same images, byte for byte, as the loose files in their game folder; so does --all', async () => {
    const made: Record<string, string> = {};
    for (const [dpkdir, inner] of [['res-tremulous_src.dpkdir', 'models/mapobjects/stasis/stasis.md3'], ['res-players_src.dpkdir', 'models/players/human_bsuit']]) {
      const pk3 = join(tmp, `${dpkdir}.pk3`);
      await execChild('zip', ['-q', '-r', '-9', pk3, '.'], { cwd: join(SHARED_MODELS, dpkdir) });
      const loose = join(tmp, `textured-loose-${inner.split('/').pop()}.glb`);
      const inside = join(tmp, `textured-pk3-${inner.split('/').pop()}.glb`);
      expect((await run('convert', join(SHARED_MODELS, dpkdir, inner), '-o', loose)).status).toBe(0);
      const r = await run('convert', `${pk3}:${inner}`, '-o', inside);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain(`textures from ${pk3}:`);
      const bytes = readFileSync(inside);
      expect(JSON.parse(bytes.subarray(20, 20 + bytes.readUInt32LE(12)).toString()).images.length).toBeGreaterThan(0);
      expect(Buffer.compare(bytes, readFileSync(loose))).toBe(0);
      made[dpkdir] = loose;
    }
    const out = join(tmp, 'textured-all');
    expect((await run('convert', join(tmp, 'res-tremulous_src.dpkdir.pk3'), '--all', '-o', out)).status).toBe(0);
    expect(Buffer.compare(readFileSync(join(out, 'models/mapobjects/stasis/stasis.glb')), readFileSync(made['res-tremulous_src.dpkdir']))).toBe(0);
  });
  it('a missing inner path and an md5anim are refused with the archive path named; .obj output reads the member as a loose file is read', async () => {
    const miss = await run('convert', `${archives.deflate}:models/nothing.md3`, '-o', join(tmp, 'x.glb'));
    expect(miss.status).toBe(1);
    expect(miss.stderr.trim()).toBe(`idtech-models: ${archives.deflate}:models/nothing.md3: no such model file or Quake 3 player folder or Tremulous non-segmented player folder or Tremulous buildable folder in the archive`);
    expect((await run('convert', `${archives.deflate}:actors/drone/idle.md5anim`, '-o', join(tmp, 'x.glb'))).stderr).toMatch(/plays on its \.md5mesh/);
    const obj = await run('convert', `${archives.deflate}:actors/drone/mesh.md5mesh`, '--anim', 'actors/drone/idle.md5anim', '--frame', '1', '--no-textures', '-o', join(tmp, 'member.obj'));
    expect(obj.status, obj.stderr).toBe(0);
    const loose = await run('convert', join(SHARED_MODELS, 'actors/drone/mesh.md5mesh'), '--anim', join(SHARED_MODELS, 'actors/drone/idle.md5anim'), '--frame', '1', '--no-textures', '-o', join(tmp, 'loose.obj'));
    expect(loose.status, loose.stderr).toBe(0);
    const body = (f: string) => readFileSync(join(tmp, f), 'utf8').split('\n').filter((l) => !l.startsWith('#')).join('\n');
    expect(body('member.obj')).toBe(body('loose.obj'));
  });
});

describe('convert --all', () => {
  const want = wanted;
  const glbOf = (p: string) => (want.players.includes(p) ? `${p}.glb` : p.replace(/\.[^./]+$/, '.glb'));

  it('converts every listed model on every worker: one .glb per model at its inner path, broken ones failed with their code, exit 1', async () => {
    const out = join(tmp, 'all-deflate');
    const r = await run('convert', archives.deflate, '--all', '-o', out, '--json');
    expect(r.status, r.stderr).toBe(1);
    const j = json(r);
    const listed = json(await run('inspect', archives.deflate, '--json')).models.length;
    expect(j.models.length).toBe(listed);
    expect(j.converted + j.failed).toBe(listed);
    expect(j.models.filter((m: { status: string }) => m.status === 'failed').map((m: { path: string }) => m.path).sort()).toEqual(want.broken);
    for (const m of j.models.filter((x: { status: string }) => x.status === 'failed')) expect(m.code).toMatch(/^[A-Z_]+$/);
    for (const p of want.unread) expect(j.models.find((m: { path: string }) => m.path === p), p).toMatchObject({ status: 'failed', code: 'BAD_MAGIC' });
    // Warnings name the member they come from, as the archive calls it (BoarMan's 13 empty meshes: one line).
    const boar = j.models.find((m: { path: string }) => m.path.endsWith('BoarMan.md5mesh'));
    expect(boar.warnings).toEqual(expect.arrayContaining([expect.stringMatching(/^deflate\.pk3:assimp\/test\/models-nonbsd\/MD5\/BoarMan\.md5mesh: warning EMPTY_MESH: .*\(and 12 more like it\)$/)]));
    expect(walk(out)).toEqual(want.models.filter((m) => !want.broken.includes(m)).map(glbOf).sort());
    expect(r.stderr).toMatch(new RegExp(`^converted ${j.converted} \\(.*\\), up to date 0, failed ${want.broken.length}, warnings \\d+; ${listed} models in [\\d.]+ s on \\d+ workers?$`, 'm'));
  });

  it('one worker over a stored archive writes the same bytes as every worker over a deflated one', async () => {
    const a = join(tmp, 'all-deflate-2'), b = join(tmp, 'all-stored-1');
    await run('convert', archives.deflate, '--all', '-o', a);
    const r = await run('convert', archives.stored, '--all', '--jobs', '1', '-o', b);
    expect(r.stderr).toMatch(/ on 1 worker$/m);
    expect(walk(b)).toEqual(walk(a));
    for (const f of walk(a)) expect(Buffer.compare(readFileSync(join(a, f)), readFileSync(join(b, f))), f).toBe(0);
  });

  it('skips outputs already as new as their sources, converts them again with --force, and a touched source alone', async () => {
    const game = join(tmp, 'game');
    for (const p of ['assimp/test/models/MD2/faerie.md2', 'assimp/test/models-nonbsd/MD3/watercan.md3', 'actors/turret/turret.md5mesh']) {
      mkdirSync(dirname(join(game, p)), { recursive: true });
      cpSync(join(SHARED_MODELS, p), join(game, p));
    }
    const out = join(tmp, 'game-out');
    const first = json(await run('convert', game, '--all', '-o', out, '--json'));
    expect([first.converted, first.upToDate, first.failed]).toEqual([3, 0, 0]);
    const again = await run('convert', game, '--all', '-o', out, '--json');
    expect(again.status).toBe(0);
    expect([json(again).converted, json(again).upToDate]).toEqual([0, 3]);
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(game, 'actors/turret/turret.md5mesh'), future, future);
    const touched = json(await run('convert', game, '--all', '-o', out, '--json'));
    expect(touched.models.filter((m: { status: string }) => m.status === 'converted').map((m: { path: string }) => m.path)).toEqual(['actors/turret/turret.md5mesh']);
    expect(json(await run('convert', game, '--all', '--force', '-o', out, '--json')).converted).toBe(3);
    // The archive's member times count the same way: a second run over the archive skips everything it wrote.
    const pk = join(tmp, 'all-deflate');
    const rerun = json(await run('convert', archives.deflate, '--all', '-o', pk, '--json'));
    expect([rerun.converted, rerun.upToDate]).toEqual([0, want.models.length - want.broken.length]);
  });

  it('--slice I/N: the N slices are disjoint and together every model', async () => {
    const seen: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await run('convert', archives.deflate, '--all', '--slice', `${i}/3`, '--jobs', '1', '-o', join(tmp, `slice-${i}`), '--json');
      seen.push(...json(r).models.map((m: { path: string }) => m.path));
    }
    expect(seen.sort()).toEqual(want.models);
  });

  it('two models that would share an output (y.md2, y.md3) keep their extensions, in whichever slice each falls', async () => {
    const zip = join(tmp, 'same-name.pk3');
    writeFileSync(zip, makeZip([
      { name: 'models/y.md2', data: read(join(SHARED_MODELS, 'assimp/test/models/MD2/faerie.md2')) },
      { name: 'models/y.md3', data: read(join(SHARED_MODELS, 'assimp/test/models-nonbsd/MD3/watercan.md3')) },
    ]));
    const out = join(tmp, 'same-name');
    for (const s of ['0/2', '1/2']) expect((await run('convert', zip, '--all', '--slice', s, '-o', out)).status).toBe(0);
    expect(walk(out)).toEqual(['models/y.md2.glb', 'models/y.md3.glb']);
  });

  it('bad usage exits 2', async () => {
    for (const args of [['--jobs', '0'], ['--slice', '3/3'], ['--slice', 'x'], ['--clip', 'a:0:1'], []]) {
      const r = await run('convert', archives.deflate, '--all', ...args, ...(args.length ? ['-o', join(tmp, 'u')] : []));
      expect(r.status, args.join(' ')).toBe(2);
    }
    // a batch option without --all (--force is one no longer: alone it overwrites an input, cli-overwrite.test.ts)
    expect((await run('convert', archives.deflate, '--slice', '0/2', '-o', join(tmp, 'u.glb'))).status).toBe(2);
  });

  it('hostile archive: traversal, unwritable names, a lying size and a bomb fail typed in the summary; nothing lands outside OUTDIR', async () => {
    const md3 = read(join(SHARED_MODELS, 'assimp/test/models-nonbsd/MD3/watercan.md3'));
    const bomb = await zerosDeflated(64 << 20);
    const zip = makeZip([
      { name: 'models/good/watercan.md3', data: md3 },
      { name: '../../escape.md3', data: md3 },
      { name: 'models/../../../escape2.md3', data: md3 },
      { name: 'models/con.md3', data: md3 },
      { name: 'models/a:b.md3', data: md3 },
      { name: 'models/dot./x.md3', data: md3 },
      { name: 'models/liar.md3', data: md3, size: 1000 },
      { name: 'models/bomb.md3', data: new Uint8Array(0), raw: bomb.raw, crc: bomb.crc, size: 64 << 20 },
      { name: '../notes.txt', data: new TextEncoder().encode('not a model') },
    ]);
    const root = join(tmp, 'hostile');
    const out = join(root, 'a', 'b', 'out');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'hostile.pk3'), zip);
    // By default the bomb's 64 MiB, over 64 times the archive's size, keep the whole archive shut (docs/security.md)
    const shut = await run('convert', join(root, 'hostile.pk3'), '--all', '-o', out, '--json');
    expect([shut.status, shut.stderr]).toEqual([1, expect.stringMatching(/hostile\.pk3:byte \d+: INFLATE_LIMIT: the members declare \d+ bytes in all, .*over the limit maxTotalRatio = 64/)]);
    expect(walk(root)).toEqual(['hostile.pk3']);
    // With that limit lifted, each member meets its own refusal
    const lifted = ['--limit', 'maxTotalRatio=Infinity'];
    const r = await run('convert', join(root, 'hostile.pk3'), '--all', ...lifted, '-o', out, '--json');
    expect(r.status, r.stderr).toBe(1);
    const j = json(r);
    const byCode = (code: string) => j.models.filter((m: { code?: string }) => m.code === code).length;
    expect(byCode('UNSAFE_PATH')).toBe(5); // two refused by the archive, three by safeOutputPath
    expect(j.models.find((m: { path: string }) => m.path === 'models/liar.md3').code).toBe('SIZE_MISMATCH');
    expect(j.models.find((m: { path: string }) => m.path === 'models/bomb.md3').code).toBe('BAD_MAGIC'); // 64 MiB of zeros: refused at its first bytes
    expect(j.converted).toBe(1);
    expect(walk(root)).toEqual(['a/b/out/models/good/watercan.glb', 'hostile.pk3']);
    expect(j.notes).toEqual([expect.stringMatching(/hostile\.pk3: warning UNSAFE_PATH: entry 8 has an unsafe path "\.\.\/notes\.txt"/)]); // not a model: a warning

    // The same archive inside a game folder: the mount never serves those members, and the summary still names them.
    const game = join(root, 'game');
    mkdirSync(game);
    cpSync(join(root, 'hostile.pk3'), join(game, 'pak0.pk3'));
    const g = json(await run('convert', game, '--all', ...lifted, '-o', join(root, 'game-out'), '--json'));
    expect(g.models.filter((m: { code?: string }) => m.code === 'UNSAFE_PATH').map((m: { path: string }) => m.path).sort()).toEqual(['../../escape.md3', 'models/../../../escape2.md3', 'models/a:b.md3', 'models/con.md3', 'models/dot./x.md3']);
    expect(walk(join(root, 'game-out'))).toEqual(['models/good/watercan.glb']);

    // A symbolic link inside OUTDIR pointing out of it is not followed.
    const outside = join(root, 'outside');
    mkdirSync(outside);
    const linked = join(root, 'linked');
    mkdirSync(linked);
    symlinkSync(outside, join(linked, 'models'));
    const l = json(await run('convert', join(root, 'hostile.pk3'), '--all', ...lifted, '-o', linked, '--json'));
    expect(l.models.find((m: { path: string }) => m.path === 'models/good/watercan.md3').code).toBe('UNSAFE_PATH');
    expect(walk(outside)).toEqual([]);
    expect(statSync(linked).isDirectory()).toBe(true);
  });
});

/** An md5mesh of `count` one-triangle meshes on one joint: ~200 bytes of text a mesh, far more than that in the heap once exported. */
function manyMeshes(count: number): Uint8Array {
  const mesh = 'mesh {\n shader "m"\n numverts 3\n vert 0 ( 0 0 ) 0 1\n vert 1 ( 1 0 ) 1 1\n vert 2 ( 0 1 ) 2 1\n numtris 1\n tri 0 0 1 2\n numweights 3\n weight 0 0 1 ( 0 0 0 )\n weight 1 0 1 ( 1 0 0 )\n weight 2 0 1 ( 0 1 0 )\n}\n';
  return new TextEncoder().encode(`MD5Version 10\ncommandline ""\nnumJoints 1\nnumMeshes ${count}\njoints {\n "root" -1 ( 0 0 0 ) ( 0 0 0 )\n}\n${mesh.repeat(count)}`);
}

describe('convert --all budgets (issue 36)', () => {
  it('a .pak with a model that fills its worker\'s heap and one that never ends: RESOURCE_LIMIT and TIMEOUT rows, the others converted, the summary printed', async () => {
    const md3 = read(join(SHARED_MODELS, 'assimp/test/models-nonbsd/MD3/watercan.md3'));
    const md2 = read(join(SHARED_MODELS, 'assimp/test/models/MD2/faerie.md2'));
    const root = join(tmp, 'budgets');
    mkdirSync(root, { recursive: true });
    const pak = join(root, 'pak0.pak');
    // 20,000 meshes: hundreds of MB of heap to export, against a 48 MB budget (the small models need a few MB).
    writeFileSync(pak, makePak([
      { name: 'models/heap/many.md5mesh', data: manyMeshes(20_000) },
      { name: 'models/good/watercan.md3', data: md3 },
      { name: 'models/hang/hang.md3', data: md3 },
      { name: 'models/good/faerie.md2', data: md2 },
    ]));
    const out = join(root, 'out');
    // The hang is the worker's test hook (batch-worker.ts): that model never returns to the event loop. The budget of
    // 20 s is raced by nothing else: the other models take well under a second each.
    const r = await runChild(process.execPath, [BIN, 'convert', pak, '--all', '--jobs', '1', '--no-textures', '--model-timeout', '20', '--model-memory', '48', '-o', out, '--json'], {
      env: { ...process.env, IDTECH_MODELS_TEST_BATCH_HANG: 'models/hang/hang.md3' },
    });
    expect(r.status, r.stderr).toBe(1);
    const j = json(r);
    const row = (p: string) => j.models.find((m: { path: string }) => m.path === p);
    expect(row('models/heap/many.md5mesh')).toMatchObject({ status: 'failed', code: 'RESOURCE_LIMIT' });
    expect(row('models/heap/many.md5mesh').error).toMatch(/^.*pak0\.pak:models\/heap\/many\.md5mesh: RESOURCE_LIMIT: its worker ran out of memory \(.*heap out of memory; the batch's heap budget for one worker is 48 MB: raise it with --model-memory MB, or Infinity\)$/);
    expect(row('models/hang/hang.md3')).toMatchObject({ status: 'failed', code: 'TIMEOUT' });
    expect(row('models/hang/hang.md3').error).toMatch(/pak0\.pak:models\/hang\/hang\.md3: TIMEOUT: not converted within 20 s, the batch's time budget for one model: its worker was stopped \(raise it with --model-timeout SECONDS, or Infinity\)$/);
    expect([row('models/good/watercan.md3').status, row('models/good/faerie.md2').status]).toEqual(['converted', 'converted']);
    expect([j.converted, j.failed]).toEqual([2, 2]);
    expect(walk(out)).toEqual(['models/good/faerie.glb', 'models/good/watercan.glb']);
    // The same bytes as a batch without budgets writes
    const plain = join(root, 'plain');
    writeFileSync(join(root, 'good.pak'), makePak([{ name: 'models/good/watercan.md3', data: md3 }, { name: 'models/good/faerie.md2', data: md2 }]));
    expect((await run('convert', join(root, 'good.pak'), '--all', '--no-textures', '-o', plain)).status).toBe(0);
    for (const f of walk(plain)) expect(Buffer.compare(readFileSync(join(out, f)), readFileSync(join(plain, f))), f).toBe(0);
    expect(r.stderr).toMatch(/^converted 2 \(.*\), up to date 0, failed 2, warnings \d+; 4 models in [\d.]+ s on 1 worker$/m);
  });

  it('bad budgets are usage errors; they are --all options', async () => {
    for (const args of [['--model-timeout', '0'], ['--model-timeout', 'x'], ['--model-memory', '8'], ['--model-memory', '-1']]) {
      const r = await run('convert', archives.deflate, '--all', ...args, '-o', join(tmp, 'u'));
      expect([r.status, r.stderr], args.join(' ')).toEqual([2, expect.stringContaining(`${args[0]} ${args[1]}: expected a number`)]);
    }
    expect((await run('convert', archives.deflate, '--model-timeout', '5', '-o', join(tmp, 'u.glb'))).status).toBe(2);
  });
});

describe('convert --all output names (issue 36)', () => {
  it('a member named with DEL, a C1 control or a bidirectional formatting character fails as UNSAFE_PATH, shown escaped; nothing of it is written', async () => {
    const md3 = read(join(SHARED_MODELS, 'assimp/test/models-nonbsd/MD3/watercan.md3'));
    const c1 = [0x7f, ...Array.from({ length: 0x20 }, (_, i) => 0x80 + i)];
    const bidi = [0x61c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
    const named = (c: number) => `models/a${String.fromCharCode(c)}gnp.md3`;
    const root = join(tmp, 'names');
    mkdirSync(root, { recursive: true });
    // A .pak's names are bytes (DEL and C1 as they are); a zip's, UTF-8 when its flag says so (bidi, C1 as U+0080…).
    writeFileSync(join(root, 'names.pak'), makePak([{ name: 'models/good.md3', data: md3 }, ...c1.map((c) => ({ name: named(c), data: md3 }))]));
    writeFileSync(join(root, 'names.pk3'), makeZip([{ name: 'models/good.md3', data: md3 }, ...[...c1, ...bidi].map((c) => ({ name: named(c), data: md3, flags: 0x800 }))]));
    for (const [archive, chars] of [['names.pak', c1], ['names.pk3', [...c1, ...bidi]]] as const) {
      const out = join(root, `out-${archive}`);
      const r = await run('convert', join(root, archive), '--all', '--no-textures', '-o', out, '--json');
      expect(r.status, r.stderr).toBe(1);
      const j = json(r);
      expect([j.converted, j.failed], archive).toEqual([1, chars.length]);
      for (const c of chars) {
        const m = j.models.find((x: { path: string }) => x.path === named(c));
        expect(m, `${archive} ${c.toString(16)}`).toMatchObject({ status: 'failed', code: 'UNSAFE_PATH', out: null });
        expect(m.error).toContain(`: UNSAFE_PATH: "models/a\\u${c.toString(16).padStart(4, '0')}gnp.glb": a control character, NUL or bidirectional formatting character`);
      }
      expect(walk(out)).toEqual(['models/good.glb']);
      // every line printed is escaped as well: no raw DEL, C1 or bidi character reaches the terminal
      expect(r.stderr + r.stdout).not.toMatch(/[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    }
  });
});

describe('batch progress text', () => {
  it('done/total, MB/s of sources read and the time left at that rate; no ETA once done', () => {
    expect(batchStatus(45, 130, 3.2e6, 12.8e6, 1)).toBe('45/130 models, 3.2 MB/s, ETA 3s');
    expect(batchStatus(10, 100, 1e6, 121e6, 1)).toBe('10/100 models, 1.0 MB/s, ETA 2:00');
    expect(batchStatus(130, 130, 12.8e6, 12.8e6, 4)).toBe('130/130 models, 3.2 MB/s');
  });
});

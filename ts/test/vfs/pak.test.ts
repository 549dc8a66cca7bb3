/**
 * Quake / Quake 2 .pak archives: built here from corpus files (LibreQuake's MDLs and palette, the Action Quake
 * MD2s with their PCX skins), read member by member through openArchive (magic or name picks the pak reader), and
 * models parsed and textured straight out of them; hostile paks refused with typed errors having read no more than
 * the header; game folders mounted in COM_AddGameDirectory / FS_AddGameDirectory order.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, test } from 'vitest';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { parseMd2Stream } from '../../src/formats/md2/stream.js';
import { parseMdl, parseMdlStream } from '../../src/formats/mdl/index.js';
import { MaterialResolver } from '../../src/materials/resolver.js';
import { resolveMdlMaterials } from '../../src/formats/mdl/materials.js';
import { openArchive as openAnywhere } from '../../src/vfs/open-archive.js';
import type { PakArchive } from '../../src/vfs/pak-archive.js';
import { bytesReader, type RandomAccessReader } from '../../src/vfs/reader.js';
import { safeRelativePath } from '../../src/vfs/safe-path.js';
import { mountGameDir, openArchive } from '../../src/vfs/node.js';
import { diff } from '../md5/_helpers.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { makePak, type PakMember } from '../helpers/pak-writer.js';
import { mdlRows } from '../mdl/_helpers.js';

const text = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const LQ = 'LibreQuake/lq1';
const AQ = 'distrib/baseaq/pak0';

/** A reader that counts the bytes asked of it. */
function counting(bytes: Uint8Array, name = 'hostile.pak'): RandomAccessReader & { read_: number } {
  const r = bytesReader(bytes, name);
  const c = { ...r, read_: 0, read: async (o: number, n: number, s?: AbortSignal) => ((c.read_ += n), r.read(o, n, s)) };
  return c;
}

async function refused(bytes: Uint8Array): Promise<[string, number, number]> {
  const reader = counting(bytes);
  try {
    await openAnywhere(reader);
  } catch (e) {
    if (!(e instanceof ModelParseError)) throw e;
    return [e.code, e.offset, reader.read_];
  }
  throw new Error('opened');
}

describe('a pak of LibreQuake\'s models', () => {
  const members: PakMember[] = [
    { name: 'gfx/palette.lmp', data: read(join(SHARED_MODELS, LQ, 'gfx/palette.lmp')) },
    ...mdlRows().map((r) => ({ name: r.path.slice(LQ.length + 1), data: read(r.absPath) })),
  ];
  const pak = makePak(members);

  test('opened by its magic (bytes, no name): every member\'s bytes as stored, listed sorted, looked up in any case', async () => {
    const a = (await openAnywhere(pak)) as PakArchive;
    expect(a.directory.count).toBe(members.length);
    expect(a.warnings).toEqual([]);
    const listed = await a.list('progs', ['.mdl']);
    expect(listed.map((f) => f.path)).toEqual(members.slice(1).map((m) => m.name).sort());
    for (const m of members) {
      const f = (await a.file(m.name.toUpperCase()))!;
      expect([f.path, f.size, f.origin]).toEqual([m.name, m.data.length, `memory:${m.name}`]);
      expect(diff(await f.bytes(), m.data)).toBe('');
    }
    await a.close();
  });

  test('every MDL streams straight out of the pak (no extraction) into the same model', async () => {
    const a = await openArchive(pak, { name: 'pak0.pak' });
    for (const m of members.slice(1)) {
      const f = (await a.file(m.name))!;
      expect(f.origin).toBe(`pak0.pak:${m.name}`);
      expect(diff(await parseMdlStream(f.stream()), parseMdl(m.data))).toBe('');
    }
    // The palette is found in the pak and decodes the skins.
    const set = await resolveMdlMaterials(a, parseMdl(members[1].data), members[1].name);
    expect([set.palettePath, set.warnings]).toEqual(['gfx/palette.lmp', []]);
    await a.close();
  });
});

describe('Quake 2: MD2s with their PCX skins out of a pak', () => {
  test('the MD2 parser reads them and the MaterialResolver finds the PCX skin the model names', async () => {
    const names = ['models/indicator/arrow_blue.md2', 'models/indicator/arrow_blue.pcx', 'models/indicator/arrow_red.md2', 'models/indicator/arrow_red.pcx'];
    const a = await openArchive(makePak(names.map((n) => ({ name: n, data: read(join(SHARED_MODELS, AQ, n)) }))), { name: 'pak0.pak' });
    for (const model of ['arrow_blue', 'arrow_red']) {
      const md2 = await parseMd2Stream((await a.file(`models/indicator/${model}.md2`))!.stream());
      const { materials, warnings } = await new MaterialResolver(a).md2(md2, `models/indicator/${model}.md2`);
      expect(warnings).toEqual([]);
      expect(materials[0].diffuse?.path).toBe(`models/indicator/${model}.pcx`);
      expect(materials[0].diffuse?.origin).toBe(`pak0.pak:models/indicator/${model}.pcx`);
    }
  });
});

describe('names', () => {
  test('backslashes are separators; the first of two entries of one name wins; unsafe names are never served', async () => {
    const a = (await openAnywhere(makePak([
      { name: 'maps\\e1m1.bsp', data: text('map') },
      { name: 'progs/a.mdl', data: text('first') },
      { name: 'PROGS/A.MDL', data: text('second') },
      { name: '../../etc/passwd', data: text('x') },
      { name: '/abs/olute', data: text('y') },
    ]))) as PakArchive;
    expect(dec(await (await a.file('maps/E1M1.bsp'))!.bytes())).toBe('map');
    expect(dec(await (await a.file('progs/a.mdl'))!.bytes())).toBe('first');
    expect(await a.file('../../etc/passwd')).toBeNull();
    expect(a.warnings.map((w) => [w.code, w.offset])).toEqual([[ErrorCode.UnsafePath, 12 + 3 + 5 + 6 + 1 + 1 + 64 * 3], [ErrorCode.UnsafePath, 12 + 3 + 5 + 6 + 1 + 1 + 64 * 4]]);
    expect((await a.list('')).map((f) => f.path)).toEqual(['maps/e1m1.bsp', 'progs/a.mdl']);
    expect(() => safeRelativePath(a.directory.names[3])).toThrow(ModelParseError);
  });
});

describe('hostile paks fail with typed errors, having read no more than the header and directory', () => {
  const m = (name: string, n: number): PakMember => ({ name, data: new Uint8Array(n).fill(7) });
  test('not a pak, a short header, a directory past the end', async () => {
    expect(await refused(makePak([m('a', 4)], { magic: 'PACX' }))).toEqual([ErrorCode.BadMagic, 0, 4 + 12]);
    expect((await refused(Uint8Array.from([0x50, 0x41, 0x43, 0x4b, 1])))[0]).toBe(ErrorCode.Truncated);
    expect(await refused(makePak([m('a', 4)], { dirofs: 100 }))).toEqual([ErrorCode.BadOffset, 4, 4 + 12]);
    expect(await refused(makePak([m('a', 4)], { dirlen: 64 * 2 }))).toEqual([ErrorCode.BadOffset, 4, 4 + 12]);
    expect(await refused(makePak([m('a', 4)], { dirofs: -64 }))).toEqual([ErrorCode.BadOffset, 4, 4 + 12]);
  });

  test('lying sizes and overlapping members', async () => {
    const dir = 12 + 4 + 4;
    expect(await refused(makePak([m('a', 4), { ...m('b', 4), size: 1000 }]))).toEqual([ErrorCode.BadOffset, dir + 64 + 56, 4 + 12 + 128]);
    expect(await refused(makePak([m('a', 4), { ...m('b', 4), offset: -1 }]))).toEqual([ErrorCode.BadOffset, dir + 64 + 56, 4 + 12 + 128]);
    expect((await refused(makePak([m('a', 4), { ...m('b', 4), offset: 14 }])))[0]).toBe(ErrorCode.OverlappingEntries);
    expect((await refused(makePak([m('a', 4), { ...m('b', 4), offset: 8 }])))[0]).toBe(ErrorCode.OverlappingEntries); // into the header
    expect((await refused(makePak([m('a', 4), { ...m('b', 4), size: 8 }])))[0]).toBe(ErrorCode.OverlappingEntries); // into the directory
    // The same bytes under two names is an overlap too.
    expect((await refused(makePak([m('a', 4), { ...m('b', 4), offset: 12 }])))[0]).toBe(ErrorCode.OverlappingEntries);
  });

  test('100,000 entries: refused from dirlen before the 6.4 MB directory is read; declared but not there: BAD_OFFSET', async () => {
    const big = new Uint8Array(12 + 64 * 100000);
    big.set(text('PACK'));
    new DataView(big.buffer).setInt32(4, 12, true);
    new DataView(big.buffer).setInt32(8, 64 * 100000, true);
    expect(await refused(big)).toEqual([ErrorCode.InflateLimit, 8, 4 + 12]);
    expect(await refused(big.subarray(0, 1000))).toEqual([ErrorCode.BadOffset, 4, 4 + 12]);
  });

  test('Quake\'s and Quake 2\'s own entry limits are warnings naming them', async () => {
    const many = (n: number) => makePak(Array.from({ length: n }, (_, i) => m(`f${i}`, 1)));
    expect(((await openAnywhere(many(2049))) as PakArchive).warnings.map((w) => w.message)).toEqual([expect.stringMatching(/Quake refuses the pak/)]);
    expect(((await openAnywhere(many(4097))) as PakArchive).warnings.map((w) => w.message)).toEqual([expect.stringMatching(/Quake 2 .* refuse the pak/)]);
  });
});

describe('game folders with paks: COM_AddGameDirectory / FS_AddGameDirectory order', () => {
  let root: string;
  const put = (path: string, bytes: Uint8Array) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), bytes);
  };
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'idtech-paks-'));
    put('id1/pak0.pak', makePak([{ name: 'who.txt', data: text('pak0') }, { name: 'only0.txt', data: text('pak0') }, { name: 'loose.txt', data: text('pak0') }]));
    put('id1/pak1.pak', makePak([{ name: 'who.txt', data: text('pak1') }]));
    put('id1/pak3.pak', makePak([{ name: 'who.txt', data: text('pak3') }])); // after a gap: Quake never mounts it
    put('id1/loose.txt', text('loose'));
    put('id1/onlyloose.txt', text('loose'));
    put('mod/pak0.pak', makePak([{ name: 'who.txt', data: text('mod pak0') }]));
    put('mod/mod.txt', text('mod'));
  });

  it('Quake: pak1 over pak0 over the loose files; the first missing number ends the list; a mod over id1', async () => {
    const game = await mountGameDir([join(root, 'id1')]);
    const who = async (p: string) => dec(await (await game.file(p))!.bytes());
    expect(await who('who.txt')).toBe('pak1');
    expect(await who('loose.txt')).toBe('pak0'); // a pak is searched before the folder
    expect(await who('onlyloose.txt')).toBe('loose');
    expect(game.layers.map((l) => [l.kind, l.name])).toEqual([['archive', 'pak1.pak'], ['archive', 'pak0.pak'], ['loose', '']]);
    expect(game.warnings.map((w) => w.code)).toEqual(['PAK_NOT_MOUNTED']);
    expect(await game.file('pak0.pak')).toBeNull();
    await game.close();
    const modded = await mountGameDir([join(root, 'id1'), join(root, 'mod')]);
    expect(dec(await (await modded.file('who.txt'))!.bytes())).toBe('mod pak0');
    expect(dec(await (await modded.file('only0.txt'))!.bytes())).toBe('pak0');
    await modded.close();
  });

  it('Quake 2: pak0–pak9 with gaps', async () => {
    const game = await mountGameDir([join(root, 'id1')], { paks: 'quake2' });
    expect(dec(await (await game.file('who.txt'))!.bytes())).toBe('pak3');
    expect(game.warnings).toEqual([]);
    await game.close();
  });
});

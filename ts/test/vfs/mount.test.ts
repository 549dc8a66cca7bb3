/**
 * Game folders mounted in the engines' order (game-dir.ts cites ioquake3 FS_AddGameDirectory and Doom 3
 * idFileSystemLocal::AddGameDirectory): loose files over the folder's archives, a later archive name over an
 * earlier one (pak8 over pak1 over pak0, FS_PathCmp order), .pk3dir/.dpkdir folders sorted with the archives, a mod
 * folder over the base folder; unreadable archives skipped as the engine skips them. Built on disk in a temporary
 * folder, mounted by path (Node) and from File objects (the browser's dropped folder).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseMd3Stream } from '../../src/formats/md3/stream.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { droppedFileSystem } from '../../src/vfs/browser.js';
import { compareArchiveNames, mountGameDir as mountFs } from '../../src/vfs/game-dir.js';
import { folderFileSystem, mountGameDir, openPath } from '../../src/vfs/node.js';
import { fingerprint } from '../fuzz/invariant.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { makeZip } from '../helpers/zip-writer.js';

const text = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);
const OVERMIND = 'res-tremulous_src.dpkdir/models/tremulous/buildables/overmind/overmind.md3';

let root: string;
function put(path: string, bytes: Uint8Array) {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), bytes);
}
const zip = (files: Record<string, string | Uint8Array>) => makeZip(Object.entries(files).map(([name, d]) => ({ name, data: typeof d === 'string' ? text(d) : d })));

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'idtech-game-'));
  // baseq3: three paks, a pk3dir, loose files, a broken pk3.
  put('baseq3/pak0.pk3', zip({ 'who.txt': 'pak0', 'only0.txt': 'pak0', 'scripts/a.shader': 'pak0', 'models/overmind.md3': read(join(SHARED_MODELS, OVERMIND)) }));
  put('baseq3/PAK1.pk3', zip({ 'who.txt': 'pak1', 'only1.txt': 'pak1', 'scripts/a.shader': 'pak1' }));
  put('baseq3/pak8.pk3', zip({ 'who.txt': 'pak8', 'loose.txt': 'pak8' }));
  put('baseq3/pak1z.pk3dir/who.txt', text('pak1z.pk3dir'));
  put('baseq3/pak1z.pk3dir/onlydir.txt', text('pak1z.pk3dir'));
  put('baseq3/loose.txt', text('loose'));
  put('baseq3/scripts/b.shader', text('loose'));
  put('baseq3/broken.pk3', text('not a zip at all'));
  // mymod: one pk3 overriding who.txt and a loose file overriding a base pak file.
  put('mymod/zzz.pk3', zip({ 'who.txt': 'mod', 'scripts/c.shader': 'mod' }));
  put('mymod/only1.txt', text('mod loose'));
  // doom3-like: .pk4 only.
  put('base/pak000.pk4', zip({ 'who.txt': 'pak000' }));
  put('base/pak001.pk4', zip({ 'who.txt': 'pak001' }));
});

describe('one game folder, as ioquake3 searches it', () => {
  it('loose files first, then archives and .pk3dir folders by descending FS_PathCmp name; broken archives skipped with a warning', async () => {
    const game = await mountGameDir(join(root, 'baseq3'));
    try {
      expect(game.layers.map((l) => `${l.kind}:${l.name}`)).toEqual(['loose:', 'archive:pak8.pk3', 'archive-folder:pak1z.pk3dir', 'archive:PAK1.pk3', 'archive:pak0.pk3']);
      expect(game.warnings.map((w) => [w.code, w.message.split(':')[0]])).toEqual([['NOT_AN_ARCHIVE', join(root, 'baseq3', 'broken.pk3')]]);
      const who = async (p: string) => dec(await (await game.file(p))!.bytes());
      expect(await who('who.txt')).toBe('pak8'); // pak8 over pak1z.pk3dir over PAK1 over pak0
      expect(await who('WHO.TXT')).toBe('pak8');
      expect(await who('loose.txt')).toBe('loose'); // the loose file beats pak8's
      expect(await who('onlydir.txt')).toBe('pak1z.pk3dir');
      expect(await who('only1.txt')).toBe('pak1');
      expect(await who('only0.txt')).toBe('pak0');
      expect(await who('scripts/a.shader')).toBe('pak1');
      expect((await game.file('models/overmind.md3'))!.origin).toBe('pak0.pk3:models/overmind.md3');
      // Listing: one file per path, the winner's; the archives and .pk3dir folders themselves are not content.
      const shaders = await game.list('scripts', ['.shader']);
      expect(shaders.map((f) => [f.path, f.origin.includes('pak1.pk3') || f.origin.includes('PAK1.pk3') ? 'pak1' : 'loose'])).toEqual([
        ['scripts/a.shader', 'pak1'],
        ['scripts/b.shader', 'loose'],
      ]);
      const all = (await game.list('')).map((f) => f.path);
      expect(all).not.toContain('pak0.pk3');
      expect(all.some((p) => p.includes('pk3dir'))).toBe(false);
      expect(all).toEqual([...all].sort());
      // A model read from the mounted game parses as the loose file does.
      const model = await parseMd3Stream((await game.file('models/overmind.md3'))!.stream());
      expect(fingerprint(model)).toBe(fingerprint(parseMd3(read(join(SHARED_MODELS, OVERMIND)))));
    } finally {
      await game.close();
    }
  });

  it('strict mounting throws the broken archive’s typed error', async () => {
    await expect(mountGameDir(join(root, 'baseq3'), { strict: true })).rejects.toMatchObject({ code: 'NOT_AN_ARCHIVE' });
  });

  it('a folder of .pk4 files sorts with Doom 3’s idStr::Icmp, a later name winning', async () => {
    const game = await mountGameDir(join(root, 'base'));
    expect(game.layers.map((l) => l.name)).toEqual(['', 'pak001.pk4', 'pak000.pk4']);
    expect(dec(await (await game.file('who.txt'))!.bytes())).toBe('pak001');
    await game.close();
  });

  it('name order: FS_PathCmp folds to upper case, idStr::Icmp to lower case — they differ only on [ \\ ] ^ _ `', () => {
    const names = ['pak_x.pk3', 'paka.pk3', 'PAK0.pk3', 'pak10.pk3', 'pak9.pk3', 'zpak.pk3dir'];
    expect([...names].sort((a, b) => compareArchiveNames(a, b, 'ioquake3'))).toEqual(['PAK0.pk3', 'pak10.pk3', 'pak9.pk3', 'paka.pk3', 'pak_x.pk3', 'zpak.pk3dir']);
    expect([...names].sort((a, b) => compareArchiveNames(a, b, 'doom3'))).toEqual(['PAK0.pk3', 'pak10.pk3', 'pak9.pk3', 'pak_x.pk3', 'paka.pk3', 'zpak.pk3dir']);
  });
});

describe('several game folders: base, then mod', () => {
  it('the mod’s archives and loose files beat everything of the base folder; the base fills the rest', async () => {
    const game = await mountGameDir([join(root, 'baseq3'), join(root, 'mymod')]);
    try {
      expect(game.layers.filter((l) => l.folder === 1).map((l) => l.name)).toEqual(['', 'zzz.pk3']);
      expect(game.layers[0]).toEqual({ kind: 'loose', name: '', folder: 1 });
      const who = async (p: string) => dec(await (await game.file(p))!.bytes());
      expect(await who('who.txt')).toBe('mod');
      expect(await who('only1.txt')).toBe('mod loose');
      expect(await who('loose.txt')).toBe('loose');
      expect((await game.list('scripts', ['.shader'])).map((f) => f.path)).toEqual(['scripts/a.shader', 'scripts/b.shader', 'scripts/c.shader']);
    } finally {
      await game.close();
    }
  });
});

describe('the same folder dropped in a browser (File objects with webkitRelativePath)', () => {
  it('mounts to the same layers and answers as the folder on disk', async () => {
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]));
    const files = walk(join(root, 'baseq3')).map((abs) => {
      const f = new File([readFileSync(abs)], abs.split('/').pop()!);
      Object.defineProperty(f, 'webkitRelativePath', { value: relative(root, abs) }); // baseq3/…, as a picked folder gives
      return f;
    });
    const game = await mountFs(droppedFileSystem(files));
    expect(game.layers.map((l) => l.name)).toEqual(['', 'pak8.pk3', 'pak1z.pk3dir', 'PAK1.pk3', 'pak0.pk3']);
    expect(dec(await (await game.file('who.txt'))!.bytes())).toBe('pak8');
    expect(dec(await (await game.file('loose.txt'))!.bytes())).toBe('loose');
    expect(game.warnings.map((w) => w.code)).toEqual(['NOT_AN_ARCHIVE']);
  });
});

describe('folders and paths', () => {
  it('a folder is looked up ignoring case and lists by folder and extension', async () => {
    const fs = folderFileSystem(join(SHARED_MODELS, 'res-players_src.dpkdir'));
    const f = (await fs.file('MODELS/players/Human_BSuit/ANIMATION.cfg'))!;
    expect(f.path).toBe('models/players/human_bsuit/animation.cfg');
    expect(f.size).toBe(1481); // MANIFEST
    expect((await fs.list('models/players/human_bsuit', ['.skin'])).map((x) => x.path.split('/').pop())).toEqual(['head_default.skin', 'lower_default.skin', 'upper_default.skin']);
  });

  it('openPath opens a folder as a mounted game and a file as an archive', async () => {
    const dir = await openPath(join(root, 'mymod'));
    expect(dec(await (await dir.file('who.txt'))!.bytes())).toBe('mod');
    await dir.close();
    const pk3 = await openPath(join(root, 'mymod', 'zzz.pk3'));
    expect((await pk3.list('')).map((f) => f.path)).toEqual(['scripts/c.shader', 'who.txt']);
    await pk3.close();
  });
});

describe("the Node entry's functions take what the neutral ones take", () => {
  it('mountGameDir takes FileSystems beside paths; openArchive takes bytes beside paths', async () => {
    const game = await mountGameDir([folderFileSystem(join(root, 'baseq3')), join(root, 'mymod')]);
    expect(dec(await (await game.file('who.txt'))!.bytes())).toBe('mod');
    expect(dec(await (await game.file('only0.txt'))!.bytes())).toBe('pak0');
    await game.close();
    const { openArchive } = await import('../../src/vfs/node.js');
    const a = await openArchive(readFileSync(join(root, 'mymod', 'zzz.pk3')));
    expect((await a.list('')).length).toBe(2);
  });
});

describe('the archive file names', () => {
  it("the files a user may name as archives are the zips the mount orders by name, and Quake's .pak", async () => {
    const { ARCHIVE_EXTENSIONS, ARCHIVE_FILE_EXTENSIONS } = await import('../../src/vfs/game-dir.js');
    expect([...ARCHIVE_FILE_EXTENSIONS].sort()).toEqual([...ARCHIVE_EXTENSIONS, '.pak'].sort());
  });
});

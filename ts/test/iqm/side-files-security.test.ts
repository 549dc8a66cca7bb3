/**
 * Issue 36 (items 1, 2, 6, 7): an IQM's side files — Tesseract's iqm.cfg, DarkPlaces' .framegroups — and Quake's
 * gfx/palette.lmp, each hostile input made here by a generator. What a config names stays under the game's root
 * (UNSAFE_PATH otherwise, nothing read out of it: every lookup is recorded); side files are read with a bound
 * checked on their declared size before a byte is read; any nesting of Cubescript blocks and expressions runs
 * without recursion; a .framegroups or config naming more clips than `maxAnimationClips` is refused before the clips
 * are made; an animation-only IQM looks for its meshes only under the root; one model's bad config fails that model
 * in the catalog, not the catalog.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { DEFAULT_RESOURCE_LIMITS, resetResourceLimits, setResourceLimits } from '../../src/base/resource-limits.js';
import { iqmClips } from '../../src/formats/iqm/clips.js';
import { iqmCompanionsBeside, iqmMeshesPlaying } from '../../src/formats/iqm/companions.js';
import { cubeCommands, cubeScript } from '../../src/formats/iqm/cubescript.js';
import { parseFrameGroups } from '../../src/formats/iqm/framegroups.js';
import { configClips, readIqmConfig } from '../../src/formats/iqm/iqm-cfg.js';
import { QUAKE_PALETTE_BYTES } from '../../src/images/quake-palette.js';
import { catalogModels } from '../../src/load/catalog.js';
import { resolveMdlMaterials } from '../../src/formats/mdl/materials.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import type { FileSystem, VfsFile } from '../../src/vfs/file-system.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { isUnderRoot } from '../../src/vfs/safe-path.js';
import { sharedFileSystem } from '../helpers/shared-fs.js';
import { iqmFile } from './_corpus.js';

afterEach(() => resetResourceLimits());

const text = (s: string) => new TextEncoder().encode(s);
const TURRET = () => iqmFile('turret/sphere/turret_sphere.iqm'); // 1 mesh, 3 joints, 4 frames
const RUN = () => iqmFile('player/runcycle0.iqm'); // poses, no meshes

/** `fs` with every path asked of it (`file`, `list`) and every file whose bytes were read recorded. */
function recorded(fs: FileSystem) {
  const asked: string[] = [];
  const read: string[] = [];
  const watch = (f: VfsFile | null): VfsFile | null =>
    f && {
      ...f,
      stream: (o) => (read.push(f.path), f.stream(o)),
      bytes: (o) => (read.push(f.path), f.bytes(o)),
    };
  const view: FileSystem = {
    file: async (p) => (asked.push(p), watch(await fs.file(p))),
    list: async (folder, ext) => (asked.push(`list:${folder}`), (await fs.list(folder, ext)).map((f) => watch(f)!)),
  };
  return { fs: view, asked, read };
}

/** A file that declares `size` bytes (a sparse file's stat) and serves zeros forever, counting what it serves. */
function hugeFile(path: string, size: number, served = { bytes: 0 }): VfsFile {
  return {
    path,
    size,
    origin: `disk:${path}`,
    async *stream() {
      for (;;) {
        served.bytes += 65536;
        yield new Uint8Array(65536);
      }
    },
    bytes: async () => {
      throw new Error('read whole');
    },
  };
}
const withFiles = (fs: FileSystem, extra: VfsFile[]): FileSystem => ({
  file: async (p) => extra.find((f) => f.path.toLowerCase() === p.toLowerCase()) ?? fs.file(p),
  list: async (folder, ext) => [...(await fs.list(folder, ext)), ...extra.filter((f) => f.path.toLowerCase().startsWith(folder.toLowerCase()))].sort((a, b) => (a.path < b.path ? -1 : 1)),
});

describe('paths an iqm.cfg names stay under the game root', () => {
  it('exec "/etc/passwd", exec of ../, a drive, a NUL: UNSAFE_PATH warnings, nothing outside asked of the file system', async () => {
    const cfg = ['iqmload "turret.iqm"', 'exec "/etc/passwd"', 'exec "../../etc/passwd"', 'exec "C:\\\\boot.ini"', 'exec "a^0b"', 'exec "\\\\\\\\host\\\\share"'].join('\n').replace('^0', '\u0000');
    const { fs, asked, read } = recorded(memoryFileSystem([{ path: 'g/m/turret.iqm', bytes: TURRET().bytes }, { path: 'g/m/iqm.cfg', bytes: text(cfg) }, { path: 'etc/passwd', bytes: text('root:x:0:0') }]));
    const c = await readIqmConfig(fs, 'g/m/iqm.cfg', { root: 'g' });
    expect(c.warnings.map((w) => w.code)).toEqual(['UNSAFE_PATH', 'UNSAFE_PATH', 'UNSAFE_PATH', 'UNSAFE_PATH', 'UNSAFE_PATH']);
    expect(c.warnings[0].message).toBe('g/m/iqm.cfg:2: exec "/etc/passwd": an absolute path; not read');
    expect(c.cfgs).toEqual(['g/m/iqm.cfg']);
    expect(asked.filter((p) => !isUnderRoot('g', p))).toEqual([]);
    expect(read).toEqual(['g/m/iqm.cfg']);
  });

  it('iqmanim "../outside/x.iqm" past the root is UNSAFE_PATH and plays nothing; a ../ that stays inside (the janitor\'s LODs) plays', async () => {
    const mem = memoryFileSystem([
      { path: 'g/m/lod1/turret.iqm', bytes: TURRET().bytes },
      { path: 'g/m/lod1/iqm.cfg', bytes: text('iqmload "turret.iqm"\niqmanim "inside" "../idle.iqm"\niqmanim "stolen" "../../../outside/x.iqm"\n') },
      { path: 'g/m/idle.iqm', bytes: TURRET().bytes },
      { path: 'outside/x.iqm', bytes: TURRET().bytes },
    ]);
    const { fs, asked } = recorded(mem);
    const refs = await iqmCompanionsBeside(fs, 'g/m/lod1/turret.iqm', { root: 'g' });
    expect(refs.map((r) => (typeof r === 'string' ? r : [r.name, r.path]))).toEqual([['inside', 'g/m/idle.iqm']]);
    expect(asked.filter((p) => !isUnderRoot('g', p))).toEqual([]);
    const c = await readIqmConfig(mem, 'g/m/lod1/iqm.cfg', { root: 'g' });
    expect(c.warnings.map((w) => [w.code, w.line])).toEqual([['UNSAFE_PATH', 3]]);
    expect(c.warnings[0].message).toContain("leads out of the game's root (g)");
  });

  it("a loose model's config on a file system over the disk: absolute paths, the root its own folder when no game folder is given", async () => {
    const mem = memoryFileSystem([
      { path: 'tmp/x/m/turret.iqm', bytes: TURRET().bytes },
      { path: 'tmp/x/m/iqm.cfg', bytes: text('iqmload "turret.iqm"\niqmanim "stolen" "../outside/x.iqm"\n') },
      { path: 'tmp/x/outside/x.iqm', bytes: TURRET().bytes },
    ]);
    // a file system whose paths are the disk's: '/tmp/x/…'
    const disk: FileSystem = { file: (p) => mem.file(p.replace(/^\//, '')).then((f) => f && { ...f, path: `/${f.path}` }), list: async () => [] };
    const { fs, asked } = recorded(disk);
    expect(await iqmCompanionsBeside(fs, '/tmp/x/m/turret.iqm')).toEqual([]); // root: /tmp/x/m
    expect(asked.filter((p) => !isUnderRoot('/tmp/x/m', p))).toEqual([]);
    const wider = await iqmCompanionsBeside(disk, '/tmp/x/m/turret.iqm', { root: '/tmp/x' });
    expect(wider.map((r) => (typeof r === 'string' ? r : r.path))).toEqual(['/tmp/x/outside/x.iqm']);
  });
});

describe('an animation-only IQM names the meshes it plays on from under the game root only', () => {
  const mesh = () => [
    { path: 'g/anims/run.iqm', bytes: RUN().bytes },
    { path: 'g/anims/male/iqm.cfg', bytes: text('iqmload "mesh.iqm"\niqmanim "run" "../run.iqm"\n') },
    { path: 'g/anims/male/mesh.iqm', bytes: TURRET().bytes },
  ];

  it('its own folder and below, never its parent: a hostile config in the parent is not read', async () => {
    const nested = `${'if 1 [\n'.repeat(4000)}${']\n'.repeat(4000)}`;
    const { fs, asked, read } = recorded(memoryFileSystem([...mesh(), { path: 'g/iqm.cfg', bytes: text(nested) }]));
    expect(await iqmMeshesPlaying(fs, 'g/anims/run.iqm', { root: 'g' })).toEqual(['g/anims/male/mesh.iqm']);
    expect(asked).toContain('list:g/anims');
    expect(read).not.toContain('g/iqm.cfg');
  });

  it('in the root itself (a loose file in no game folder): only the iqm.cfg beside it, nothing listed', async () => {
    const { fs, asked } = recorded(memoryFileSystem([...mesh(), { path: 'g/anims/iqm.cfg', bytes: text('iqmload "male/mesh.iqm"\niqmanim "run" "run.iqm"\n') }]));
    expect(await iqmMeshesPlaying(fs, 'g/anims/run.iqm', { root: 'g/anims' })).toEqual(['g/anims/male/mesh.iqm']);
    expect(asked.filter((p) => p.startsWith('list:'))).toEqual([]);
  });

  it('a config over maxScriptBytes among them is passed over, not thrown', async () => {
    const fs = withFiles(memoryFileSystem(mesh()), [hugeFile('g/anims/other/iqm.cfg', 600 << 20)]);
    expect(await iqmMeshesPlaying(fs, 'g/anims/run.iqm', { root: 'g' })).toEqual(['g/anims/male/mesh.iqm']);
  });
});

describe('side files are read with a bound, checked before a byte is read', () => {
  it('an iqm.cfg declaring 600 MB: RESOURCE_LIMIT maxScriptBytes naming it, nothing served', async () => {
    const served = { bytes: 0 };
    const fs = withFiles(memoryFileSystem([{ path: 'm/turret.iqm', bytes: TURRET().bytes }]), [hugeFile('m/iqm.cfg', 600 << 20, served)]);
    const e = await iqmCompanionsBeside(fs, 'm/turret.iqm').catch((x) => x);
    expect(e).toBeInstanceOf(ModelParseError);
    expect([e.code, e.file, served.bytes]).toEqual(['RESOURCE_LIMIT', 'disk:m/iqm.cfg', 0]);
    expect(e.detail).toContain('over the limit maxScriptBytes = 8388608');
  });

  it('parseFrameGroups reads a Uint8Array of any size whole, never throwing (a 400 KB one threw, and 256 KB was the most read)', () => {
    const bytes = text('0 1 20 1 g\n'.repeat(40_000)); // 440 KB
    const { groups, complete } = parseFrameGroups(bytes);
    expect([groups.length, complete, groups[39_999].line]).toEqual([40_000, true, 40_000]);
  });

  it("parseFrameGroups never makes the bytes one string: a 1 MB name is cut at DarkPlaces' 16,383 characters", () => {
    const bytes = new Uint8Array(1 << 20).fill(0x61);
    bytes.set(text('0 1 20 1 '));
    const { groups } = parseFrameGroups(bytes);
    expect([groups.length, groups[0].name.length]).toEqual([1, 16383]);
  });

  it('gfx/palette.lmp: its first 768 bytes only, however large it says it is', async () => {
    const served = { bytes: 0 };
    const mdl = { skins: [], skinWidth: 0, skinHeight: 0, pictureCount: 0, skinPixels: new Uint8Array(0), flags: 0 };
    const fs = withFiles(memoryFileSystem([]), [hugeFile('gfx/palette.lmp', 1536 << 20, served)]);
    const r = await resolveMdlMaterials(fs, mdl as never, 'progs/x.mdl');
    expect([r.palettePath, served.bytes]).toEqual(['gfx/palette.lmp', 65536]);
    expect(QUAKE_PALETTE_BYTES).toBe(768);
  });
});

describe('clips a side file names are bounded by maxAnimationClips before they are made', () => {
  const groups = (n: number, line: (i: number) => string) => text(Array.from({ length: n }, (_, i) => line(i)).join('\n'));

  it('a .framegroups of 200,000 groups: RESOURCE_LIMIT, at most the bound + 1 groups parsed', () => {
    const bytes = groups(200_000, () => '0 1');
    expect(parseFrameGroups(bytes, { maxGroups: 4096 }).groups).toHaveLength(4097);
    const e = (() => {
      try {
        iqmClips({ data: TURRET().model, companions: [], sideFiles: [{ path: 'm/turret.iqm.framegroups', bytes }] });
      } catch (x) {
        return x as ModelParseError;
      }
    })()!;
    expect([e.code, e.file]).toEqual(['RESOURCE_LIMIT', 'm/turret.iqm.framegroups']);
    expect(e.detail).toBe('more than 4096 frame groups: over the limit maxAnimationClips = 4096 (raise it with --limit maxAnimationClips=N, or the maxAnimationClips option)');
  });

  it('4,000 groups of one name are told apart once each: same, same (2) … same (4000)', () => {
    const clips = iqmClips({ data: TURRET().model, companions: [], sideFiles: [{ path: 'm/turret.iqm.framegroups', bytes: groups(4000, () => '0 1 20 1 same') }] });
    expect([clips.length, clips[0].name, clips[1].name, clips[3999].name, new Set(clips.map((c) => c.name)).size]).toEqual([4000, 'same', 'same (2)', 'same (4000)', 4000]);
  });

  it('names made distinct in one pass, whatever names the file already holds: a, a (2), a, a → a, a (2), a (3), a (4)', () => {
    const clips = iqmClips({ data: TURRET().model, companions: [], sideFiles: [{ path: 'm/turret.iqm.framegroups', bytes: text('0 1 20 1 a\n0 1 20 1 "a (2)"\n0 1 20 1 a\n0 1 20 1 a\n') }] });
    expect(clips.map((c) => c.name)).toEqual(['a', 'a (2)', 'a (3)', 'a (4)']);
  });

  it('an iqm.cfg naming more clips than the bound: RESOURCE_LIMIT naming the config; under it, each name a variant counted once', async () => {
    setResourceLimits({ maxAnimationClips: 100 });
    const cfg = (n: number) => text(`iqmload "turret.iqm"\n${'iqmanim "idle" "turret.iqm"\n'.repeat(n)}`);
    const over = memoryFileSystem([{ path: 'm/turret.iqm', bytes: TURRET().bytes }, { path: 'm/iqm.cfg', bytes: cfg(101) }]);
    await expect(readIqmConfig(over, 'm/iqm.cfg')).rejects.toMatchObject({ code: 'RESOURCE_LIMIT', file: 'm/iqm.cfg' });
    const under = memoryFileSystem([{ path: 'm/turret.iqm', bytes: TURRET().bytes }, { path: 'm/iqm.cfg', bytes: cfg(100) }]);
    const clips = configClips(await readIqmConfig(under, 'm/iqm.cfg'));
    expect([clips.length, clips[99].variant]).toEqual([100, 99]);
  });
});

describe('Cubescript nesting runs without recursion, reading each character a bounded number of times', () => {
  const cfgOf = (body: string) => memoryFileSystem([{ path: 'm/turret.iqm', bytes: TURRET().bytes }, { path: 'm/iqm.cfg', bytes: text(`iqmload "turret.iqm"\n${body}`) }]);

  it('4,000 nested `if 1 [`: the innermost line is read, on its line', async () => {
    const c = await readIqmConfig(cfgOf(`${'if 1 [\n'.repeat(4000)}iqmanim "deep" "turret.iqm"\n${']\n'.repeat(4000)}`), 'm/iqm.cfg');
    expect(c.anims.map((a) => [a.names[0], a.found, a.line])).toEqual([['deep', true, 4002]]);
    expect(c.warnings).toEqual([]);
  });

  it('20,000 nested `(!` of 1 is true and 20,001 false, as Cubescript reads them; 4,000 `(|| 0` deep too', async () => {
    const nots = (n: number) => `if ${'(! '.repeat(n)}1${')'.repeat(n)} [ iqmanim "yes" "turret.iqm" ] [ iqmanim "no" "turret.iqm" ]\n`;
    expect((await readIqmConfig(cfgOf(nots(20_000)), 'm/iqm.cfg')).anims.map((a) => a.names[0])).toEqual(['yes']);
    expect((await readIqmConfig(cfgOf(nots(20_001)), 'm/iqm.cfg')).anims.map((a) => a.names[0])).toEqual(['no']);
    const ors = `if ${'(|| 0 '.repeat(4000)}1${')'.repeat(4000)} [ iqmanim "or" "turret.iqm" ]\n`;
    expect((await readIqmConfig(cfgOf(ors), 'm/iqm.cfg')).anims.map((a) => a.names[0])).toEqual(['or']);
  });

  it('a block is split from the script once: its nested blocks are skipped by their ends, not scanned again', () => {
    // 1,000 levels around 2.5 MB of padding: a block's commands are its own words, each nested block one word
    const depth = 1000;
    const src = `${'if 1 [\n'.repeat(depth)}${' '.repeat(2_500_000)}iqmanim "x" "y"\n${']\n'.repeat(depth)}`;
    const script = cubeScript(src);
    let block = script.commands()[0].words[2];
    for (let d = 1; d < depth; d++) {
      const cmds = script.commands(block);
      expect(cmds.length).toBe(1);
      block = cmds[0].words[2];
    }
    const inner = script.commands(block);
    expect(inner.map((c) => [c.words.map((w) => w.text), c.line])).toEqual([[['iqmanim', 'x', 'y'], depth + 1]]);
  });

  it('splits as before: strings with escapes, comments, blocks holding brackets in strings, expressions, stray closers', () => {
    const src = 'a "b^"c" [x "]" [y] // ]\n] (p [q) r\n; // c\n]) s [unclosed';
    expect(cubeCommands(src).map((c) => [c.line, c.column, c.words.map((w) => [w.kind, w.text])])).toEqual([
      [1, 1, [['word', 'a'], ['string', 'b"c'], ['block', 'x "]" [y] // ]\n'], ['expr', 'p [q'], ['word', 'r']]],
      [4, 4, [['word', 's'], ['block', 'unclosed']]],
    ]);
  });
});

describe("one model's bad config fails that model in the catalog, not the catalog", () => {
  it('a game folder of two IQMs, one with an iqm.cfg over maxScriptBytes: both listed, that one with RESOURCE_LIMIT', async () => {
    const fs = withFiles(
      memoryFileSystem([
        { path: 'models/good/turret.iqm', bytes: TURRET().bytes },
        { path: 'models/bad/turret.iqm', bytes: TURRET().bytes },
      ]),
      [hugeFile('models/bad/iqm.cfg', 600 << 20)],
    );
    const entries = await catalogModels(fs, DEFAULT_FORMATS);
    expect(entries.map((e) => [e.path, e.error?.code ?? null])).toEqual([
      ['models/bad/turret.iqm', 'RESOURCE_LIMIT'],
      ['models/good/turret.iqm', null],
    ]);
  });
});

describe('the defaults let every real config through', () => {
  it("the corpus's iqm.cfgs name at most 127 clips (maxAnimationClips 4096: 32× room) and are at most 7 KB (maxScriptBytes 8 MiB: 1,200× room)", async () => {
    const fs = sharedFileSystem('actors-iqm');
    let most = { clips: 0, cfg: '' };
    let largest = 0;
    for (const f of await fs.list('', ['iqm.cfg'])) {
      const c = await readIqmConfig(fs, f.path);
      const clips = configClips(c).length;
      if (clips > most.clips) most = { clips, cfg: f.path };
      for (const p of c.cfgs) largest = Math.max(largest, (await fs.file(p))!.size);
    }
    expect(most.clips).toBeGreaterThan(0);
    expect(most.clips * 32).toBeLessThanOrEqual(DEFAULT_RESOURCE_LIMITS.maxAnimationClips);
    expect(largest * 1200).toBeLessThanOrEqual(DEFAULT_RESOURCE_LIMITS.maxScriptBytes);
    console.log(`most clips: ${most.clips} (${most.cfg}); largest config ${largest} bytes`);
  });
});

/**
 * Real archives: every MANIFEST file of ../shared/models zipped by our test writer (deflate, stored, zip64) and by
 * Info-ZIP (`zip -9`, `zip -fz`), read back through each inflater — every member streamed equals its loose file,
 * and the model parsers read members straight from `file.stream()` into the same model as from the loose bytes.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelParseError } from '../../src/base/errors.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd2Stream } from '../../src/formats/md2/stream.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd3Stream } from '../../src/formats/md3/stream.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { parseMd5AnimStream, parseMd5MeshStream } from '../../src/formats/md5/stream.js';
import { fflateInflater, streamInflater, type Inflater } from '../../src/vfs/inflate.js';
import { zlibInflater } from '../../src/vfs/node-zlib.js';
import { openArchive } from '../../src/vfs/node.js';
import { openArchiveFrom, type ZipArchive } from '../../src/vfs/zip-archive.js';
import { fingerprint } from '../fuzz/invariant.js';
import { corpusArchives, type CorpusArchives } from '../helpers/corpus-archives.js';
import { read } from '../helpers/models.js';
import { crc32, makeZip } from '../helpers/zip-writer.js';

let corpus: CorpusArchives;
beforeAll(async () => {
  corpus = await corpusArchives();
});

const INFLATERS: Inflater[] = [fflateInflater, streamInflater, zlibInflater];

async function streamed(archive: ZipArchive, path: string): Promise<Uint8Array> {
  const f = await archive.file(path);
  if (!f) throw new Error(`${path} missing from ${archive.name}`);
  const parts: Uint8Array[] = [];
  for await (const c of f.stream()) parts.push(c);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

describe('every member of real archives streams back byte for byte', () => {
  const kinds = ['deflate', 'stored', 'zip64', 'infozip', 'infozip64'] as const;
  for (const kind of kinds) {
    for (const inflater of INFLATERS) {
      it(`${kind} archive, ${inflater.name}`, async () => {
        const archive = (await openArchive(corpus.archives[kind], { inflater })) as ZipArchive; // a .pk3: the zip reader
        try {
          expect(archive.directory.zip64).toBe(kind === 'zip64' || kind === 'infozip64');
          const files = await archive.list('');
          expect(files.map((f) => f.path).sort()).toEqual(corpus.rows.map((r) => r.path).sort());
          for (const r of corpus.rows) {
            const f = (await archive.file(r.path))!;
            expect(f.size, r.path).toBe(r.size); // MANIFEST size_bytes
            expect(same(await streamed(archive, r.path), read(r.absPath)), r.path).toBe(true);
          }
          // Each member inflated once: the budget counter saw exactly the corpus's bytes.
          expect(archive.inflatedBytes).toBe(corpus.rows.reduce((n, r) => n + r.size, 0));
        } finally {
          await archive.close();
        }
      });
    }
  }
});

describe('model parsers read members straight from file.stream()', () => {
  const parsers: Record<string, [(b: Uint8Array) => unknown, (s: AsyncIterable<Uint8Array>) => Promise<unknown>]> = {
    md2: [parseMd2, parseMd2Stream],
    md3: [parseMd3, parseMd3Stream],
    md5mesh: [parseMd5Mesh, parseMd5MeshStream],
    md5anim: [parseMd5Anim, parseMd5AnimStream],
  };
  it('gives the same model as the loose file, for every well-formed model of the corpus (deflated archive, node:zlib)', async () => {
    const archive = await openArchive(corpus.archives.deflate);
    let n = 0;
    try {
      for (const r of corpus.rows.filter((x) => parsers[x.format] && !/invalid|malformed|empty/.test(x.path))) {
        const [whole, stream] = parsers[r.format];
        const f = (await archive.file(r.path))!;
        expect(fingerprint(await stream(f.stream())), r.path).toBe(fingerprint(whole(read(r.absPath))));
        n++;
      }
    } finally {
      await archive.close();
    }
    expect(n).toBeGreaterThan(30);
  });

  it('a malformed model inside an archive fails with the same typed error as the loose file', async () => {
    const archive = await openArchive(corpus.archives.deflate);
    try {
      const path = 'assimp/test/models/MD5/invalid/InvalidBoneIndex.md5mesh';
      const loose = (() => {
        try {
          parseMd5Mesh(read(corpus.rows.find((r) => r.path === path)!.absPath));
        } catch (e) {
          return e as ModelParseError;
        }
      })()!;
      await expect(parseMd5MeshStream((await archive.file(path))!.stream())).rejects.toMatchObject({ code: loose.code, message: loose.message });
    } finally {
      await archive.close();
    }
  });
});

describe('names and lookups', () => {
  const data = (s: string) => new TextEncoder().encode(s);
  it('looks names up ignoring case and slash direction, keeps the stored spelling, lists by folder and extension', async () => {
    const zip = makeZip([
      { name: 'Models/Players/Sarge/Lower.MD3', data: data('lower') },
      { name: 'models\\players\\sarge\\upper.md3', data: data('upper') },
      { name: 'scripts/sarge.shader', data: data('shader') },
      { name: 'models/players/', data: new Uint8Array(0), method: 0 },
    ]);
    const a = await openArchiveFrom(zip, { name: 'pak0.pk3' });
    const lower = (await a.file('models/players/sarge/lower.md3'))!;
    expect(lower.path).toBe('Models/Players/Sarge/Lower.MD3');
    expect(lower.origin).toBe('pak0.pk3:Models/Players/Sarge/Lower.MD3');
    expect(new TextDecoder().decode(await lower.bytes())).toBe('lower');
    expect((await a.file('MODELS\\PLAYERS\\SARGE\\UPPER.md3'))!.path).toBe('models/players/sarge/upper.md3');
    expect((await a.list('models/players/SARGE', ['.md3'])).map((f) => f.path)).toEqual(['Models/Players/Sarge/Lower.MD3', 'models/players/sarge/upper.md3']);
    expect((await a.list('', ['.shader'])).map((f) => f.path)).toEqual(['scripts/sarge.shader']);
    expect(await a.file('models/players/')).toBeNull(); // a folder entry is not a file
    expect(a.directory.count).toBe(4);
  });

  it('where one archive holds a name twice (any case), the later directory entry wins, as in ioquake3', async () => {
    const a = await openArchiveFrom(makeZip([{ name: 'a.txt', data: data('first') }, { name: 'A.TXT', data: data('second') }]));
    expect(new TextDecoder().decode(await (await a.file('a.txt'))!.bytes())).toBe('second');
    expect((await a.list('')).length).toBe(1);
  });

  it('reads an archive with bytes before it (a self-extractor stub), as minizip does, and the DOS time as local time', async () => {
    const zip = makeZip([{ name: 'x.md3', data: data('hello') }], { prefix: new Uint8Array(1000).fill(7), comment: 'a comment' });
    const a = await openArchiveFrom(zip);
    expect(a.directory.prefixBytes).toBe(1000);
    const f = (await a.file('x.md3'))!;
    expect(new TextDecoder().decode(await f.bytes())).toBe('hello');
    expect(f.mtimeMs).toBe(new Date(2024, 0, 2, 3, 1, 6).getTime()); // dosDate 0x5822, dosTime 0x1823: 2024-01-02 03:01:06
  });

  it('checks every chunk against the CRC the directory declares (verified against zlib for the corpus)', async () => {
    const a = (await openArchive(corpus.archives.infozip)) as ZipArchive;
    try {
      for (let i = 0; i < a.directory.count; i++) {
        const r = corpus.rows.find((x) => x.path === a.directory.names[i])!;
        expect(a.directory.crcs[i], r.path).toBe(crc32(readFileSync(r.absPath)));
      }
    } finally {
      await a.close();
    }
  });
});

afterAll(() => {});

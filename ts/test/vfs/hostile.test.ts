/**
 * Hostile archives, each built field by field (helpers/zip-writer.ts): every one ends in a ModelParseError with its
 * documented code (docs/errors.md) — never a crash, a hang, a wrong answer or memory that grows with what a bomb
 * would inflate to.
 */
import { truncateSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { fflateInflater, streamInflater, type Inflater } from '../../src/vfs/inflate.js';
import { zlibInflater } from '../../src/vfs/node-zlib.js';
import { openArchive } from '../../src/vfs/node.js';
import { openArchiveFrom, type OpenArchiveOptions } from '../../src/vfs/zip-archive.js';
import { FLAG_ENCRYPTED } from '../../src/vfs/zip-directory.js';
import { truncatedDeflate, zerosDeflated } from '../helpers/bomb.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { crc32, makeZip, type ZipEntryInput } from '../helpers/zip-writer.js';
import { failure } from '../helpers/failure.js';

const INFLATERS: Inflater[] = [fflateInflater, streamInflater, zlibInflater];
const text = (s: string) => new TextEncoder().encode(s);
const MESH = read(join(SHARED_MODELS, 'actors/turret/turret.md5mesh'));


/** Opens `zip` and reads every member whole; resolves to the first typed error. */
async function readAll(zip: Uint8Array, options: OpenArchiveOptions = {}): Promise<ModelParseError> {
  return failure(
    (async () => {
      const a = await openArchiveFrom(zip, { name: 'hostile.pk3', ...options });
      for (const f of await a.list('')) await f.bytes();
    })(),
  );
}

describe('not an archive, truncated archives', () => {
  it('an empty file, a model file and random bytes are NOT_AN_ARCHIVE', async () => {
    for (const bytes of [new Uint8Array(0), MESH, Uint8Array.from({ length: 70_000 }, (_, i) => (i * 2654435761) >>> 24)]) {
      expect((await readAll(bytes)).code).toBe('NOT_AN_ARCHIVE');
    }
  });

  it('an archive cut anywhere fails with a typed error (never another exception): every 97th cut of a real one', async () => {
    const zip = makeZip([{ name: 'turret.md5mesh', data: MESH }, { name: 'b.txt', data: text('b'), method: 0 }], { comment: 'tail' });
    const codes = new Set<string>();
    for (let cut = 0; cut < zip.length; cut += 97) codes.add((await readAll(zip.subarray(0, cut))).code);
    expect([...codes].sort()).toEqual(['NOT_AN_ARCHIVE']); // the end record lives at the end: a cut loses it
    // Cut inside the comment only: the end record survives, the archive reads.
    const a = await openArchiveFrom(zip.subarray(0, zip.length - 2));
    expect((await (await a.file('turret.md5mesh'))!.bytes()).length).toBe(MESH.length);
  });

  it('a file that shrinks after it was opened is READ_FAILED, not a short member', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'idtech-shrink-'));
    const path = join(dir, 'x.pk3');
    writeFileSync(path, makeZip([{ name: 'turret.md5mesh', data: MESH, method: 0 }, { name: 'z.txt', data: text('z') }]));
    const a = await openArchive(path);
    truncateSync(path, 1000);
    expect((await failure((await a.file('turret.md5mesh'))!.bytes())).code).toBe('READ_FAILED');
    await a.close();
  });

  it('a directory whose entry count it cannot hold is BAD_COUNT, before anything is allocated for it', async () => {
    expect((await readAll(makeZip([{ name: 'a', data: text('a') }], { declaredCount: 65535 }))).code).toBe('BAD_COUNT');
    expect((await readAll(makeZip([{ name: 'a', data: text('a') }], { declaredCount: 2 ** 40, zip64: true }))).code).toBe('BAD_COUNT');
  });

  it('a local header that is not where the directory points is BAD_MAGIC; a split archive is NOT_AN_ARCHIVE', async () => {
    const zip = makeZip([{ name: 'a.txt', data: text('aaaa') }]);
    zip[0] = 0x51; // PK\3\4 → QK\3\4
    expect((await readAll(zip)).code).toBe('BAD_MAGIC');
    const split = makeZip([{ name: 'a.txt', data: text('aaaa') }]);
    split[split.length - 22 + 4] = 1; // end record: this is disk 1
    expect((await readAll(split)).code).toBe('NOT_AN_ARCHIVE');
  });
});

describe('members that lie', () => {
  it('a CRC that does not match is CRC_MISMATCH at the member end (stored and deflated, every inflater); checkCrc: false reads it', async () => {
    for (const method of [0, 8]) {
      for (const inflater of INFLATERS) {
        const zip = makeZip([{ name: 'turret.md5mesh', data: MESH, method, crc: crc32(MESH) ^ 1 }]);
        const e = await readAll(zip, { inflater });
        expect(e.code).toBe('CRC_MISMATCH');
        expect(e.message).toContain('hostile.pk3:turret.md5mesh');
        const a = await openArchiveFrom(zip, { inflater, limits: { checkCrc: false } });
        expect((await (await a.file('turret.md5mesh'))!.bytes()).length).toBe(MESH.length);
      }
    }
  });

  it('a member that inflates past its declared size stops at that size + 1 chunk with SIZE_MISMATCH; one that falls short too', async () => {
    for (const inflater of INFLATERS) {
      expect((await readAll(makeZip([{ name: 'm', data: MESH, size: 1000 }]), { inflater })).code).toBe('SIZE_MISMATCH');
      expect((await readAll(makeZip([{ name: 'm', data: MESH, size: MESH.length + 1 }]), { inflater })).code).toBe('SIZE_MISMATCH');
    }
    // Stored: compressed and uncompressed sizes must agree.
    expect((await readAll(makeZip([{ name: 'm', data: MESH, method: 0, size: 10 }]))).code).toBe('SIZE_MISMATCH');
  });

  it('bytes that are not deflate, or deflate cut short, are BAD_DEFLATE with every inflater', async () => {
    const garbage = Uint8Array.from({ length: 4000 }, (_, i) => (i * 2654435761) >>> 24 | 0x06); // BTYPE 11 soon
    garbage[0] = 0xff; // first block: BFINAL 1, BTYPE 11 (reserved): an error in every inflater
    for (const inflater of INFLATERS) {
      expect((await readAll(makeZip([{ name: 'g', data: MESH, raw: garbage }]), { inflater })).code, inflater.name).toBe('BAD_DEFLATE');
      const cut = truncatedDeflate(MESH, 3000);
      expect((await readAll(makeZip([{ name: 'c', data: MESH, raw: cut }]), { inflater })).code, inflater.name).toBe('BAD_DEFLATE');
    }
  });

  it('methods other than stored and deflate, and encrypted members, are UNSUPPORTED_METHOD; the other members still read', async () => {
    const zip = makeZip([
      { name: 'bzip2.bin', data: MESH, method: 12, raw: MESH },
      { name: 'secret.bin', data: MESH, flags: FLAG_ENCRYPTED },
      { name: 'fine.txt', data: text('fine') },
    ]);
    const a = await openArchiveFrom(zip);
    expect((await failure((await a.file('bzip2.bin'))!.bytes())).code).toBe('UNSUPPORTED_METHOD');
    expect((await failure((await a.file('secret.bin'))!.bytes())).code).toBe('UNSUPPORTED_METHOD');
    expect(new TextDecoder().decode(await (await a.file('fine.txt'))!.bytes())).toBe('fine');
  });
});

describe('empty members', () => {
  it('a member declaring 0 bytes is empty without being inflated, as in minizip, whatever its method and bytes', async () => {
    const zip = makeZip([
      { name: 'none.md3', data: new Uint8Array(0), raw: new Uint8Array(0) }, // deflate with no bytes at all
      { name: 'block.md3', data: new Uint8Array(0) }, // an empty deflate block
      { name: 'stored.md3', data: new Uint8Array(0), method: 0 },
    ]);
    for (const inflater of INFLATERS) {
      const a = await openArchiveFrom(zip, { inflater });
      for (const f of await a.list('')) expect((await f.bytes()).length, `${inflater.name} ${f.path}`).toBe(0);
    }
  });
});

describe('zip bombs', () => {
  it('entries sharing bytes (the overlapping bomb) and entries reaching into the directory are OVERLAPPING_ENTRIES at open', async () => {
    const kernel: ZipEntryInput = { name: 'k0', data: MESH };
    const overlap = makeZip([kernel, ...Array.from({ length: 50 }, (_, i) => ({ ...kernel, name: `k${i + 1}`, localOffsetOf: 0 }))]);
    expect((await readAll(overlap)).code).toBe('OVERLAPPING_ENTRIES');
    expect((await readAll(makeZip([{ name: 'm', data: MESH, compressedSize: 10_000_000 }]))).code).toBe('OVERLAPPING_ENTRIES');
  });

  it('a declared size deflate cannot reach from its compressed size (over 1032:1) is INFLATE_LIMIT before a byte is inflated', async () => {
    const zip = makeZip([{ name: 'liar', data: text('tiny'), size: 2 ** 31 }]);
    // by default the archive does not even open: its members declare more than 64 times its size (+ 1 MiB)
    const refused = await failure(openArchiveFrom(zip));
    expect([refused.code, refused.detail]).toEqual(['INFLATE_LIMIT', expect.stringMatching(/declare 2147483648 bytes in all, .* over the limit maxTotalRatio = 64 /)]);
    const a = await openArchiveFrom(zip, { limits: { maxTotalRatio: Infinity, maxMemberBytes: Infinity } });
    expect((await failure((await a.file('liar'))!.bytes())).detail).toMatch(/declares 2147483648 bytes from \d+ compressed: a ratio over 1032/);
    expect(a.inflatedBytes).toBe(0);
  });

  it('by default an archive makes at most 64 times its size + 1 MiB (maxTotalRatio) and no member over 256 MiB (maxMemberBytes), each refused at open or before the member is read, naming it and the limit', async () => {
    // A member declaring 65 bytes per archive byte: over the default at open; under a raised limit it reads.
    const body = new Uint8Array(4 << 20); // 4 MiB of zeros deflate to ~4 KiB: ~1000:1
    const zip = makeZip([{ name: 'scripts/spaces.shader', data: body }]);
    const e = await failure(openArchiveFrom(zip, { name: 'bomb.pk3' }));
    expect([e.code, e.detail]).toEqual(['INFLATE_LIMIT', expect.stringMatching(/^bomb\.pk3: the members declare 4194304 bytes in all, \d+\.\d times the archive's \d+ bytes: over the limit maxTotalRatio = 64 \(\d+ bytes with the 1 MiB allowance/)]);
    const raised = await openArchiveFrom(zip, { limits: { maxTotalRatio: 2000 } });
    expect((await (await raised.file('scripts/spaces.shader'))!.bytes()).length).toBe(body.length);
    // per member: a declared size over maxMemberBytes is refused before it is read, naming the member
    const big = makeZip([{ name: 'models/big.md3', data: text('x'), size: (256 << 20) + 1 }]);
    const a = await openArchiveFrom(big, { name: 'big.pk3', limits: { maxTotalRatio: Infinity, maxRatio: Infinity } });
    const m = await failure((await a.file('models/big.md3'))!.bytes());
    expect([m.code, m.detail]).toEqual(['INFLATE_LIMIT', 'big.pk3:models/big.md3 declares 268435457 bytes: over the limit maxMemberBytes = 268435456 (raise it with --limit maxMemberBytes=N, or the maxMemberBytes option)']);
    expect(a.inflatedBytes).toBe(0);
  });

  it('caps: maxRatio, maxMemberBytes, maxEntries, maxTotalBytes (declared at open, and as a budget over reads)', async () => {
    const zip = makeZip([{ name: 'turret.md5mesh', data: MESH }, { name: 'b', data: text('b') }]);
    expect((await readAll(zip, { limits: { maxRatio: 2 } })).code).toBe('INFLATE_LIMIT'); // the mesh deflates ~4:1
    expect((await readAll(zip, { limits: { maxMemberBytes: 10_000 } })).code).toBe('INFLATE_LIMIT');
    expect((await readAll(zip, { limits: { maxEntries: 1 } })).code).toBe('INFLATE_LIMIT');
    expect((await readAll(zip, { limits: { maxTotalBytes: MESH.length } })).code).toBe('INFLATE_LIMIT');
    // Declared total fits exactly; reading 'b' twice spends one byte more than that before the mesh is read.
    const a = await openArchiveFrom(zip, { limits: { maxTotalBytes: MESH.length + 1 } });
    await (await a.file('b'))!.bytes();
    await (await a.file('b'))!.bytes();
    expect((await failure((await a.file('turret.md5mesh'))!.bytes())).code).toBe('INFLATE_LIMIT');
    // Counted as inflated: the bytes up to the chunk that crossed the cap (that chunk never reaches the reader).
    expect(a.inflatedBytes).toBeLessThanOrEqual(MESH.length + 1 + 65536);
  });

  for (const inflater of INFLATERS) {
    it(`a 256 MiB member of zeros streams through ${inflater.name} in bounded memory; declared as 1 MiB it stops there`, async () => {
      const size = 256 << 20;
      const { raw, crc } = await zerosDeflated(size);
      expect(raw.length).toBeLessThan(size / 900); // a real bomb: over 900:1
      // the defaults refuse this archive at open (1028 inflated bytes per archive byte, over maxTotalRatio's 64):
      // lifted here, to measure the streaming itself
      const bomb = makeZip([{ name: 'zeros', data: new Uint8Array(0), raw, crc, size }]);
      expect((await failure(openArchiveFrom(bomb, { inflater }))).code).toBe('INFLATE_LIMIT');
      const lifted = { maxTotalRatio: Infinity, maxMemberBytes: Infinity };
      const honest = await openArchiveFrom(bomb, { inflater, limits: lifted });
      const base = process.memoryUsage().arrayBuffers;
      let peak = 0;
      let total = 0;
      let largest = 0;
      for await (const chunk of (await honest.file('zeros'))!.stream()) {
        total += chunk.length;
        largest = Math.max(largest, chunk.length);
        peak = Math.max(peak, process.memoryUsage().arrayBuffers - base);
      }
      expect(total).toBe(size);
      console.log(`${inflater.name}: 256 MiB of zeros streamed, arrayBuffers peak +${(peak / 2 ** 20).toFixed(1)} MiB, largest chunk ${(largest / 1024).toFixed(0)} KiB`);
      // Holding the member would take 256 MiB: streaming keeps one chunk and what the GC has not reclaimed yet.
      expect(peak).toBeLessThan(96 << 20);
      // fflate: one push of 4 KiB (+ the few bytes it kept from the last) × 1032; the native inflaters give 64 KiB.
      expect(largest).toBeLessThanOrEqual(1032 * (4096 + 64));
      const liar = await openArchiveFrom(makeZip([{ name: 'zeros', data: new Uint8Array(0), raw, crc, size: 1 << 20 }]), { inflater, limits: lifted });
      let seen = 0;
      const e = await failure(
        (async () => {
          for await (const chunk of (await liar.file('zeros'))!.stream()) seen += chunk.length;
        })(),
      );
      expect(e.code).toBe('SIZE_MISMATCH');
      expect(seen).toBeLessThanOrEqual(1 << 20);
      expect(liar.inflatedBytes).toBeLessThanOrEqual((1 << 20) + 1032 * (4096 + 64));
    });
  }
});

describe('paths that leave the archive', () => {
  it('../, absolute, drive-letter and NUL names are listed as UNSAFE_PATH warnings and never served', async () => {
    const bad = ['../../evil.md3', '/etc/passwd', 'C:\\windows\\evil.md3', 'models/../../x.md3', 'nul\0byte.md3'];
    const zip = makeZip([...bad.map((name) => ({ name, data: text('evil') })), { name: 'models/good.md3', data: text('good') }]);
    const a = await openArchiveFrom(zip);
    expect(a.warnings.map((w) => w.code)).toEqual(bad.map(() => 'UNSAFE_PATH'));
    expect((await a.list('')).map((f) => f.path)).toEqual(['models/good.md3']);
    for (const name of bad) expect(await a.file(name)).toBeNull();
    expect(await a.file('evil.md3')).toBeNull();
  });
});

describe('huge entry counts', () => {
  it('100,000 entries open, look up and list in flat arrays (and maxEntries refuses them)', async () => {
    const entries = Array.from({ length: 100_000 }, (_, i) => ({ name: `f/${i}.txt`, data: text(String(i)), method: 0 }));
    const zip = makeZip(entries, { zip64: true }); // over 65,535 entries: the count lives in the zip64 record
    const a = await openArchiveFrom(zip);
    expect(a.directory.count).toBe(100_000);
    expect(new TextDecoder().decode(await (await a.file('F/99999.TXT'))!.bytes())).toBe('99999');
    expect((await a.list('f', ['.txt'])).length).toBe(100_000);
    expect((await readAll(zip, { limits: { maxEntries: 99_999 } })).code).toBe('INFLATE_LIMIT');
  });
});

/**
 * Zip archives under fuzz: seeds are small archives built from the corpus (deflated, stored, zip64, with bytes
 * before them and comments); an input is read as `openZip` + reading every member would, synchronously: the
 * directory by the library's own read plan (`runPlanSync(readZipDirectory)`), each member refused or located by
 * the library's `memberRefusal` / `localDataOffset`, and its bytes checked by the library's `MemberCheck` (sizes,
 * the inflation budget, CRC). Only the inflater differs from the streaming path: node:zlib's `inflateRawSync`,
 * capped at the declared size + 1 (so a bomb costs no more than its declaration), because the fuzz invariant is
 * synchronous. Its buffers are Node Buffers, which the allocation meter does not see; the inflation's memory is
 * measured by the bomb tests of ts/test/vfs/hostile.test.ts instead, and this bound covers the directory.
 */
import { inflateRawSync } from 'node:zlib';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { resolveLimits } from '../../src/vfs/archive-limits.js';
import { runPlanSync } from '../../src/vfs/read-plan.js';
import { isUnsafeArchivePath, KIND_FILE, LOCAL_SIZE, readZipDirectory } from '../../src/vfs/zip-directory.js';
import { localDataOffset, MemberCheck, memberRefusal, METHOD_STORED } from '../../src/vfs/zip-member.js';
import { makeZip } from '../helpers/zip-writer.js';
import type { MemoryBound } from './bounds.js';
import { i32, type Field, type Structure } from './structure.js';

export interface ZipReadResult {
  names: string[];
  sizes: number[];
  served: number;
  inflated: number;
  warnings: { code: string; message: string; offset: number }[];
}

/**
 * Directory entries are 49 bytes of flat arrays for at least 46 bytes of directory (about 1.07 per byte), plus
 * names; 4 per byte with headroom, and a constant for the read plan's small buffers.
 */
export const ZIP_MEMORY_BOUND: MemoryBound = { perByte: 4, constant: 512 * 1024 };

/**
 * The archive as `openZip` + reading every member would see it; the first member error is thrown. `limits`: by
 * default a scanner's policy, at most 64 inflated bytes per archive byte counted over every read (the `inflation`
 * target, security-targets.ts, reads under the library's own defaults instead).
 */
export function readZipSync(bytes: Uint8Array, limits = resolveLimits({ maxTotalBytes: 64 * bytes.length + (1 << 20) })): ZipReadResult {
  const dir = runPlanSync(readZipDirectory(bytes.length, limits), bytes);
  const budget = { inflated: 0 };
  let served = 0;
  for (let i = 0; i < dir.count; i++) {
    if (dir.kinds[i] !== KIND_FILE) continue;
    served++;
    const origin = `fuzz.pk3:${dir.names[i]}`;
    const refusal = memberRefusal(dir, i, limits, origin);
    if (refusal) throw refusal;
    const at = dir.localOffsets[i];
    if (at + LOCAL_SIZE > bytes.length) throw new ModelParseError(ErrorCode.Truncated, `${origin}: local header past the end`, { offset: bytes.length });
    const data = localDataOffset(dir, i, bytes.subarray(at, at + LOCAL_SIZE), bytes.length, origin);
    const packed = bytes.subarray(data, data + dir.compressedSizes[i]);
    const check = new MemberCheck(dir, i, data, limits, budget, origin);
    if (dir.uncompressedSizes[i] === 0) {
      // As memberChunks: an empty member is not read.
    } else if (dir.methods[i] === METHOD_STORED) check.push(packed);
    else {
      let out: Uint8Array;
      try {
        out = inflateRawSync(packed, { maxOutputLength: Math.min(dir.uncompressedSizes[i] + 1, 2 ** 31 - 1) });
      } catch (e) {
        const tooBig = (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
        throw new ModelParseError(tooBig ? ErrorCode.SizeMismatch : ErrorCode.BadDeflate, `${origin}: ${(e as Error).message}`, { offset: data });
      }
      check.push(out);
    }
    check.end();
  }
  return {
    names: dir.names.filter((_, i) => dir.kinds[i] === KIND_FILE),
    sizes: Array.from(dir.uncompressedSizes).filter((_, i) => dir.kinds[i] === KIND_FILE),
    served,
    inflated: budget.inflated,
    warnings: dir.warnings,
  };
}

/** What is wrong with an accepted archive: an unsafe name served, an inflated total off its declarations. */
export function checkZip(model: unknown, bytes: Uint8Array): string {
  const r = model as ZipReadResult;
  for (const n of r.names) if (isUnsafeArchivePath(n)) return `unsafe name served: ${JSON.stringify(n)}`;
  const declared = r.sizes.reduce((a, b) => a + b, 0);
  if (declared !== r.inflated) return `inflated ${r.inflated} bytes, the served members declare ${declared}`;
  if (r.inflated > 64 * bytes.length + (1 << 20)) return `inflated ${r.inflated} bytes, over the budget`;
  for (const w of r.warnings) if (w.code !== ErrorCode.UnsafePath || w.offset < 0 || w.offset > bytes.length) return `bad warning ${JSON.stringify(w)}`;
  return '';
}

/** Where the signatures are: local headers, directory entries, the end records; their size and offset fields. */
export function zipStructure(b: Uint8Array): Structure {
  const boundaries: number[] = [0, b.length];
  const counts: Field[] = [];
  const offsets: Field[] = [];
  const f = (at: number): Field => ({ at, len: 4 });
  for (let i = 0; i + 4 <= b.length; i++) {
    if (b[i] !== 0x50 || b[i + 1] !== 0x4b) continue;
    const sig = i32(b, i) >>> 0;
    if (sig === 0x04034b50 && i + 30 <= b.length) {
      boundaries.push(i, i + 30);
      counts.push(f(i + 18), f(i + 22), f(i + 26));
    } else if (sig === 0x02014b50 && i + 46 <= b.length) {
      boundaries.push(i, i + 46);
      counts.push(f(i + 20), f(i + 24), f(i + 28));
      offsets.push(f(i + 42));
    } else if (sig === 0x06054b50 && i + 22 <= b.length) {
      boundaries.push(i, i + 22);
      counts.push(f(i + 8), f(i + 12));
      offsets.push(f(i + 16));
    } else if (sig === 0x06064b50 && i + 56 <= b.length) {
      boundaries.push(i);
      counts.push(f(i + 32), f(i + 40));
      offsets.push(f(i + 48));
    } else if (sig === 0x07064b50 && i + 20 <= b.length) {
      boundaries.push(i);
      offsets.push(f(i + 8));
    }
  }
  const sorted = [...new Set(boundaries.filter((x) => x >= 0 && x <= b.length))].sort((x, y) => x - y);
  return { boundaries: Int32Array.from(sorted), counts, offsets, numbers: new Int32Array(0), lines: new Int32Array(0) };
}

/** Small archives of corpus files: 1–3 files under 16 KiB each, in every flavour the reader handles. */
export function zipSeeds(files: readonly { name: string; bytes: Uint8Array }[]): { name: string; bytes: Uint8Array }[] {
  const small = files.filter((f) => f.bytes.length > 0 && f.bytes.length <= 16 * 1024);
  const seeds: { name: string; bytes: Uint8Array }[] = [];
  for (let k = 0; k < small.length; k += 2) {
    const group = small.slice(k, k + 1 + (k % 3));
    const entries = group.map((g) => ({ name: g.name, data: g.bytes }));
    const flavour = (k / 2) % 5;
    const zip =
      flavour === 0 ? makeZip(entries)
      : flavour === 1 ? makeZip(entries.map((e) => ({ ...e, method: 0 })))
      : flavour === 2 ? makeZip(entries, { zip64: true })
      : flavour === 3 ? makeZip(entries, { prefix: new Uint8Array(64).fill(0x4d), comment: 'seed' })
      : makeZip([...entries, { name: 'models/', data: new Uint8Array(0), method: 0 }, { name: 'x/../escape.txt', data: new TextEncoder().encode('escape') }]);
    seeds.push({ name: `${group.map((g) => g.name.split('/').pop()).join('+')}#${flavour}.pk3`, bytes: zip });
  }
  return seeds;
}


/**
 * Quake .pak archives under fuzz: seeds are small paks built from corpus files (1–3 files under 16 KiB each, some with
 * a backslash name, a duplicate or an unsafe name); an input is read as `openPak` + reading every served member
 * would, synchronously: the library's readPakHeader and readPakDirectory over the bytes, then each member's slice.
 * Memory: the directory's flat arrays (17 bytes per 64-byte entry) and names: the zip bound covers it.
 */
import { readPakDirectory, readPakHeader, PAK_ENTRY_BYTES, PAK_HEADER_BYTES } from '../../src/vfs/pak-directory.js';
import { isUnsafeArchivePath } from '../../src/vfs/zip-directory.js';
import { makePak } from '../helpers/pak-writer.js';
import type { MemoryBound } from './bounds.js';
import { i32, type Field, type Structure } from './structure.js';

export interface PakReadResult {
  names: string[];
  served: number;
  bytes: number;
  warnings: { code: string; message: string; offset: number }[];
}

export const PAK_MEMORY_BOUND: MemoryBound = { perByte: 4, constant: 512 * 1024 };

export function readPakSync(bytes: Uint8Array): PakReadResult {
  const header = readPakHeader(bytes.subarray(0, PAK_HEADER_BYTES), bytes.length);
  const dir = readPakDirectory(bytes.subarray(header.directoryOffset, header.directoryOffset + header.count * PAK_ENTRY_BYTES), header, bytes.length);
  let served = 0, total = 0;
  const names: string[] = [];
  for (let i = 0; i < dir.count; i++) {
    if (dir.unsafe[i]) continue;
    served++;
    names.push(dir.names[i]);
    total += bytes.subarray(dir.offsets[i], dir.offsets[i] + dir.sizes[i]).length;
  }
  return { names, served, bytes: total, warnings: dir.warnings };
}

/** No unsafe name served; the members' bytes all inside the input, and not more than it (no overlap). */
export function checkPak(model: unknown, bytes: Uint8Array): string {
  const r = model as PakReadResult;
  for (const n of r.names) if (isUnsafeArchivePath(n)) return `unsafe name served: ${JSON.stringify(n)}`;
  if (r.bytes > bytes.length) return `${r.bytes} member bytes in a ${bytes.length}-byte pak: members overlap`;
  for (const w of r.warnings) if (typeof w.code !== 'string' || w.offset < 0 || w.offset > bytes.length) return `bad warning ${JSON.stringify(w)}`;
  return '';
}

/** The header's dirofs and dirlen, each entry's filepos and filelen; boundaries at the members and entries. */
export function pakStructure(b: Uint8Array): Structure {
  const f = (at: number): Field => ({ at, len: 4 });
  const dirofs = i32(b, 4), dirlen = i32(b, 8);
  const boundaries = [0, 4, 12, b.length];
  const counts: Field[] = [f(8)];
  const offsets: Field[] = [f(4)];
  if (dirofs >= 12 && dirlen > 0) {
    for (let e = dirofs; e + PAK_ENTRY_BYTES <= Math.min(b.length, dirofs + dirlen) && e < dirofs + 4096 * PAK_ENTRY_BYTES; e += PAK_ENTRY_BYTES) {
      boundaries.push(e, e + 56, i32(b, e + 56));
      offsets.push(f(e + 56));
      counts.push(f(e + 60));
    }
  }
  const size = b.length;
  return {
    boundaries: Int32Array.from([...new Set(boundaries.filter((x) => x >= 0 && x <= size))].sort((x, y) => x - y)),
    counts: counts.filter((c) => c.at + 4 <= size),
    offsets: offsets.filter((c) => c.at + 4 <= size),
    numbers: new Int32Array(0),
    lines: new Int32Array(0),
  };
}

/** Small paks of corpus files. */
export function pakSeeds(files: readonly { name: string; bytes: Uint8Array }[]): { name: string; bytes: Uint8Array }[] {
  const small = files.filter((f) => f.bytes.length > 0 && f.bytes.length <= 16 * 1024);
  const seeds: { name: string; bytes: Uint8Array }[] = [];
  for (let k = 0; k < small.length; k += 2) {
    const group = small.slice(k, k + 1 + (k % 3)).map((g) => ({ name: g.name.slice(-56), data: g.bytes }));
    const flavour = (k / 2) % 3;
    const members =
      flavour === 0 ? group
      : flavour === 1 ? [...group.map((g) => ({ ...g, name: g.name.replace(/\//g, '\\') })), { name: group[0].name.toUpperCase(), data: group[0].data }]
      : [...group, { name: '../escape.txt', data: new TextEncoder().encode('escape') }];
    seeds.push({ name: `${group.map((g) => g.name.split('/').pop()).join('+')}#${flavour}.pak`, bytes: makePak(members) });
  }
  return seeds;
}

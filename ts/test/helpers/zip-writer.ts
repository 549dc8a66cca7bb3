/**
 * A small zip writer for tests: real archives from ../shared/models (stored and deflated, zip64 when asked) and
 * hostile ones (sizes and CRCs that lie, overlapping entries, unsafe names, bytes before the archive, truncation),
 * each built from explicit fields so a test states exactly what is wrong. Deflate is node:zlib's.
 */
import { promisify } from 'node:util';
import { deflateRaw, deflateRawSync } from 'node:zlib';
import { crc32Update } from '../../src/base/crc32.js';
import { turnIfHeld } from './loop-turn.js';

export interface ZipEntryInput {
  name: string;
  data: Uint8Array;
  /** 0 stored, 8 deflate (default). */
  method?: number;
  /** Use these compressed bytes instead of compressing `data` (a forged member). */
  raw?: Uint8Array;
  /** Fields written to the directory instead of the true ones. */
  crc?: number;
  size?: number;
  compressedSize?: number;
  /** Point the directory at another entry's local header (overlap). */
  localOffsetOf?: number;
  flags?: number;
  /** DOS time fields (default 2024-01-02 03:04:06). */
  dosDate?: number;
  dosTime?: number;
}

export interface ZipOptions {
  /** Write zip64 records and extra fields even when not needed. */
  zip64?: boolean;
  /** Bytes placed before the archive (offsets stay relative to the archive, as a self-extractor's do). */
  prefix?: Uint8Array;
  comment?: string;
  /** Entry count written to the end record instead of the true one. */
  declaredCount?: number;
}

const enc = new TextEncoder();

class Out {
  parts: Uint8Array[] = [];
  length = 0;
  push(b: Uint8Array) {
    this.parts.push(b);
    this.length += b.length;
  }
  bytes(): Uint8Array {
    const o = new Uint8Array(this.length);
    let at = 0;
    for (const p of this.parts) o.set(p, at), (at += p.length);
    return o;
  }
}

function le(fields: [number, 2 | 4 | 8][]): Uint8Array {
  const size = fields.reduce((n, [, w]) => n + w, 0);
  const b = new Uint8Array(size);
  const v = new DataView(b.buffer);
  let at = 0;
  for (const [x, w] of fields) {
    if (w === 2) v.setUint16(at, x, true);
    else if (w === 4) v.setUint32(at, x >>> 0, true);
    else v.setBigUint64(at, BigInt(x), true);
    at += w;
  }
  return b;
}

export function crc32(b: Uint8Array): number {
  return crc32Update(0, b);
}

/**
 * The entries with their CRCs and (method 8) their deflated bytes worked out ahead, the deflating on zlib's thread
 * pool: `makeZip` of the result writes what `makeZip` of the input writes, without holding the test worker's event
 * loop for a corpus' worth of deflating (helpers/loop-turn.ts). One entry at a time, so as not to load every core.
 */
export async function packedEntries(entries: readonly ZipEntryInput[]): Promise<ZipEntryInput[]> {
  const packed: ZipEntryInput[] = [];
  for (const e of entries) {
    const method = e.method ?? 8;
    const raw = e.raw ?? (method === 8 ? new Uint8Array(await deflateRawAsync(e.data, { level: 9 })) : undefined);
    packed.push({ ...e, crc: e.crc ?? crc32(e.data), ...(raw ? { raw } : {}) });
    await turnIfHeld();
  }
  return packed;
}
const deflateRawAsync = promisify(deflateRaw);

export function makeZip(entries: readonly ZipEntryInput[], options: ZipOptions = {}): Uint8Array {
  const out = new Out();
  const z64 = !!options.zip64;
  const locals: number[] = [];
  const packed: { packedBytes: Uint8Array; e: ZipEntryInput; method: number; nameBytes: Uint8Array }[] = [];
  for (const e of entries) {
    const method = e.method ?? 8;
    const packedBytes = e.raw ?? (method === 8 ? new Uint8Array(deflateRawSync(e.data, { level: 9 })) : e.data);
    const nameBytes = enc.encode(e.name);
    const crc = e.crc ?? crc32(e.data);
    const size = e.size ?? e.data.length;
    const csize = e.compressedSize ?? packedBytes.length;
    locals.push(out.length);
    const extra = z64 ? le([[0x0001, 2], [16, 2], [size, 8], [csize, 8]]) : new Uint8Array(0);
    out.push(le([[0x04034b50, 4], [z64 ? 45 : 20, 2], [e.flags ?? 0, 2], [method, 2], [e.dosTime ?? 0x1823, 2], [e.dosDate ?? 0x5822, 2],
      [crc, 4], [z64 ? 0xffffffff : csize, 4], [z64 ? 0xffffffff : size, 4], [nameBytes.length, 2], [extra.length, 2]]));
    out.push(nameBytes);
    out.push(extra);
    out.push(packedBytes);
    packed.push({ packedBytes, e, method, nameBytes });
  }
  const cdStart = out.length;
  packed.forEach(({ packedBytes, e, method, nameBytes }, i) => {
    const crc = e.crc ?? crc32(e.data);
    const size = e.size ?? e.data.length;
    const csize = e.compressedSize ?? packedBytes.length;
    const local = e.localOffsetOf !== undefined ? locals[e.localOffsetOf] : locals[i];
    const extra = z64 ? le([[0x0001, 2], [24, 2], [size, 8], [csize, 8], [local, 8]]) : new Uint8Array(0);
    out.push(le([[0x02014b50, 4], [z64 ? 45 : 20, 2], [z64 ? 45 : 20, 2], [e.flags ?? 0, 2], [method, 2], [e.dosTime ?? 0x1823, 2], [e.dosDate ?? 0x5822, 2],
      [crc, 4], [z64 ? 0xffffffff : csize, 4], [z64 ? 0xffffffff : size, 4], [nameBytes.length, 2], [extra.length, 2], [0, 2], [0, 2], [0, 2], [0, 4],
      [z64 ? 0xffffffff : local, 4]]));
    out.push(nameBytes);
    out.push(extra);
  });
  const cdSize = out.length - cdStart;
  const count = options.declaredCount ?? entries.length;
  if (z64) {
    const end64 = out.length;
    out.push(le([[0x06064b50, 4], [44, 8], [45, 2], [45, 2], [0, 4], [0, 4], [count, 8], [count, 8], [cdSize, 8], [cdStart, 8]]));
    out.push(le([[0x07064b50, 4], [0, 4], [end64, 8], [1, 4]]));
  }
  const comment = enc.encode(options.comment ?? '');
  out.push(le([[0x06054b50, 4], [0, 2], [0, 2], [z64 ? 0xffff : count, 2], [z64 ? 0xffff : count, 2], [z64 ? 0xffffffff : cdSize, 4],
    [z64 ? 0xffffffff : cdStart, 4], [comment.length, 2]]));
  out.push(comment);
  const zip = out.bytes();
  if (!options.prefix) return zip;
  const all = new Uint8Array(options.prefix.length + zip.length);
  all.set(options.prefix);
  all.set(zip, options.prefix.length);
  return all;
}

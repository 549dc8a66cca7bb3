/**
 * One member of a zip archive, streamed: its local header is read and checked against the directory (as minizip's
 * unz64local_CheckCurrentFileCoherencyHeader does), then its compressed bytes are read chunk by chunk and inflated
 * as the consumer pulls, and every produced byte is checked by `MemberCheck`: never more than the declared size
 * (a member cannot grow past what its entry declared, so a lying entry stops at its declared size + 1 byte), the
 * archive's inflation budget, and at the end the exact size and the CRC-32.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import type { ResolvedLimits } from './archive-limits.js';
import { crc32Update } from '../base/crc32.js';
import type { Inflater } from './inflate.js';
import { READ_CHUNK, type RandomAccessReader } from './reader.js';
import { FLAG_DATA_DESCRIPTOR, FLAG_ENCRYPTED, LOCAL_SIZE, type ZipDirectory } from './zip-directory.js';

export const METHOD_STORED = 0;
/** Bytes of local extra field expected when reading a member's header with its first chunk (zip64: 20, Info-ZIP's UT + ux: 28). */
const LOCAL_EXTRA_GUESS = 64;
export const METHOD_DEFLATE = 8;

/** Inflated bytes counted over every read of one archive (the `maxTotalBytes` budget). */
export interface InflateBudget {
  inflated: number;
}

const err = (code: ErrorCode, detail: string, offset: number) => new ModelParseError(code, detail, { offset });

/** Why member `i` cannot be read at all (method, encryption, caps), checked before any of its bytes: null when it can. */
export function memberRefusal(dir: ZipDirectory, i: number, limits: ResolvedLimits, origin: string): ModelParseError | null {
  const at = dir.localOffsets[i];
  const method = dir.methods[i];
  const size = dir.uncompressedSizes[i];
  const packed = dir.compressedSizes[i];
  if (dir.flags[i] & FLAG_ENCRYPTED) return err(ErrorCode.UnsupportedMethod, `${origin} is encrypted`, at);
  if (method !== METHOD_STORED && method !== METHOD_DEFLATE) {
    return err(ErrorCode.UnsupportedMethod, `${origin} uses compression method ${method} (only stored, 0, and deflate, 8, are read — as minizip in the engines)`, at);
  }
  if (method === METHOD_STORED && packed !== size) return err(ErrorCode.SizeMismatch, `${origin} is stored but declares ${packed} bytes stored and ${size} bytes of content`, at);
  if (size > limits.maxMemberBytes) return err(ErrorCode.InflateLimit, `${origin} declares ${size} bytes: over the limit maxMemberBytes = ${limits.maxMemberBytes} (raise it with --limit maxMemberBytes=N, or the maxMemberBytes option)`, at);
  if (method === METHOD_DEFLATE && size > limits.maxRatio * packed) {
    return err(ErrorCode.InflateLimit, `${origin} declares ${size} bytes from ${packed} compressed: a ratio over ${limits.maxRatio}`, at);
  }
  return null;
}

/**
 * Where member `i`'s data starts, from its 30-byte local header (the name and extra lengths there may differ from
 * the central ones: the extra field often does). The local name length must match the central one, and the
 * method too; a local header without the data-descriptor flag must declare the same CRC and sizes (zip64 sizes
 * live in the extra field: a local 0xffffffff is accepted).
 */
export function localDataOffset(dir: ZipDirectory, i: number, header: Uint8Array, fileSize: number, origin: string): number {
  const at = dir.localOffsets[i];
  const u16 = (k: number) => header[k] | (header[k + 1] << 8);
  const u32 = (k: number) => (header[k] | (header[k + 1] << 8) | (header[k + 2] << 16) | (header[k + 3] << 24)) >>> 0;
  if (u32(0) !== 0x04034b50) throw err(ErrorCode.BadMagic, `${origin}: no local header (PK\\3\\4) where the directory points`, at);
  if (u16(26) !== dir.nameLengths[i]) throw err(ErrorCode.BadOffset, `${origin}: the local header's name is ${u16(26)} bytes, the directory's ${dir.nameLengths[i]}`, at + 26);
  if (u16(8) !== dir.methods[i]) throw err(ErrorCode.BadOffset, `${origin}: the local header says method ${u16(8)}, the directory ${dir.methods[i]}`, at + 8);
  if (!(u16(6) & FLAG_DATA_DESCRIPTOR)) {
    const same = (k: number, v: number) => u32(k) === v || u32(k) === 0xffffffff;
    if (u32(14) !== dir.crcs[i] || !same(18, dir.compressedSizes[i]) || !same(22, dir.uncompressedSizes[i])) {
      throw err(ErrorCode.BadOffset, `${origin}: the local header's CRC or sizes differ from the directory's`, at + 14);
    }
  }
  const data = at + LOCAL_SIZE + u16(26) + u16(28);
  if (data + dir.compressedSizes[i] > fileSize) {
    throw err(ErrorCode.Truncated, `${origin}: its ${dir.compressedSizes[i]} bytes at ${data} run past the archive's end (${fileSize})`, Math.min(data, fileSize));
  }
  if (data + dir.compressedSizes[i] > dir.directoryOffset) {
    throw err(ErrorCode.OverlappingEntries, `${origin}: its bytes at ${data}..${data + dir.compressedSizes[i]} run into the directory at ${dir.directoryOffset}`, at);
  }
  return data;
}

/** Checks a member's bytes as they are produced: size never past the declared one, the budget, then size and CRC. */
export class MemberCheck {
  private produced = 0;
  private crc = 0;
  constructor(
    private readonly dir: ZipDirectory,
    private readonly index: number,
    private readonly dataOffset: number,
    private readonly limits: ResolvedLimits,
    private readonly budget: InflateBudget,
    private readonly origin: string,
  ) {}

  push(chunk: Uint8Array): void {
    const declared = this.dir.uncompressedSizes[this.index];
    this.produced += chunk.length;
    if (this.produced > declared) {
      throw err(ErrorCode.SizeMismatch, `${this.origin} inflates past its declared ${declared} bytes`, this.dataOffset);
    }
    this.budget.inflated += chunk.length;
    if (this.budget.inflated > this.limits.maxTotalBytes) {
      throw err(ErrorCode.InflateLimit, `reading ${this.origin} takes the archive's inflated bytes past the cap of ${this.limits.maxTotalBytes}`, this.dataOffset);
    }
    if (this.limits.checkCrc) this.crc = crc32Update(this.crc, chunk);
  }

  end(): void {
    const declared = this.dir.uncompressedSizes[this.index];
    if (this.produced !== declared) {
      throw err(ErrorCode.SizeMismatch, `${this.origin} inflates to ${this.produced} bytes, its entry declares ${declared}`, this.dataOffset);
    }
    const want = this.dir.crcs[this.index];
    if (this.limits.checkCrc && this.crc !== want) {
      throw err(ErrorCode.CrcMismatch, `${this.origin} has CRC-32 ${hex(this.crc)}, its entry declares ${hex(want)}`, this.dataOffset);
    }
  }
}

const hex = (n: number) => n.toString(16).padStart(8, '0');

export interface MemberReadOptions {
  inflater: Inflater;
  limits: ResolvedLimits;
  budget: InflateBudget;
  origin: string;
  signal?: AbortSignal;
}

/** Member `i`'s bytes, inflated and checked, pulled from `reader` only as the consumer asks for them. */
export async function* memberChunks(reader: RandomAccessReader, dir: ZipDirectory, i: number, o: MemberReadOptions): AsyncGenerator<Uint8Array, void, undefined> {
  const refusal = memberRefusal(dir, i, o.limits, o.origin);
  if (refusal) throw refusal;
  // One read for the local header and the member's first chunk: a read costs a round trip in a browser (Blob) or
  // a request (HTTP), and most members are smaller than one chunk.
  const at = dir.localOffsets[i];
  const packed = dir.compressedSizes[i];
  const chunk = reader.chunkSize ?? READ_CHUNK;
  const first = Math.max(LOCAL_SIZE, Math.min(reader.size - at, LOCAL_SIZE + dir.nameLengths[i] + LOCAL_EXTRA_GUESS + Math.min(packed, chunk)));
  const head = await reader.read(at, first, o.signal);
  const data = localDataOffset(dir, i, head.subarray(0, LOCAL_SIZE), reader.size, o.origin);
  const inHead = head.subarray(Math.min(head.length, data - at), Math.min(head.length, data - at + packed));
  const check = new MemberCheck(dir, i, data, o.limits, o.budget, o.origin);
  if (dir.uncompressedSizes[i] === 0) {
    // minizip returns an empty member without reading or inflating it (its remaining size is 0): so does this,
    // whatever its compressed bytes are (Info-ZIP stores them as nothing; others as an empty deflate block).
    check.end();
    return;
  }
  const raw = (async function* () {
    if (inHead.length > 0) yield inHead;
    if (packed > inHead.length) yield* reader.chunks(data + inHead.length, packed - inHead.length, chunk, o.signal);
  })();
  if (dir.methods[i] === METHOD_STORED) {
    for await (const chunk of raw) {
      check.push(chunk);
      yield chunk;
    }
  } else {
    try {
      for await (const chunk of o.inflater.inflate(raw, o.signal)) {
        check.push(chunk);
        yield chunk;
      }
    } catch (e) {
      if (e instanceof ModelParseError) throw e;
      throw err(ErrorCode.BadDeflate, `${o.origin}: ${(e as Error)?.message ?? String(e)} (${o.inflater.name})`, data);
    }
  }
  check.end();
}

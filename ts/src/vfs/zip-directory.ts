/**
 * A zip archive's central directory (PKWARE APPNOTE 6.3 §4.3.12–4.3.16, zip64 §4.3.14–4.3.15), read as the
 * engines' minizip reads it (`unzOpen` in unzip.c, which ioquake3's `FS_LoadZipFile` and Doom 3's `LoadZipFile`
 * call): the end record is the last `PK\5\6` in the file's last 65,557 bytes; bytes before the archive (a
 * self-extractor stub, a concatenation) are allowed and every offset is shifted by them; a split archive is
 * refused. Beyond minizip, every entry is checked against the file before it is stored: an entry count the
 * directory cannot hold (BAD_COUNT), offsets outside the file (BAD_OFFSET), members overlapping each other or the
 * directory (OVERLAPPING_ENTRIES) — so an archive's memory is its directory's size, and no two entries share bytes.
 *
 * Written as a read plan (read-plan.ts): it asks for the ranges it needs and never holds more than the end
 * records and the directory itself.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import { declaredTotalCap, type ResolvedLimits } from './archive-limits.js';
import type { ReadPlan } from './read-plan.js';

const SIG_END = 0x06054b50;
const SIG_END64 = 0x06064b50;
const SIG_LOCATOR64 = 0x07064b50;
const SIG_CENTRAL = 0x02014b50;
/** End record without its comment; a central entry and a local header without their variable parts. */
export const END_SIZE = 22;
const LOCATOR_SIZE = 20;
const END64_SIZE = 56;
export const CENTRAL_SIZE = 46;
export const LOCAL_SIZE = 30;
/** How far from the end the end record may start: its own size plus the longest comment (minizip: 0xffff). */
export const END_SEARCH = END_SIZE + 0xffff;

/** General-purpose flag bits (APPNOTE §4.4.4). */
export const FLAG_ENCRYPTED = 1 << 0;
export const FLAG_DATA_DESCRIPTOR = 1 << 3;
export const FLAG_UTF8 = 1 << 11;

/** The entries of one archive, as flat arrays indexed by entry (directory order). */
export interface ZipDirectory {
  count: number;
  /** Names as stored, '\' turned into '/'. */
  names: string[];
  /** Byte length of each raw name (its local header must repeat it). */
  nameLengths: Uint16Array;
  /** File offset of each local header (the bytes before the archive included). */
  localOffsets: Float64Array;
  compressedSizes: Float64Array;
  uncompressedSizes: Float64Array;
  crcs: Uint32Array;
  methods: Uint16Array;
  flags: Uint16Array;
  /** The extended-timestamp field's time (ms since the epoch) where present, else NaN: see `entryMtime`. */
  mtimes: Float64Array;
  /** DOS date << 16 | DOS time, as stored. */
  dosStamps: Uint32Array;
  /** 1 where the entry is a folder (name ends with '/'), 2 where its path is unsafe (never served), else 0. */
  kinds: Uint8Array;
  /** File offset of the central directory (members must end before it). */
  directoryOffset: number;
  directorySize: number;
  /** Bytes found before the archive proper (offsets are shifted by them). */
  prefixBytes: number;
  zip64: boolean;
  /** Sum of the declared uncompressed sizes. */
  totalUncompressed: number;
  /** Oddities that do not stop the archive from opening: unsafe paths (never served), trailing directory bytes. */
  warnings: ParseWarning[];
}

export const KIND_FILE = 0;
export const KIND_FOLDER = 1;
export const KIND_UNSAFE = 2;

const err = (code: ErrorCode, detail: string, offset: number) => new ModelParseError(code, detail, { offset });

function u16(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}
function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}
/** A little-endian u64 as a number; past 2^53 it cannot be an offset or size in any file, so it is refused. */
function u64(b: Uint8Array, at: number, what: string, fileOffset: number): number {
  const lo = u32(b, at);
  const hi = u32(b, at + 4);
  if (hi >= 0x200000) throw err(ErrorCode.BadOffset, `${what} ${hi} × 2^32 + ${lo} is beyond any file`, fileOffset);
  return hi * 0x100000000 + lo;
}

/** IBM code page 437's upper half, the zip spec's name encoding when the UTF-8 flag is clear (APPNOTE appendix D). */
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';
const utf8 = /* @__PURE__ */ new TextDecoder('utf-8');

function decodeName(raw: Uint8Array, isUtf8: boolean): string {
  let ascii = true;
  for (let i = 0; i < raw.length; i++) if (raw[i] >= 0x80) ascii = false;
  // ASCII by hand: a TextDecoder call per short name costs more than the loop (measured on 100,000 names).
  if (ascii && raw.length <= 1024) {
    let s = '';
    for (let i = 0; i < raw.length; i++) s += String.fromCharCode(raw[i]);
    return s;
  }
  if (ascii || isUtf8) return utf8.decode(raw);
  let s = '';
  for (let i = 0; i < raw.length; i++) s += raw[i] < 0x80 ? String.fromCharCode(raw[i]) : CP437_HIGH[raw[i] - 0x80];
  return s;
}

/**
 * Whether a stored path would leave the archive's root if written out: absolute ('/x'), a drive ('C:'), a '..'
 * segment, a NUL. ioquake3 never follows such names either: qpaths with '..' are refused by `FS_FOpenFileRead`,
 * so a member named that way is unreachable in the engine; here it is listed in `warnings` and never served.
 */
export function isUnsafeArchivePath(name: string): boolean {
  return name.startsWith('/') || (name.length > 1 && name[1] === ':' && /^[A-Za-z]/.test(name)) || name.includes('\0') || (name.includes('..') && name.split('/').includes('..'));
}

/**
 * Entry i's modification time, ms since the epoch: the extended-timestamp field (UTC) when present, else its DOS
 * date and time (APPNOTE §4.4.6), which carry no zone, as local time. Computed on demand: a Date per entry would
 * be most of the cost of reading a large directory.
 */
export function entryMtime(dir: ZipDirectory, i: number): number {
  if (!Number.isNaN(dir.mtimes[i])) return dir.mtimes[i];
  return dosTime(dir.dosStamps[i] >>> 16, dir.dosStamps[i] & 0xffff);
}

function dosTime(date: number, time: number): number {
  const year = 1980 + (date >> 9);
  const month = ((date >> 5) & 15) - 1;
  const day = date & 31;
  return new Date(year, month, day, time >> 11, (time >> 5) & 63, (time & 31) * 2).getTime();
}

interface End {
  at: number;
  entries: number;
  directorySize: number;
  directoryOffset: number;
  zip64: boolean;
  /** Where the directory must end: the zip64 end record, or the end record. */
  directoryLimit: number;
}

/** Finds and reads the end records: the plan's first steps. */
function* readEnd(size: number): Generator<{ offset: number; length: number }, End, Uint8Array> {
  if (size < END_SIZE) throw err(ErrorCode.NotAnArchive, `${size} bytes cannot hold a zip end record (22)`, 0);
  const tailStart = Math.max(0, size - END_SEARCH - LOCATOR_SIZE);
  const tail: Uint8Array = yield { offset: tailStart, length: size - tailStart };
  let at = -1;
  // The last signature wins, as in minizip's unz64local_SearchCentralDir (it scans backwards from the end).
  for (let i = tail.length - END_SIZE; i >= Math.max(0, tail.length - END_SEARCH); i--) {
    if (tail[i] === 0x50 && tail[i + 1] === 0x4b && tail[i + 2] === 5 && tail[i + 3] === 6) {
      at = i;
      break;
    }
  }
  if (at < 0) throw err(ErrorCode.NotAnArchive, 'no zip end-of-central-directory record in the last 65,557 bytes', size);
  const endAt = tailStart + at;
  const disk = u16(tail, at + 4);
  const directoryDisk = u16(tail, at + 6);
  const onDisk = u16(tail, at + 8);
  let entries = u16(tail, at + 10);
  let directorySize = u32(tail, at + 12);
  let directoryOffset = u32(tail, at + 16);
  if (disk !== 0 || directoryDisk !== 0) throw err(ErrorCode.NotAnArchive, `a split archive (disk ${disk}, directory on disk ${directoryDisk})`, endAt + 4);
  if (onDisk !== entries) throw err(ErrorCode.BadCount, `${entries} entries in total but ${onDisk} on this disk`, endAt + 8);

  // A zip64 locator right before the end record points at the zip64 end record (minizip64 looks there first).
  const loc = at - LOCATOR_SIZE;
  if (loc >= 0 && u32(tail, loc) === SIG_LOCATOR64) {
    const locAt = tailStart + loc;
    const end64At = u64(tail, loc + 8, 'zip64 end record offset', locAt + 8);
    if (u32(tail, loc + 4) !== 0 || u32(tail, loc + 16) > 1) throw err(ErrorCode.NotAnArchive, 'a split zip64 archive', locAt + 4);
    if (end64At + END64_SIZE > locAt) throw err(ErrorCode.BadOffset, `zip64 end record at ${end64At} overlaps its locator at ${locAt}`, locAt + 8);
    const rec: Uint8Array = yield { offset: end64At, length: END64_SIZE };
    if (u32(rec, 0) !== SIG_END64) throw err(ErrorCode.BadOffset, `no zip64 end record at ${end64At} (where the locator points)`, locAt + 8);
    if (u32(rec, 16) !== 0 || u32(rec, 20) !== 0) throw err(ErrorCode.NotAnArchive, 'a split zip64 archive', end64At + 16);
    const onDisk64 = u64(rec, 24, 'zip64 entry count', end64At + 24);
    entries = u64(rec, 32, 'zip64 entry count', end64At + 32);
    if (onDisk64 !== entries) throw err(ErrorCode.BadCount, `${entries} entries in total but ${onDisk64} on this disk`, end64At + 24);
    directorySize = u64(rec, 40, 'zip64 directory size', end64At + 40);
    directoryOffset = u64(rec, 48, 'zip64 directory offset', end64At + 48);
    return { at: end64At, entries, directorySize, directoryOffset, zip64: true, directoryLimit: end64At };
  }
  return { at: endAt, entries, directorySize, directoryOffset, zip64: false, directoryLimit: endAt };
}

/** Reads the archive's directory: the plan to run over a reader (`runPlan`) or bytes (`runPlanSync`). */
export function* readZipDirectory(size: number, limits: ResolvedLimits): ReadPlan<ZipDirectory> {
  const end = yield* readEnd(size);
  // minizip: the directory must end before the end record; what lies between is bytes before the archive.
  const prefixBytes = end.directoryLimit - (end.directoryOffset + end.directorySize);
  if (prefixBytes < 0) {
    throw err(ErrorCode.BadOffset, `the directory (${end.directorySize} bytes at ${end.directoryOffset}) runs past its end record at ${end.directoryLimit}`, end.at);
  }
  const count = end.entries;
  if (count * CENTRAL_SIZE > end.directorySize) {
    throw err(ErrorCode.BadCount, `${count} entries cannot fit in a ${end.directorySize}-byte directory (46 bytes each at least)`, end.at);
  }
  if (count > limits.maxEntries) throw err(ErrorCode.InflateLimit, `${count} entries, over the cap of ${limits.maxEntries}`, end.at);
  const directoryOffset = end.directoryOffset + prefixBytes;
  const cd: Uint8Array = yield { offset: directoryOffset, length: end.directorySize };

  const dir: ZipDirectory = {
    count,
    names: new Array<string>(count),
    nameLengths: new Uint16Array(count),
    localOffsets: new Float64Array(count),
    compressedSizes: new Float64Array(count),
    uncompressedSizes: new Float64Array(count),
    crcs: new Uint32Array(count),
    methods: new Uint16Array(count),
    flags: new Uint16Array(count),
    mtimes: new Float64Array(count),
    dosStamps: new Uint32Array(count),
    kinds: new Uint8Array(count),
    directoryOffset,
    directorySize: end.directorySize,
    prefixBytes,
    zip64: end.zip64,
    totalUncompressed: 0,
    warnings: [],
  };
  let p = 0;
  for (let i = 0; i < count; i++) {
    const at = directoryOffset + p; // file offset, for messages
    if (p + CENTRAL_SIZE > cd.length) throw err(ErrorCode.Truncated, `directory entry ${i} runs past the directory's end`, at);
    if (u32(cd, p) !== SIG_CENTRAL) throw err(ErrorCode.BadMagic, `directory entry ${i} does not start with PK\\1\\2`, at);
    const flags = u16(cd, p + 8);
    const method = u16(cd, p + 10);
    const nameLen = u16(cd, p + 28);
    const extraLen = u16(cd, p + 30);
    const commentLen = u16(cd, p + 32);
    const recordEnd = p + CENTRAL_SIZE + nameLen + extraLen + commentLen;
    if (recordEnd > cd.length) throw err(ErrorCode.Truncated, `directory entry ${i} (${recordEnd - p} bytes) runs past the directory's end`, at);
    let compressed = u32(cd, p + 20);
    let uncompressed = u32(cd, p + 24);
    let local = u32(cd, p + 42);
    let diskStart = u16(cd, p + 34);
    let mtime = NaN;

    // Extra fields: zip64 sizes and offset (§4.5.3, only those whose 32-bit field is all ones, in this order) and
    // the extended timestamp (0x5455: UTC seconds).
    for (let e = p + CENTRAL_SIZE + nameLen; e + 4 <= p + CENTRAL_SIZE + nameLen + extraLen; ) {
      const id = u16(cd, e);
      const len = u16(cd, e + 2);
      const body = e + 4;
      if (body + len > p + CENTRAL_SIZE + nameLen + extraLen) break; // a torn last field: ignored, as minizip does
      if (id === 0x0001) {
        let q = body;
        const take = (what: string) => {
          if (q + 8 > body + len) throw err(ErrorCode.Truncated, `entry ${i}'s zip64 field lacks its ${what}`, directoryOffset + q);
          const v = u64(cd, q, `entry ${i}'s zip64 ${what}`, directoryOffset + q);
          q += 8;
          return v;
        };
        if (uncompressed === 0xffffffff) uncompressed = take('uncompressed size');
        if (compressed === 0xffffffff) compressed = take('compressed size');
        if (local === 0xffffffff) local = take('local header offset');
        if (diskStart === 0xffff && q + 4 <= body + len) diskStart = u32(cd, q);
      } else if (id === 0x5455 && len >= 5 && cd[body] & 1) {
        mtime = u32(cd, body + 1) * 1000;
      }
      e = body + len;
    }
    if (diskStart !== 0) throw err(ErrorCode.NotAnArchive, `entry ${i} starts on disk ${diskStart} (a split archive)`, at + 34);

    const raw = cd.subarray(p + CENTRAL_SIZE, p + CENTRAL_SIZE + nameLen);
    const name = decodeName(raw, (flags & FLAG_UTF8) !== 0).replace(/\\/g, '/');
    const localAt = local + prefixBytes;
    if (localAt + LOCAL_SIZE + nameLen > directoryOffset) {
      throw err(ErrorCode.BadOffset, `entry ${i} (${name}) has its local header at ${localAt}, not before the directory at ${directoryOffset}`, at + 42);
    }
    dir.names[i] = name;
    dir.nameLengths[i] = nameLen;
    dir.localOffsets[i] = localAt;
    dir.compressedSizes[i] = compressed;
    dir.uncompressedSizes[i] = uncompressed;
    dir.crcs[i] = u32(cd, p + 16);
    dir.methods[i] = method;
    dir.flags[i] = flags;
    dir.mtimes[i] = mtime;
    dir.dosStamps[i] = ((u16(cd, p + 14) << 16) | u16(cd, p + 12)) >>> 0;
    dir.totalUncompressed += uncompressed;
    if (isUnsafeArchivePath(name)) {
      dir.kinds[i] = KIND_UNSAFE;
      dir.warnings.push({ code: ErrorCode.UnsafePath, message: `entry ${i} has an unsafe path ${JSON.stringify(name)}: never served`, offset: at });
    } else if (name.endsWith('/')) dir.kinds[i] = KIND_FOLDER;
    p = recordEnd;
  }
  if (dir.totalUncompressed > limits.maxTotalBytes) {
    throw err(ErrorCode.InflateLimit, `the members declare ${dir.totalUncompressed} bytes in all, over the cap of ${limits.maxTotalBytes}`, end.at);
  }
  if (dir.totalUncompressed > declaredTotalCap(limits, size)) {
    const cap = declaredTotalCap(limits, size);
    throw err(ErrorCode.InflateLimit, `the members declare ${dir.totalUncompressed} bytes in all, ${(dir.totalUncompressed / size).toFixed(1)} times the archive's ${size} bytes: over the limit maxTotalRatio = ${limits.maxTotalRatio} (${cap} bytes with the 1 MiB allowance; raise it with --limit maxTotalRatio=N, or the maxTotalRatio option)`, end.at);
  }
  checkOverlaps(dir);
  return dir;
}

/**
 * No two members may share bytes, and none may reach into the directory: the overlapping zip bomb (many entries
 * pointing at one compressed kernel) and most forged offsets fail here. Each member occupies at least its local
 * header with the central name (the local one must match) and its compressed bytes.
 */
function checkOverlaps(dir: ZipDirectory): void {
  // Writers put members in directory order: sort only when they did not (a sort is most of the cost of this check).
  let inOrder = true;
  for (let i = 1; i < dir.count && inOrder; i++) inOrder = dir.localOffsets[i - 1] <= dir.localOffsets[i];
  const order = Array.from({ length: dir.count }, (_, i) => i);
  if (!inOrder) order.sort((a, b) => dir.localOffsets[a] - dir.localOffsets[b]);
  let prevEnd = 0;
  let prev = -1;
  for (const i of order) {
    const start = dir.localOffsets[i];
    if (start < prevEnd) {
      throw err(ErrorCode.OverlappingEntries, `entry ${i} (${dir.names[i]}) at ${start} overlaps entry ${prev} (${dir.names[prev]}), which runs to ${prevEnd}`, start);
    }
    prevEnd = start + LOCAL_SIZE + dir.nameLengths[i] + dir.compressedSizes[i];
    prev = i;
    if (prevEnd > dir.directoryOffset) {
      throw err(ErrorCode.OverlappingEntries, `entry ${i} (${dir.names[i]}) runs to ${prevEnd}, into the directory at ${dir.directoryOffset}`, start);
    }
  }
}

/**
 * A Quake / Quake 2 `.pak` directory (common.c COM_LoadPackFile, qcommon/files.c FS_LoadPackFile): a 12-byte
 * header (`PACK`, int32 dirofs, int32 dirlen) and dirlen / 64 entries of a 56-byte NUL-padded name and int32
 * filepos, filelen. Members are stored, never compressed. The engines trust it all; here every entry is checked
 * against the file before the archive opens, so memory is the directory's size and no member reads outside the
 * file or shares bytes with another (docs/archives.md, "Quake .pak"):
 *
 * - BAD_MAGIC where the file does not start with `PACK`; TRUNCATED where it is shorter than its header;
 * - BAD_OFFSET for a directory or a member outside the file (a lying size);
 * - INFLATE_LIMIT for more entries than `maxEntries` (default 65,536: DarkPlaces' and Xash3D's MAX_FILES_IN_PACK,
 *   the largest an engine read takes; Quake's 2,048 and Quake 2's 4,096 are ENGINE_LIMIT warnings) — checked from
 *   dirlen before the directory is read;
 * - OVERLAPPING_ENTRIES for members sharing bytes with each other, the header or the directory;
 * - an unsafe name (absolute, `..`, a drive) is never served (UNSAFE_PATH warning), as in zip archives.
 *
 * Where a pak names a file twice, the first entry wins: both engines search the directory front to back.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import { isUnsafeArchivePath } from './zip-directory.js';

export const PAK_HEADER_BYTES = 12;
export const PAK_ENTRY_BYTES = 64;
export const PAK_NAME_BYTES = 56;
/** "PACK" read as a little-endian int32. */
export const PAK_IDENT = 0x4b434150;
/** The largest MAX_FILES_IN_PACK of the engines read (DarkPlaces fs.c, Xash3D). */
export const PAK_MAX_ENTRIES = 65536;
/** Quake common.c MAX_FILES_IN_PACK: COM_LoadPackFile refuses more ("has %i files"). */
export const QUAKE_MAX_PAK_ENTRIES = 2048;
/** Quake 2 qcommon/qfiles.h MAX_FILES_IN_PACK: FS_LoadPackFile refuses more. */
export const QUAKE2_MAX_PAK_ENTRIES = 4096;

export interface PakDirectory {
  count: number;
  /** Names as stored (Latin-1, cut at the first NUL), '\' turned into '/'. */
  names: string[];
  offsets: Float64Array;
  sizes: Float64Array;
  /** 1 where the name is unsafe (never served), else 0. */
  unsafe: Uint8Array;
  directoryOffset: number;
  directoryBytes: number;
  warnings: ParseWarning[];
}

const err = (code: ErrorCode, detail: string, offset: number) => new ModelParseError(code, detail, { offset });

/** Checks the header (the first 12 bytes) against a file of `size` bytes: where the directory is, and how many entries. */
export function readPakHeader(head: Uint8Array, size: number, maxEntries = PAK_MAX_ENTRIES): { directoryOffset: number; directoryBytes: number; count: number; warnings: ParseWarning[] } {
  if (head.length >= 4) {
    const ident = new DataView(head.buffer, head.byteOffset, 4).getUint32(0, true);
    if (ident !== PAK_IDENT) throw err(ErrorCode.BadMagic, `starts with 0x${ident.toString(16).padStart(8, '0')}, not "PACK"`, 0);
  }
  if (head.length < PAK_HEADER_BYTES) throw err(ErrorCode.Truncated, `${head.length} bytes: shorter than the ${PAK_HEADER_BYTES}-byte pak header`, head.length);
  const view = new DataView(head.buffer, head.byteOffset, PAK_HEADER_BYTES);
  const directoryOffset = view.getInt32(4, true);
  const directoryBytes = view.getInt32(8, true);
  if (directoryOffset < PAK_HEADER_BYTES || directoryBytes < 0 || directoryOffset + directoryBytes > size) {
    throw err(ErrorCode.BadOffset, `the directory [${directoryOffset}, ${directoryOffset + directoryBytes}) is not inside the file's [${PAK_HEADER_BYTES}, ${size})`, 4);
  }
  const count = Math.floor(directoryBytes / PAK_ENTRY_BYTES);
  if (count > maxEntries) throw err(ErrorCode.InflateLimit, `the directory holds ${count} entries, over the cap of ${maxEntries}`, 8);
  const warnings: ParseWarning[] = [];
  if (directoryBytes % PAK_ENTRY_BYTES !== 0) {
    warnings.push({ code: 'PAK_DIRECTORY_SIZE', message: `dirlen ${directoryBytes} is not a multiple of ${PAK_ENTRY_BYTES}: its last ${directoryBytes % PAK_ENTRY_BYTES} bytes are ignored, as the engines divide`, offset: 8 });
  }
  if (count > QUAKE2_MAX_PAK_ENTRIES) {
    warnings.push({ code: 'ENGINE_LIMIT', message: `${count} entries: Quake 2 (FS_LoadPackFile, MAX_FILES_IN_PACK ${QUAKE2_MAX_PAK_ENTRIES}) and Quake (${QUAKE_MAX_PAK_ENTRIES}) refuse the pak`, offset: 8 });
  } else if (count > QUAKE_MAX_PAK_ENTRIES) {
    warnings.push({ code: 'ENGINE_LIMIT', message: `${count} entries: Quake refuses the pak (COM_LoadPackFile, MAX_FILES_IN_PACK ${QUAKE_MAX_PAK_ENTRIES}); Quake 2 takes up to ${QUAKE2_MAX_PAK_ENTRIES}`, offset: 8 });
  }
  return { directoryOffset, directoryBytes, count, warnings };
}

/** The directory from its bytes (`bytes` holds dirlen bytes read at `directoryOffset`), checked against a file of `size` bytes. */
export function readPakDirectory(bytes: Uint8Array, header: ReturnType<typeof readPakHeader>, size: number): PakDirectory {
  const { count, directoryOffset, directoryBytes } = header;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dir: PakDirectory = {
    count,
    names: new Array<string>(count),
    offsets: new Float64Array(count),
    sizes: new Float64Array(count),
    unsafe: new Uint8Array(count),
    directoryOffset,
    directoryBytes,
    warnings: [...header.warnings],
  };
  for (let i = 0; i < count; i++) {
    const at = i * PAK_ENTRY_BYTES;
    const field = bytes.subarray(at, at + PAK_NAME_BYTES);
    const nul = field.indexOf(0);
    const raw = String.fromCharCode.apply(null, (nul < 0 ? field : field.subarray(0, nul)) as unknown as number[]);
    const name = raw.replace(/\\/g, '/');
    const offset = view.getInt32(at + PAK_NAME_BYTES, true);
    const length = view.getInt32(at + PAK_NAME_BYTES + 4, true);
    if (offset < 0 || length < 0 || offset + length > size) {
      throw err(ErrorCode.BadOffset, `entry ${i} (${JSON.stringify(name)}) declares bytes [${offset}, ${offset + length}), not inside the file's ${size}`, directoryOffset + at + PAK_NAME_BYTES);
    }
    dir.names[i] = name;
    dir.offsets[i] = offset;
    dir.sizes[i] = length;
    if (name === '' || isUnsafeArchivePath(name)) {
      dir.unsafe[i] = 1;
      dir.warnings.push({ code: ErrorCode.UnsafePath, message: `entry ${i} has an unsafe path ${JSON.stringify(raw)}: never served`, offset: directoryOffset + at });
    }
  }
  checkPakOverlaps(dir);
  return dir;
}

/** No member may share bytes with another, nor with the header or the directory (empty members take none). */
function checkPakOverlaps(dir: PakDirectory): void {
  const order = Array.from({ length: dir.count }, (_, i) => i).filter((i) => dir.sizes[i] > 0);
  order.sort((a, b) => dir.offsets[a] - dir.offsets[b]);
  // The header and the directory as two more occupied ranges.
  const ranges = [
    { name: 'the header', start: 0, end: PAK_HEADER_BYTES, entry: -1 },
    { name: 'the directory', start: dir.directoryOffset, end: dir.directoryOffset + dir.directoryBytes, entry: -1 },
    ...order.map((i) => ({ name: `entry ${i} (${dir.names[i]})`, start: dir.offsets[i], end: dir.offsets[i] + dir.sizes[i], entry: i })),
  ].filter((r) => r.end > r.start);
  ranges.sort((a, b) => a.start - b.start);
  for (let k = 1; k < ranges.length; k++) {
    const prev = ranges[k - 1], r = ranges[k];
    if (r.start < prev.end) {
      const at = r.entry >= 0 ? dir.directoryOffset + r.entry * PAK_ENTRY_BYTES + PAK_NAME_BYTES : prev.entry >= 0 ? dir.directoryOffset + prev.entry * PAK_ENTRY_BYTES + PAK_NAME_BYTES : 4;
      throw err(ErrorCode.OverlappingEntries, `${r.name} at ${r.start} overlaps ${prev.name}, which runs to ${prev.end}`, at);
    }
  }
}

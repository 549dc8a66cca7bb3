/**
 * The 108-byte MD3 header: read, and validated on its own — magic, version, counts (numFrames ≥ 1 as R_LoadMD3
 * demands, none negative, each count × record size inside the file), and the frame, tag and first-surface blocks
 * inside [header end, ofsEnd]. What it promises about the rest (surfaces) is checked by `surfaces.ts` once the bytes
 * up to `ofsEnd` are in; the engine limits it goes past are warnings (`engine-limits.ts`).
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { FRAME_BYTES, H, HEADER_BYTES, MD3_IDENT, MD3_VERSION, SURFACE_HEADER_BYTES, TAG_BYTES } from './layout.js';
import { latin1Field } from '../../base/binary.js';

export interface Md3Header {
  version: number;
  name: string;
  flags: number;
  numFrames: number;
  numTags: number;
  numSurfaces: number;
  ofsFrames: number;
  ofsTags: number;
  ofsSurfaces: number;
  ofsEnd: number;
}

export function fail(code: ErrorCode, detail: string, offset: number): never {
  throw new ModelParseError(code, detail, { offset });
}

/** The largest int32: a count field's own bound. */
export const INT32_MAX = 0x7fffffff;

/** The int32 at `field`, which must lie in [min, max] (BAD_COUNT at the field otherwise). */
export function count(view: DataView, field: number, what: string, min: number, max: number): number {
  const v = view.getInt32(field, true);
  if (v < min || v > max) {
    fail(ErrorCode.BadCount, max === INT32_MAX ? `${what} ${v} is below ${min}` : `${what} ${v} outside ${min}..${max}`, field);
  }
  return v;
}

/**
 * `count` records of `recordBytes` must fit in the `room` bytes available to them, whatever the offsets say
 * (BAD_COUNT at the count field otherwise): no count can make the parser allocate more than the file holds.
 */
export function fits(field: number, what: string, count: number, recordBytes: number, room: number): void {
  if (count * recordBytes > room) {
    fail(ErrorCode.BadCount, `${what} ${count}: ${count} × ${recordBytes} bytes do not fit in ${room} bytes`, field);
  }
}

/**
 * A block of `length` bytes at `start` must lie inside [lo, hi] (BAD_OFFSET at `field`, the offset field that
 * placed it). Empty blocks are not checked: exporters write anything (often 0) as the offset of an empty block.
 */
export function checkBlock(field: number, what: string, start: number, length: number, lo: number, hi: number): void {
  if (length === 0) return;
  if (start < lo || start + length > hi) {
    fail(ErrorCode.BadOffset, `${what} [${start}, ${start + length}) is outside [${lo}, ${hi}]`, field);
  }
}

function ident(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]);
}

/** The surface (or file) ident at `at` must be `IDP3`. */
export function checkIdent(bytes: Uint8Array, at: number, what: string): void {
  const got = ident(bytes, at);
  if (got !== MD3_IDENT) fail(ErrorCode.BadMagic, `${what} ident is ${JSON.stringify(got)}, not "${MD3_IDENT}"`, at);
}

/**
 * Checks the fields of a header that has only partly arrived (`available` bytes): the magic once 4 bytes are in,
 * the version once 8 are, so a 20-byte text file is BAD_MAGIC rather than TRUNCATED.
 */
export function checkMd3HeaderPrefix(bytes: Uint8Array, available: number): void {
  if (available >= 4) checkIdent(bytes, 0, 'file');
  if (available >= 8) {
    const version = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(H.version, true);
    if (version !== MD3_VERSION) fail(ErrorCode.BadVersion, `MD3 version ${version} is not supported (want ${MD3_VERSION})`, H.version);
  }
}

/**
 * Reads and validates the header from the first `available` bytes of `bytes`: fewer than 108 bytes of a header
 * whose magic and version are right is TRUNCATED at `available`.
 */
export function readMd3Header(bytes: Uint8Array, available: number): Md3Header {
  checkMd3HeaderPrefix(bytes, available);
  if (available < HEADER_BYTES) fail(ErrorCode.Truncated, `input ended inside the ${HEADER_BYTES}-byte header`, available);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  const numFrames = count(view, H.numFrames, 'numFrames', 1, INT32_MAX);
  const numTags = count(view, H.numTags, 'numTags', 0, INT32_MAX);
  const numSurfaces = count(view, H.numSurfaces, 'numSurfaces', 0, INT32_MAX);
  const ofsFrames = view.getInt32(H.ofsFrames, true);
  const ofsTags = view.getInt32(H.ofsTags, true);
  const ofsSurfaces = view.getInt32(H.ofsSurfaces, true);
  const ofsEnd = view.getInt32(H.ofsEnd, true);
  if (ofsEnd < HEADER_BYTES) fail(ErrorCode.BadOffset, `ofsEnd ${ofsEnd} is below the ${HEADER_BYTES}-byte header`, H.ofsEnd);
  const room = ofsEnd - HEADER_BYTES;
  fits(H.numFrames, 'numFrames', numFrames, FRAME_BYTES, room);
  fits(H.numTags, 'numTags', numTags, numFrames * TAG_BYTES, room);
  fits(H.numSurfaces, 'numSurfaces', numSurfaces, SURFACE_HEADER_BYTES, room);
  checkBlock(H.ofsFrames, 'the frames', ofsFrames, numFrames * FRAME_BYTES, HEADER_BYTES, ofsEnd);
  checkBlock(H.ofsTags, 'the tags', ofsTags, numFrames * numTags * TAG_BYTES, HEADER_BYTES, ofsEnd);
  checkBlock(H.ofsSurfaces, 'the first surface header', ofsSurfaces, numSurfaces > 0 ? SURFACE_HEADER_BYTES : 0, HEADER_BYTES, ofsEnd);
  return {
    version: MD3_VERSION,
    name: latin1Field(bytes, H.name, 64),
    flags: view.getInt32(H.flags, true),
    numFrames,
    numTags,
    numSurfaces,
    ofsFrames,
    ofsTags,
    ofsSurfaces,
    ofsEnd,
  };
}

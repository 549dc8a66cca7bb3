/**
 * The 112-byte MDC header: read and validated on its own — magic, version 2 (R_LoadMDC's only check besides
 * numFrames ≥ 1), counts none negative and each count × record size inside the file, and the frame, tag-name, tag and
 * first-surface blocks inside [header end, ofsEnd]. The surfaces are checked by `surfaces.ts` once the bytes up to
 * ofsEnd are in.
 */
import { latin1Field } from '../../base/binary.js';
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { FRAME_BYTES, H, HEADER_BYTES, MDC_IDENT, MDC_VERSION, SURFACE_HEADER_BYTES, TAG_BYTES, TAG_NAME_BYTES } from './layout.js';

export interface MdcHeader {
  version: number;
  name: string;
  flags: number;
  numFrames: number;
  numTags: number;
  numSurfaces: number;
  numSkins: number;
  ofsFrames: number;
  ofsTagNames: number;
  ofsTags: number;
  ofsSurfaces: number;
  ofsEnd: number;
}

export function fail(code: ErrorCode, detail: string, offset: number): never {
  throw new ModelParseError(code, detail, { offset });
}

export const INT32_MAX = 0x7fffffff;

/** The int32 at `field`, in [min, max] (BAD_COUNT at the field otherwise). */
export function count(view: DataView, field: number, what: string, min: number, max: number): number {
  const v = view.getInt32(field, true);
  if (v < min || v > max) fail(ErrorCode.BadCount, max === INT32_MAX ? `${what} ${v} is below ${min}` : `${what} ${v} outside ${min}..${max}`, field);
  return v;
}

/** `n` records of `recordBytes` must fit in `room` bytes, whatever the offsets say (BAD_COUNT at the count field). */
export function fits(field: number, what: string, n: number, recordBytes: number, room: number): void {
  if (n * recordBytes > room) fail(ErrorCode.BadCount, `${what} ${n}: ${n} × ${recordBytes} bytes do not fit in ${room} bytes`, field);
}

/** A block of `length` bytes at `start` inside [lo, hi] (BAD_OFFSET at the offset field that placed it); empty blocks are not checked. */
export function checkBlock(field: number, what: string, start: number, length: number, lo: number, hi: number): void {
  if (length === 0) return;
  if (start < lo || start + length > hi) fail(ErrorCode.BadOffset, `${what} [${start}, ${start + length}) is outside [${lo}, ${hi}]`, field);
}

/** The magic once 4 bytes are in, the version once 8 are: a wrong file fails on its first chunk. */
export function checkMdcPrefix(bytes: Uint8Array, available: number): void {
  if (available >= 4) {
    const got = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
    if (got !== MDC_IDENT) fail(ErrorCode.BadMagic, `ident is ${JSON.stringify(got)}, not "${MDC_IDENT}"`, 0);
  }
  if (available >= 8) {
    const version = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(H.version, true);
    if (version !== MDC_VERSION) fail(ErrorCode.BadVersion, `MDC version ${version} is not supported (want ${MDC_VERSION}, as R_LoadMDC)`, H.version);
  }
}

/** `IDPC` then version 2: what the format list sniffs. */
export function isMdcHead(head: Uint8Array): boolean {
  return head.length >= 8 && head[0] === 0x49 && head[1] === 0x44 && head[2] === 0x50 && head[3] === 0x43 && head[4] === MDC_VERSION && head[5] === 0 && head[6] === 0 && head[7] === 0;
}

/** Reads and validates the header from the first `available` bytes (fewer than 112: TRUNCATED). */
export function readMdcHeader(bytes: Uint8Array, available: number): MdcHeader {
  checkMdcPrefix(bytes, available);
  if (available < HEADER_BYTES) fail(ErrorCode.Truncated, `input ended inside the ${HEADER_BYTES}-byte header`, available);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // R_LoadMDC: "has no frames"
  const numFrames = count(view, H.numFrames, 'numFrames', 1, INT32_MAX);
  const numTags = count(view, H.numTags, 'numTags', 0, INT32_MAX);
  const numSurfaces = count(view, H.numSurfaces, 'numSurfaces', 0, INT32_MAX);
  const ofsFrames = view.getInt32(H.ofsFrames, true);
  const ofsTagNames = view.getInt32(H.ofsTagNames, true);
  const ofsTags = view.getInt32(H.ofsTags, true);
  const ofsSurfaces = view.getInt32(H.ofsSurfaces, true);
  const ofsEnd = view.getInt32(H.ofsEnd, true);
  if (ofsEnd < HEADER_BYTES) fail(ErrorCode.BadOffset, `ofsEnd ${ofsEnd} is below the ${HEADER_BYTES}-byte header`, H.ofsEnd);
  const room = ofsEnd - HEADER_BYTES;
  fits(H.numFrames, 'numFrames', numFrames, FRAME_BYTES, room);
  fits(H.numTags, 'numTags', numTags, TAG_NAME_BYTES + numFrames * TAG_BYTES, room);
  fits(H.numSurfaces, 'numSurfaces', numSurfaces, SURFACE_HEADER_BYTES, room);
  checkBlock(H.ofsFrames, 'the frames', ofsFrames, numFrames * FRAME_BYTES, HEADER_BYTES, ofsEnd);
  checkBlock(H.ofsTagNames, 'the tag names', ofsTagNames, numTags * TAG_NAME_BYTES, HEADER_BYTES, ofsEnd);
  checkBlock(H.ofsTags, 'the tags', ofsTags, numFrames * numTags * TAG_BYTES, HEADER_BYTES, ofsEnd);
  checkBlock(H.ofsSurfaces, 'the first surface header', ofsSurfaces, numSurfaces > 0 ? SURFACE_HEADER_BYTES : 0, HEADER_BYTES, ofsEnd);
  return {
    version: MDC_VERSION,
    name: latin1Field(bytes, H.name, 64),
    flags: view.getInt32(H.flags, true),
    numFrames,
    numTags,
    numSurfaces,
    numSkins: view.getInt32(H.numSkins, true),
    ofsFrames,
    ofsTagNames,
    ofsTags,
    ofsSurfaces,
    ofsEnd,
  };
}

/**
 * The 68-byte MD2 header: read, then validated in full before anything else is allocated or buffered. After
 * {@link readMd2Header} returns, every count is within its limit and every block lies inside [68, ofs_end) without
 * overlapping another, so the body reader can follow offsets blindly and the model's memory is bounded by the file.
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import {
  LIMITS,
  MAX_FILE_BYTES,
  MAX_FRAME_BYTES,
  MD2_FRAME_HEADER_BYTES,
  MD2_HEADER_BYTES,
  MD2_ST_BYTES,
  MD2_TRIANGLE_BYTES,
  MD2_VERTEX_BYTES,
} from './limits.js';

/** "IDP2" read as a little-endian int32. */
const MD2_IDENT = 0x32504449;
export const MD2_VERSION = 8;

/** Byte offset of each header field (17 little-endian int32). */
export const HEADER_FIELD = {
  ident: 0,
  version: 4,
  skinWidth: 8,
  skinHeight: 12,
  frameSize: 16,
  skinCount: 20,
  vertexCount: 24,
  stCount: 28,
  triangleCount: 32,
  glCommandWords: 36,
  frameCount: 40,
  skinsOffset: 44,
  stOffset: 48,
  trianglesOffset: 52,
  framesOffset: 56,
  glCommandsOffset: 60,
  endOffset: 64,
} as const;

export interface Md2Header {
  version: number;
  skinWidth: number;
  skinHeight: number;
  frameSize: number;
  skinCount: number;
  vertexCount: number;
  stCount: number;
  triangleCount: number;
  glCommandWords: number;
  frameCount: number;
  skinsOffset: number;
  stOffset: number;
  trianglesOffset: number;
  framesOffset: number;
  glCommandsOffset: number;
  /** ofs_end: the declared file size; bytes past it are ignored (TRAILING_BYTES). */
  endOffset: number;
}

/** Throws ModelParseError `code` at byte `offset` (the header and the body reader both). */
export function fail(code: ErrorCode, detail: string, offset: number): never {
  throw new ModelParseError(code, detail, { offset });
}

/** A count field in [min, max], else BAD_COUNT at the field. */
function count(view: DataView, field: number, name: string, min: number, max: number): number {
  const n = view.getInt32(field, true);
  if (n < min || n > max) {
    const why = n < min && min === 1 ? 'must be at least 1' : `must be in [${min}, ${max}]`;
    fail(ErrorCode.BadCount, `${name} is ${n}; it ${why}`, field);
  }
  return n;
}

interface Block {
  name: string;
  /** Header field holding the block's offset (where an error points). */
  field: number;
  start: number;
  bytes: number;
}

/**
 * Checks ident and version as soon as their bytes are there (`available` ≥ 4, ≥ 8), so a file that is not an MD2
 * at all says BAD_MAGIC even when it is shorter than a header.
 */
export function checkIdentity(view: DataView, available: number): void {
  if (available >= 4) {
    const ident = view.getInt32(HEADER_FIELD.ident, true);
    if (ident !== MD2_IDENT) fail(ErrorCode.BadMagic, `ident is 0x${(ident >>> 0).toString(16).padStart(8, '0')}, not "IDP2"`, HEADER_FIELD.ident);
  }
  if (available >= 8) {
    const version = view.getInt32(HEADER_FIELD.version, true);
    if (version !== MD2_VERSION) fail(ErrorCode.BadVersion, `version is ${version}, not ${MD2_VERSION}`, HEADER_FIELD.version);
  }
}

/**
 * Reads and validates the header from the first 68 bytes of `view`. Throws ModelParseError (BAD_MAGIC,
 * BAD_VERSION, BAD_COUNT, BAD_OFFSET) at the offending field; the caller has made sure 68 bytes are there.
 */
export function readMd2Header(view: DataView): Md2Header {
  checkIdentity(view, MD2_HEADER_BYTES);
  const version = MD2_VERSION;
  const F = HEADER_FIELD;
  // Counts first: a file with zero vertices is BAD_COUNT even when its offsets are also nonsense.
  const skinWidth = count(view, F.skinWidth, 'skinwidth', 1, LIMITS.maxSkinSize);
  const skinHeight = count(view, F.skinHeight, 'skinheight', 1, LIMITS.maxSkinSize);
  const skinCount = count(view, F.skinCount, 'num_skins', 0, LIMITS.maxSkins);
  const vertexCount = count(view, F.vertexCount, 'num_xyz', 1, LIMITS.maxVertices);
  const stCount = count(view, F.stCount, 'num_st', 0, LIMITS.maxSt);
  const triangleCount = count(view, F.triangleCount, 'num_tris', 0, LIMITS.maxTriangles);
  const glCommandWords = count(view, F.glCommandWords, 'num_glcmds', 0, LIMITS.maxGlCommandWords);
  const frameCount = count(view, F.frameCount, 'num_frames', 1, LIMITS.maxFrames);
  const minFrameSize = MD2_FRAME_HEADER_BYTES + MD2_VERTEX_BYTES * vertexCount;
  const frameSize = count(view, F.frameSize, 'framesize', minFrameSize, MAX_FRAME_BYTES);

  const endOffset = view.getInt32(F.endOffset, true);
  if (endOffset < MD2_HEADER_BYTES || endOffset > MAX_FILE_BYTES) {
    fail(ErrorCode.BadOffset, `ofs_end is ${endOffset}; it must be in [${MD2_HEADER_BYTES}, ${MAX_FILE_BYTES}]`, F.endOffset);
  }
  const header: Md2Header = {
    version,
    skinWidth,
    skinHeight,
    frameSize,
    skinCount,
    vertexCount,
    stCount,
    triangleCount,
    glCommandWords,
    frameCount,
    skinsOffset: view.getInt32(F.skinsOffset, true),
    stOffset: view.getInt32(F.stOffset, true),
    trianglesOffset: view.getInt32(F.trianglesOffset, true),
    framesOffset: view.getInt32(F.framesOffset, true),
    glCommandsOffset: view.getInt32(F.glCommandsOffset, true),
    endOffset,
  };
  checkBlocks(header);
  return header;
}

/** Every non-empty block inside [68, ofs_end) and no two overlapping; an empty block's offset is not followed. */
function checkBlocks(h: Md2Header): void {
  const F = HEADER_FIELD;
  const blocks: Block[] = [
    { name: 'skins', field: F.skinsOffset, start: h.skinsOffset, bytes: h.skinCount * LIMITS.skinNameBytes },
    { name: 'st', field: F.stOffset, start: h.stOffset, bytes: h.stCount * MD2_ST_BYTES },
    { name: 'triangles', field: F.trianglesOffset, start: h.trianglesOffset, bytes: h.triangleCount * MD2_TRIANGLE_BYTES },
    { name: 'frames', field: F.framesOffset, start: h.framesOffset, bytes: h.frameCount * h.frameSize },
    { name: 'glcmds', field: F.glCommandsOffset, start: h.glCommandsOffset, bytes: h.glCommandWords * 4 },
  ].filter((b) => b.bytes > 0);
  for (const b of blocks) {
    // Counts are bounded, so start + bytes cannot overflow a double; the comparison is exact.
    if (b.start < MD2_HEADER_BYTES || b.start + b.bytes > h.endOffset) {
      fail(
        ErrorCode.BadOffset,
        `the ${b.name} block [${b.start}, ${b.start + b.bytes}) is not inside [${MD2_HEADER_BYTES}, ofs_end ${h.endOffset})`,
        b.field,
      );
    }
  }
  const sorted = [...blocks].sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1];
    const b = sorted[i];
    if (b.start < prev.start + prev.bytes) {
      // Overlap would let a small file declare the same bytes as every block at once (memory × 5): refused.
      fail(ErrorCode.BadOffset, `the ${b.name} block at ${b.start} overlaps the ${prev.name} block [${prev.start}, ${prev.start + prev.bytes})`, b.field);
    }
  }
}

/**
 * The 68-byte MD2 header: read, then validated in full before anything else is allocated or buffered. After
 * {@link readMd2Header} returns, every count × record size fits in [68, ofs_end) and every non-empty block lies
 * there, so the body reader can follow offsets blindly and the model's memory is bounded by the file's bytes.
 *
 * What is refused and what only warns follows Quake 2's Mod_LoadAliasModel (docs/limits.md): the only count
 * limits that are errors are the engine's own refusals (num_xyz in [1, MAX_VERTS], num_frames ≥ 1); the rest are
 * warnings (`engine-limits.ts`, added by the body reader). Structure — every block inside the file — is checked
 * because the engine would read or write outside its buffers there.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../../base/errors.js';
import {
  LIMITS,
  MD2_FRAME_HEADER_BYTES,
  MD2_GLCMD_WORD_BYTES,
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
  /** skinwidth and skinheight as stored (any int32: Quake 2 checks only skinheight ≤ MAX_LBM_HEIGHT). */
  skinWidth: number;
  skinHeight: number;
  frameSize: number;
  skinCount: number;
  vertexCount: number;
  stCount: number;
  triangleCount: number;
  /** num_glcmds as stored; a negative count is an empty (invalid) block, as the engine's copy loop makes it. */
  glCommandWords: number;
  frameCount: number;
  skinsOffset: number;
  stOffset: number;
  trianglesOffset: number;
  framesOffset: number;
  glCommandsOffset: number;
  /** ofs_end: the declared file size; bytes past it are ignored (TRAILING_BYTES). */
  endOffset: number;
  /** What the header says is odd but readable: SKIN_SIZE, OVERLAPPING_BLOCKS (ENGINE_LIMIT: `engine-limits.ts`). */
  warnings: ParseWarning[];
}

/** Throws ModelParseError `code` at byte `offset` (the header and the body reader both). */
export function fail(code: ErrorCode, detail: string, offset: number): never {
  throw new ModelParseError(code, detail, { offset });
}

/** The largest int32: a count or offset field's own bound. */
const INT32_MAX = 0x7fffffff;

/** A count field in [min, max], else BAD_COUNT at the field. */
function count(view: DataView, field: number, name: string, min: number, max: number): number {
  const n = view.getInt32(field, true);
  if (n < min || n > max) {
    const why = n < min && (min === 1 || max === INT32_MAX) ? `must be at least ${min}` : `must be in [${min}, ${max}]`;
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
 * `count` records of `recordBytes` must fit in the `room` bytes between the header and ofs_end, whatever the
 * offsets say: else BAD_COUNT at the count field. This is the memory bound — no count can ask for more than the
 * file holds — now that no count but num_xyz has a fixed limit.
 */
function fits(field: number, name: string, count: number, recordBytes: number, room: number): void {
  if (count * recordBytes > room) {
    fail(ErrorCode.BadCount, `${name} is ${count}: ${count} × ${recordBytes} bytes do not fit in the ${room} bytes between the header and ofs_end`, field);
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
  // Counts first: a file with zero vertices is BAD_COUNT even when its offsets are also nonsense. The bounds are
  // the engine's (num_xyz in [1, MAX_VERTS], num_frames ≥ 1) or the field's; negative counts mean nothing.
  const skinCount = count(view, F.skinCount, 'num_skins', 0, INT32_MAX);
  const vertexCount = count(view, F.vertexCount, 'num_xyz', 1, LIMITS.maxVertices);
  const stCount = count(view, F.stCount, 'num_st', 0, INT32_MAX);
  const triangleCount = count(view, F.triangleCount, 'num_tris', 0, INT32_MAX);
  const glCommandWords = view.getInt32(F.glCommandWords, true);
  const frameCount = count(view, F.frameCount, 'num_frames', 1, INT32_MAX);
  const minFrameSize = MD2_FRAME_HEADER_BYTES + MD2_VERTEX_BYTES * vertexCount;
  // A frame must hold its vertices (a shorter stride would make frame f's vertices frame f + 1's header); longer
  // is padding, which the engine steps over as we do.
  const frameSize = count(view, F.frameSize, 'framesize', minFrameSize, INT32_MAX);

  const endOffset = view.getInt32(F.endOffset, true);
  if (endOffset < MD2_HEADER_BYTES) {
    fail(ErrorCode.BadOffset, `ofs_end is ${endOffset}; it must be at least ${MD2_HEADER_BYTES}`, F.endOffset);
  }
  const room = endOffset - MD2_HEADER_BYTES;
  fits(F.skinCount, 'num_skins', skinCount, LIMITS.skinNameBytes, room);
  fits(F.stCount, 'num_st', stCount, MD2_ST_BYTES, room);
  fits(F.triangleCount, 'num_tris', triangleCount, MD2_TRIANGLE_BYTES, room);
  fits(F.glCommandWords, 'num_glcmds', Math.max(0, glCommandWords), MD2_GLCMD_WORD_BYTES, room);
  if (frameSize > room) fail(ErrorCode.BadCount, `framesize is ${frameSize}: one frame does not fit in the ${room} bytes between the header and ofs_end`, F.frameSize);
  fits(F.frameCount, 'num_frames', frameCount, frameSize, room);

  const header: Md2Header = {
    version,
    skinWidth: view.getInt32(F.skinWidth, true),
    skinHeight: view.getInt32(F.skinHeight, true),
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
    warnings: [],
  };
  const overlap = checkBlocks(header);
  header.warnings.push(...skinSizeWarnings(header));
  if (overlap) header.warnings.push(overlap);
  return header;
}

/**
 * skinwidth and skinheight only divide the st pixels into texcoords (ref_gl draws from the glcmds' own s, t; the
 * engine never reads skinwidth). A value below 1 is divided as 1, as assimp's MD2 importer does: SKIN_SIZE.
 */
function skinSizeWarnings(h: Md2Header): ParseWarning[] {
  const out: ParseWarning[] = [];
  for (const [name, value, field] of [['skinwidth', h.skinWidth, HEADER_FIELD.skinWidth], ['skinheight', h.skinHeight, HEADER_FIELD.skinHeight]] as const) {
    if (value < 1) out.push({ code: 'SKIN_SIZE', message: `${name} is ${value}; texcoords are divided by 1 instead`, offset: field });
  }
  return out;
}

/**
 * Every non-empty block inside [68, ofs_end) (BAD_OFFSET otherwise: the engine copies each block to the same
 * offset of an ofs_end-byte buffer, so one outside it is read past the file or written past that buffer); an empty
 * block's offset is not followed. Two blocks that overlap are not refused — the engine copies each by its own
 * offset and count — but reported once (OVERLAPPING_BLOCKS), as no exporter writes them.
 */
function checkBlocks(h: Md2Header): ParseWarning | null {
  const F = HEADER_FIELD;
  const blocks: Block[] = [
    { name: 'skins', field: F.skinsOffset, start: h.skinsOffset, bytes: h.skinCount * LIMITS.skinNameBytes },
    { name: 'st', field: F.stOffset, start: h.stOffset, bytes: h.stCount * MD2_ST_BYTES },
    { name: 'triangles', field: F.trianglesOffset, start: h.trianglesOffset, bytes: h.triangleCount * MD2_TRIANGLE_BYTES },
    { name: 'frames', field: F.framesOffset, start: h.framesOffset, bytes: h.frameCount * h.frameSize },
    { name: 'glcmds', field: F.glCommandsOffset, start: h.glCommandsOffset, bytes: Math.max(0, h.glCommandWords) * MD2_GLCMD_WORD_BYTES },
  ].filter((b) => b.bytes > 0);
  for (const b of blocks) {
    // Each block fits in ofs_end (checked), so start + bytes is below 2^32: exact in a double.
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
      return {
        code: 'OVERLAPPING_BLOCKS',
        message: `the ${b.name} block at ${b.start} overlaps the ${prev.name} block [${prev.start}, ${prev.start + prev.bytes}); each is read by its own offset`,
        offset: b.field,
      };
    }
  }
  return null;
}

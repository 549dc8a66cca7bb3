/**
 * The model from a validated header and the file's first `ofs_end` bytes. The header check has already put every
 * block inside the buffer, so this only reads; what it still validates is per record: triangle indices and finite
 * scale/translate (errors), normal indices and the glcmd block (warnings at worst).
 *
 * Every array is a fresh copy — nothing keeps the input buffer alive — and frames stay quantised, so the model
 * takes no more memory than its blocks do in the file.
 */
import { ErrorCode, type ParseWarning } from '../../base/errors.js';
import type { Md2Model, Md2Skin } from '../../base/model.js';
import { groupClips } from './clips.js';
import { md2EngineWarnings } from './engine-limits.js';
import { decodeGlCommands } from './glcmds.js';
import { HEADER_FIELD, fail, type Md2Header } from './header.js';
import { hostOrder, hostOrderCopy, latin1Field } from '../../base/binary.js';
import { LIMITS, MD2_FRAME_HEADER_BYTES, MD2_FRAME_NAME_BYTES, MD2_TRIANGLE_BYTES, MD2_VERTEX_BYTES } from './limits.js';
import { MD2_NORMAL_COUNT } from '../../kernels/quake-normals.js';

/** The last entry of the normal table: where an index past it is clamped (as the morph kernels and assimp do). */
const LAST_NORMAL = MD2_NORMAL_COUNT - 1;

/** The largest finite float32. */
const FLOAT32_MAX = 3.4028234663852886e38;

function readSkins(bytes: Uint8Array, h: Md2Header): Md2Skin[] {
  const skins: Md2Skin[] = [];
  for (let i = 0; i < h.skinCount; i++) {
    const at = h.skinsOffset + i * LIMITS.skinNameBytes;
    skins.push({ name: latin1Field(bytes, at, LIMITS.skinNameBytes), bytes: bytes.slice(at, at + LIMITS.skinNameBytes) });
  }
  return skins;
}

function readSt(bytes: Uint8Array, h: Md2Header): Int16Array {
  return hostOrderCopy(bytes, h.stOffset, h.stCount * 2, Int16Array);
}

/** The triangles' index_xyz and index_st, each index checked against num_xyz and num_st. */
function readTriangles(bytes: Uint8Array, h: Md2Header): { positions: Uint16Array; sts: Uint16Array } {
  const n = h.triangleCount;
  const words = hostOrder(bytes, h.trianglesOffset, n * 6, Int16Array);
  const positions = new Uint16Array(n * 3);
  const sts = new Uint16Array(n * 3);
  const vertexCount = h.vertexCount, stCount = h.stCount;
  // Flat loop, counts in locals: this runs for every triangle of every file.
  for (let t = 0, w = 0, o = 0; t < n; t++, w += 6, o += 3) {
    const a = words[w], b = words[w + 1], c = words[w + 2], sa = words[w + 3], sb = words[w + 4], sc = words[w + 5];
    // Int16 indices: a negative one compares as huge after >>> 0. One test per triangle on the success path.
    if ((a >>> 0) >= vertexCount || (b >>> 0) >= vertexCount || (c >>> 0) >= vertexCount || (sa >>> 0) >= stCount || (sb >>> 0) >= stCount || (sc >>> 0) >= stCount) {
      badTriangle(words, t, h);
    }
    positions[o] = a; positions[o + 1] = b; positions[o + 2] = c;
    sts[o] = sa; sts[o + 1] = sb; sts[o + 2] = sc;
  }
  return { positions, sts };
}

/** Throws for the first bad index of triangle t (off the hot path). */
function badTriangle(words: Int16Array, t: number, h: Md2Header): never {
  const at = h.trianglesOffset + t * MD2_TRIANGLE_BYTES;
  for (let k = 0; k < 3; k++) {
    const xyz = words[t * 6 + k];
    if ((xyz >>> 0) >= h.vertexCount) fail(ErrorCode.IndexOutOfRange, `triangle ${t} vertex index ${xyz} is not in [0, ${h.vertexCount})`, at + 2 * k);
  }
  for (let k = 0; k < 3; k++) {
    const st = words[t * 6 + 3 + k];
    if ((st >>> 0) >= h.stCount) fail(ErrorCode.IndexOutOfRange, `triangle ${t} st index ${st} is not in [0, ${h.stCount})`, at + 6 + 2 * k);
  }
  throw new Error('unreachable: badTriangle found no bad index');
}

interface Frames {
  names: string[];
  scales: Float32Array;
  translates: Float32Array;
  vertices: Uint8Array;
  /** NORMAL_INDEX when an index was clamped. */
  warning: ParseWarning | null;
}

function readFrames(bytes: Uint8Array, view: DataView, h: Md2Header): Frames {
  const frameVertexBytes = h.vertexCount * MD2_VERTEX_BYTES;
  const names: string[] = [];
  const scales = new Float32Array(h.frameCount * 3);
  const translates = new Float32Array(h.frameCount * 3);
  const vertices = new Uint8Array(h.frameCount * frameVertexBytes);
  for (let f = 0; f < h.frameCount; f++) {
    const at = h.framesOffset + f * h.frameSize;
    for (let k = 0; k < 6; k++) {
      const v = view.getFloat32(at + 4 * k, true);
      if (!Number.isFinite(v)) fail(ErrorCode.BadNumber, `frame ${f} ${k < 3 ? 'scale' : 'translate'} is ${v}`, at + 4 * k);
      if (k < 3) scales[f * 3 + k] = v;
      else translates[f * 3 + k - 3] = v;
    }
    for (let k = 0; k < 3; k++) {
      // Finite inputs can still decode to ±Infinity (255 · 3e38): the largest position must be a float32.
      if (255 * Math.abs(scales[f * 3 + k]) + Math.abs(translates[f * 3 + k]) > FLOAT32_MAX) {
        fail(ErrorCode.BadNumber, `frame ${f} scale ${scales[f * 3 + k]} and translate ${translates[f * 3 + k]} overflow float32`, at + 4 * k);
      }
    }
    names.push(latin1Field(bytes, at + 24, MD2_FRAME_NAME_BYTES));
    const from = at + MD2_FRAME_HEADER_BYTES;
    vertices.set(bytes.subarray(from, from + frameVertexBytes), f * frameVertexBytes);
  }
  // Normal indices in one pass over the copy: the reference decoders index the 162-entry table with them. Quake 2
  // does not check them (ref_gl lights a vertex through shadedots[index], a 256-entry row; only the powerup shell
  // reads r_avertexnormals[162] past its end), so one past the table is clamped to its last entry and reported once.
  let clamped = 0;
  let first = -1;
  for (let i = 3; i < vertices.length; i += MD2_VERTEX_BYTES) {
    if (vertices[i] > LAST_NORMAL) {
      if (clamped++ === 0) first = i;
      vertices[i] = LAST_NORMAL;
    }
  }
  let warning: ParseWarning | null = null;
  if (clamped > 0) {
    const f = Math.floor(first / frameVertexBytes);
    const v = (first - f * frameVertexBytes - 3) / MD2_VERTEX_BYTES;
    const at = h.framesOffset + f * h.frameSize + MD2_FRAME_HEADER_BYTES + v * MD2_VERTEX_BYTES + 3;
    const index = bytes[at];
    warning = {
      code: 'NORMAL_INDEX',
      message: `${clamped} normal index(es) not below ${MD2_NORMAL_COUNT}, the first ${index} (frame ${f} vertex ${v}); each is read as ${LAST_NORMAL}`,
      offset: at,
    };
  }
  return { names, scales, translates, vertices, warning };
}

/**
 * The model from `bytes` (at least `h.endOffset` long; bytes past it are not read). `trailingBytes` is how many
 * bytes the input had past ofs_end (a TRAILING_BYTES warning when > 0).
 */
export function readMd2Body(bytes: Uint8Array, h: Md2Header, trailingBytes: number): Md2Model {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const warnings: ParseWarning[] = [...md2EngineWarnings(h), ...h.warnings];
  const skins = readSkins(bytes, h);
  const st = readSt(bytes, h);
  const triangles = readTriangles(bytes, h);
  const frames = readFrames(bytes, view, h);

  if (frames.warning) warnings.push(frames.warning);

  let glCommands = null;
  if (h.glCommandWords < 0) {
    // The engine's copy loop (`i < num_glcmds`) copies nothing and draws from whatever is at ofs_glcmds.
    warnings.push({ code: 'GLCMDS_INVALID', message: `glcmds ignored: num_glcmds is ${h.glCommandWords}`, offset: HEADER_FIELD.glCommandWords });
  } else if (h.glCommandWords > 0) {
    const gl = decodeGlCommands(bytes, h.glCommandsOffset, h.glCommandWords, h.vertexCount);
    if (gl.ok) glCommands = gl.commands;
    else warnings.push({ code: 'GLCMDS_INVALID', message: `glcmds ignored: ${gl.reason}`, offset: gl.offset });
  }
  if (trailingBytes > 0) {
    warnings.push({ code: 'TRAILING_BYTES', message: `${trailingBytes} bytes after ofs_end ${h.endOffset} ignored`, offset: h.endOffset });
  }
  return {
    format: 'md2',
    version: h.version,
    // The divisors of the st pixels: below 1 is divided as 1 (SKIN_SIZE warning from the header).
    skinWidth: Math.max(1, h.skinWidth),
    skinHeight: Math.max(1, h.skinHeight),
    skins,
    vertexCount: h.vertexCount,
    frameCount: h.frameCount,
    frameNames: frames.names,
    frameScales: frames.scales,
    frameTranslates: frames.translates,
    frameVertices: frames.vertices,
    stCount: h.stCount,
    st,
    triangleCount: h.triangleCount,
    trianglePositionIndices: triangles.positions,
    triangleStIndices: triangles.sts,
    glCommands,
    clips: groupClips(frames.names),
    warnings,
  };
}

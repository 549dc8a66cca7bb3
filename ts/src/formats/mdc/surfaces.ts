/**
 * The surface chain, validated before anything is allocated for it: counts, every sub-block inside its own surface
 * (offsets relative to the surface's start, any order), and ofsEnd chaining the next surface inside the file's ofsEnd.
 *
 * R_LoadMDC itself checks none of the offsets: it copies ofsEnd bytes and draws from wherever they point. A block that
 * does not lie inside its surface is BAD_OFFSET here (assimp's InvalidFrameBaseOffset.mdc places its frame table 8
 * bytes before its surface and 8 base frames past the file's end: the engine would read the frame records before it
 * and, on a big-endian machine, byte-swap past its buffer). The surface ident is not checked: the engine overwrites it.
 */
import { latin1Field } from '../../base/binary.js';
import { ErrorCode, type ParseWarning } from '../../base/errors.js';
import {
  FRAME_INDEX_BYTES, H, HEADER_BYTES, QPATH_BYTES, S, SHADER_BYTES, ST_BYTES, SURFACE_HEADER_BYTES, TRIANGLE_BYTES,
  XYZ_COMPRESSED_BYTES, XYZ_NORMAL_BYTES,
} from './layout.js';
import { checkBlock, count, fail, fits, INT32_MAX, type MdcHeader } from './header.js';
import { MDC_LIMITS } from './limits.js';

/** Where one surface's parts are, as absolute byte offsets into the file. */
export interface MdcSurfaceLayout {
  start: number;
  numCompFrames: number;
  numBaseFrames: number;
  numShaders: number;
  numVerts: number;
  numTriangles: number;
  triangles: number;
  shaders: number;
  st: number;
  xyzNormals: number;
  xyzCompressed: number;
  frameBaseFrames: number;
  frameCompFrames: number;
}

export function mdcSurfaceLayouts(bytes: Uint8Array, header: MdcHeader, warnings: ParseWarning[]): MdcSurfaceLayout[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { ofsEnd, numFrames } = header;
  const out: MdcSurfaceLayout[] = [];
  let start = header.ofsSurfaces;
  let placedBy = H.ofsSurfaces;
  for (let i = 0; i < header.numSurfaces; i++) {
    const what = `surface ${i}`;
    checkBlock(placedBy, `${what}'s header`, start, SURFACE_HEADER_BYTES, HEADER_BYTES, ofsEnd);
    const named = `${what} ("${latin1Field(bytes, start + S.name, QPATH_BYTES)}")`;
    const numCompFrames = count(view, start + S.numCompFrames, `${what} numCompFrames`, 0, INT32_MAX);
    const numBaseFrames = count(view, start + S.numBaseFrames, `${what} numBaseFrames`, 0, INT32_MAX);
    const numShaders = count(view, start + S.numShaders, `${what} numShaders`, 0, INT32_MAX);
    const numVerts = count(view, start + S.numVerts, `${what} numVerts`, 0, MDC_LIMITS.shaderMaxVertexes);
    const numTriangles = count(view, start + S.numTriangles, `${what} numTriangles`, 0, Math.floor(MDC_LIMITS.shaderMaxIndexes / 3));
    if (numVerts > MDC_LIMITS.etShaderMaxVertexes) {
      warnings.push({ code: 'ENGINE_LIMIT', message: `${named} numVerts ${numVerts}: Enemy Territory 2.60 drops the game (R_LoadMDC: more than SHADER_MAX_VERTEXES ${MDC_LIMITS.etShaderMaxVertexes}); ET: Legacy loads it`, offset: start + S.numVerts });
    }
    if (numTriangles * 3 > MDC_LIMITS.etShaderMaxIndexes) {
      warnings.push({ code: 'ENGINE_LIMIT', message: `${named} numTriangles ${numTriangles}: Enemy Territory 2.60 drops the game (R_LoadMDC: more than SHADER_MAX_INDEXES ${MDC_LIMITS.etShaderMaxIndexes} / 3); ET: Legacy loads it`, offset: start + S.numTriangles });
    }
    const end = view.getInt32(start + S.ofsEnd, true);
    if (end < SURFACE_HEADER_BYTES || start + end > ofsEnd) {
      fail(ErrorCode.BadOffset, `${what} ofsEnd ${end} puts its end at ${start + end}, outside [${start + SURFACE_HEADER_BYTES}, ${ofsEnd}]`, start + S.ofsEnd);
    }
    const room = end - SURFACE_HEADER_BYTES;
    fits(start + S.numShaders, `${what} numShaders`, numShaders, SHADER_BYTES, room);
    fits(start + S.numBaseFrames, `${what} numBaseFrames`, numBaseFrames, numVerts * XYZ_NORMAL_BYTES, room);
    fits(start + S.numCompFrames, `${what} numCompFrames`, numCompFrames, numVerts * XYZ_COMPRESSED_BYTES, room);
    const lo = start + SURFACE_HEADER_BYTES;
    const hi = start + end;
    const sub = (field: number, name: string, length: number): number => {
      const at = start + view.getInt32(start + field, true);
      checkBlock(start + field, `${what} ${name}`, at, length, lo, hi);
      return at;
    };
    out.push({
      start,
      numCompFrames,
      numBaseFrames,
      numShaders,
      numVerts,
      numTriangles,
      triangles: sub(S.ofsTriangles, 'triangles', numTriangles * TRIANGLE_BYTES),
      shaders: sub(S.ofsShaders, 'shaders', numShaders * SHADER_BYTES),
      st: sub(S.ofsSt, 'st', numVerts * ST_BYTES),
      xyzNormals: sub(S.ofsXyzNormals, 'xyzNormals (base frames)', numVerts * numBaseFrames * XYZ_NORMAL_BYTES),
      xyzCompressed: sub(S.ofsXyzCompressed, 'xyzCompressed (compressed frames)', numVerts * numCompFrames * XYZ_COMPRESSED_BYTES),
      frameBaseFrames: sub(S.ofsFrameBaseFrames, 'frameBaseFrames', numFrames * FRAME_INDEX_BYTES),
      frameCompFrames: sub(S.ofsFrameCompFrames, 'frameCompFrames', numFrames * FRAME_INDEX_BYTES),
    });
    placedBy = start + S.ofsEnd;
    start = hi;
  }
  return out;
}

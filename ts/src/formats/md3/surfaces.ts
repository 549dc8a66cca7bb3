/**
 * The surface chain, validated before anything is allocated for it: each surface header's ident and counts, every
 * sub-block inside its own surface (offsets are relative to the surface's start), and `ofsEnd` chaining the next
 * surface inside the file's `ofsEnd`. Offsets may point anywhere (backwards too) as long as the block fits.
 *
 * Counts follow ioquake3's R_LoadMD3 (docs/limits.md): numVerts and numTriangles up to the format's caps
 * (MD3_MAX_VERTS, MD3_MAX_TRIANGLES; past them BAD_COUNT), numShaders unbounded but inside the surface; the engine
 * limits in between are ENGINE_LIMIT warnings. A surface may store more frames than the header (the engine draws the
 * header's and never reads the rest: SURFACE_FRAMES warning) but not fewer (the engine would draw those frames from
 * the bytes after the surface's vertices).
 */
import { latin1Field } from '../../base/binary.js';
import { ErrorCode, type ParseWarning } from '../../base/errors.js';
import { H, HEADER_BYTES, QPATH_BYTES, S, SHADER_BYTES, ST_BYTES, SURFACE_HEADER_BYTES, TRIANGLE_BYTES, XYZ_NORMAL_BYTES } from './layout.js';
import { md3SurfaceEngineWarnings } from './engine-limits.js';
import { checkBlock, checkIdent, count, fail, fits, INT32_MAX, type Md3Header } from './header.js';
import { MD3_LIMITS } from './limits.js';

/** Where one surface's parts are, as absolute byte offsets into the file. */
export interface SurfaceLayout {
  start: number;
  numShaders: number;
  numVerts: number;
  numTriangles: number;
  triangles: number;
  shaders: number;
  st: number;
  xyzNormals: number;
}

/** The surfaces' layouts; what is odd but readable about them is pushed onto `warnings`. */
export function surfaceLayouts(bytes: Uint8Array, header: Md3Header, warnings: ParseWarning[]): SurfaceLayout[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { ofsEnd, numFrames } = header;
  const L = MD3_LIMITS;
  const out: SurfaceLayout[] = [];
  let start = header.ofsSurfaces;
  /** The field that placed `start`: the header's ofsSurfaces, then each surface's ofsEnd. */
  let placedBy = H.ofsSurfaces;
  for (let i = 0; i < header.numSurfaces; i++) {
    const what = `surface ${i}`;
    checkBlock(placedBy, `${what}'s header`, start, SURFACE_HEADER_BYTES, HEADER_BYTES, ofsEnd);
    checkIdent(bytes, start + S.ident, what);
    const frames = view.getInt32(start + S.numFrames, true);
    if (frames < numFrames) {
      fail(ErrorCode.BadCount, `${what} has numFrames ${frames}, fewer than the header's ${numFrames}`, start + S.numFrames);
    }
    if (frames > numFrames) {
      warnings.push({
        code: 'SURFACE_FRAMES',
        message: `${what} has numFrames ${frames}, the header ${numFrames}: frames past the header's are ignored, as the engine never draws them`,
        offset: start + S.numFrames,
      });
    }
    const numShaders = count(view, start + S.numShaders, `${what} numShaders`, 0, INT32_MAX);
    const numVerts = count(view, start + S.numVerts, `${what} numVerts`, 0, L.maxVertsPerSurface);
    const numTriangles = count(view, start + S.numTriangles, `${what} numTriangles`, 0, L.maxTrianglesPerSurface);

    const end = view.getInt32(start + S.ofsEnd, true);
    if (end < SURFACE_HEADER_BYTES || start + end > ofsEnd) {
      fail(ErrorCode.BadOffset, `${what} ofsEnd ${end} puts its end at ${start + end}, outside [${start + SURFACE_HEADER_BYTES}, ${ofsEnd}]`, start + S.ofsEnd);
    }
    fits(start + S.numShaders, `${what} numShaders`, numShaders, SHADER_BYTES, end - SURFACE_HEADER_BYTES);
    // named too: the limits are what a modder fixes, in the surface they know by name
    const named = `${what} ("${latin1Field(bytes, start + S.name, QPATH_BYTES)}")`;
    warnings.push(...md3SurfaceEngineWarnings(named, start, numShaders, numVerts, numTriangles));
    const lo = start + SURFACE_HEADER_BYTES;
    const hi = start + end;
    const sub = (field: number, name: string, length: number): number => {
      const at = start + view.getInt32(start + field, true);
      checkBlock(start + field, `${what} ${name}`, at, length, lo, hi);
      return at;
    };
    out.push({
      start,
      numShaders,
      numVerts,
      numTriangles,
      triangles: sub(S.ofsTriangles, 'triangles', numTriangles * TRIANGLE_BYTES),
      shaders: sub(S.ofsShaders, 'shaders', numShaders * SHADER_BYTES),
      st: sub(S.ofsSt, 'st', numVerts * ST_BYTES),
      // All the frames the surface declares must be there (the engine byte-swaps every one); the header's are read.
      xyzNormals: sub(S.ofsXyzNormals, 'xyzNormals', numVerts * frames * XYZ_NORMAL_BYTES),
    });
    placedBy = start + S.ofsEnd;
    start = hi;
  }
  return out;
}

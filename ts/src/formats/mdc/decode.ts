/**
 * Bytes [0, ofsEnd) of a validated header → an {@link MdcModel}. Offsets and counts are validated first
 * (`mdcSurfaceLayouts`), so every allocation is bounded by bytes really in the file; records are then copied out with
 * their values checked: finite floats (BAD_NUMBER), triangle indices and the frame tables' entries
 * (INDEX_OUT_OF_RANGE: the engine would read a base or compressed frame outside its block).
 */
import { hostOrderCopy, latin1Field } from '../../base/binary.js';
import { ErrorCode, type ParseWarning } from '../../base/errors.js';
import { fail, type MdcHeader } from './header.js';
import { FRAME_BYTES, FRAME_NAME_BYTES, QPATH_BYTES, S, SHADER_BYTES, TAG_BYTES, TAG_NAME_BYTES } from './layout.js';
import type { MdcModel, MdcSurface } from './model.js';
import { mdcSurfaceLayouts, type MdcSurfaceLayout } from './surfaces.js';

function floats(view: DataView, at: number, n: number, out: Float32Array, o: number, what: string): void {
  for (let i = 0; i < n; i++) {
    const v = view.getFloat32(at + 4 * i, true);
    if (!Number.isFinite(v)) fail(ErrorCode.BadNumber, `${what} is ${v}`, at + 4 * i);
    out[o + i] = v;
  }
}

function surface(bytes: Uint8Array, view: DataView, s: MdcSurfaceLayout, frameCount: number, index: number): MdcSurface {
  const what = `surface ${index}`;
  const shaders: MdcSurface['shaders'] = [];
  for (let k = 0; k < s.numShaders; k++) {
    const at = s.shaders + k * SHADER_BYTES;
    shaders.push({ name: latin1Field(bytes, at, QPATH_BYTES), index: view.getInt32(at + QPATH_BYTES, true) });
  }
  const n = s.numTriangles * 3;
  const triangles = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = view.getInt32(s.triangles + 4 * i, true);
    if (v < 0 || v >= s.numVerts) fail(ErrorCode.IndexOutOfRange, `${what} triangle ${Math.floor(i / 3)} vertex ${v} outside 0..${s.numVerts - 1}`, s.triangles + 4 * i);
    triangles[i] = v;
  }
  const st = new Float32Array(s.numVerts * 2);
  floats(view, s.st, st.length, st, 0, `${what} st`);
  const frameBaseFrames = new Int16Array(frameCount);
  const frameCompFrames = new Int16Array(frameCount);
  for (let f = 0; f < frameCount; f++) {
    const b = view.getInt16(s.frameBaseFrames + 2 * f, true);
    // a surface without vertices reads no frame: its tables are never followed
    if (s.numVerts > 0 && (b < 0 || b >= s.numBaseFrames)) {
      fail(ErrorCode.IndexOutOfRange, `${what} frame ${f}'s base frame ${b} is outside 0..${s.numBaseFrames - 1}`, s.frameBaseFrames + 2 * f);
    }
    frameBaseFrames[f] = b;
    const c = view.getInt16(s.frameCompFrames + 2 * f, true);
    // the engine follows this table only when the surface has compressed frames, and a negative entry means "stored whole"
    if (s.numVerts > 0 && s.numCompFrames > 0 && c >= s.numCompFrames) {
      fail(ErrorCode.IndexOutOfRange, `${what} frame ${f}'s compressed frame ${c} is outside 0..${s.numCompFrames - 1}`, s.frameCompFrames + 2 * f);
    }
    frameCompFrames[f] = c;
  }
  return {
    ident: view.getInt32(s.start + S.ident, true),
    name: latin1Field(bytes, s.start + S.name, QPATH_BYTES),
    flags: view.getInt32(s.start + S.flags, true),
    numCompFrames: s.numCompFrames,
    numBaseFrames: s.numBaseFrames,
    vertexCount: s.numVerts,
    triangleCount: s.numTriangles,
    shaders,
    triangles,
    st,
    baseXyzNormals: hostOrderCopy(bytes, s.xyzNormals, s.numVerts * s.numBaseFrames * 4, Int16Array),
    compressed: hostOrderCopy(bytes, s.xyzCompressed, s.numVerts * s.numCompFrames, Uint32Array),
    frameBaseFrames,
    frameCompFrames,
  };
}

export function decodeMdc(bytes: Uint8Array, header: MdcHeader, received: number): MdcModel {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const warnings: ParseWarning[] = [];
  const layouts = mdcSurfaceLayouts(bytes, header, warnings);
  const F = header.numFrames;
  const T = header.numTags;
  const frameMins = new Float32Array(F * 3);
  const frameMaxs = new Float32Array(F * 3);
  const frameLocalOrigins = new Float32Array(F * 3);
  const frameRadii = new Float32Array(F);
  const frameNames: string[] = [];
  for (let f = 0; f < F; f++) {
    const at = header.ofsFrames + f * FRAME_BYTES;
    floats(view, at, 3, frameMins, f * 3, `frame ${f} mins`);
    floats(view, at + 12, 3, frameMaxs, f * 3, `frame ${f} maxs`);
    floats(view, at + 24, 3, frameLocalOrigins, f * 3, `frame ${f} localOrigin`);
    floats(view, at + 36, 1, frameRadii, f, `frame ${f} radius`);
    frameNames.push(latin1Field(bytes, at + 40, FRAME_NAME_BYTES));
  }
  const tagNames: string[] = [];
  for (let k = 0; k < T; k++) tagNames.push(latin1Field(bytes, header.ofsTagNames + k * TAG_NAME_BYTES, TAG_NAME_BYTES));
  const tagXyz = new Int16Array(F * T * 3);
  const tagAngles = new Int16Array(F * T * 3);
  for (let i = 0; i < F * T; i++) {
    const at = header.ofsTags + i * TAG_BYTES;
    for (let k = 0; k < 3; k++) {
      tagXyz[i * 3 + k] = view.getInt16(at + 2 * k, true);
      tagAngles[i * 3 + k] = view.getInt16(at + 6 + 2 * k, true);
    }
  }
  const surfaces = layouts.map((s, i) => surface(bytes, view, s, F, i));
  if (received > header.ofsEnd) {
    warnings.push({ code: 'TRAILING_BYTES', message: `${received - header.ofsEnd} byte(s) after ofsEnd ${header.ofsEnd} are ignored`, offset: header.ofsEnd });
  }
  return {
    format: 'mdc',
    version: header.version,
    name: header.name,
    flags: header.flags,
    frameCount: F,
    numSkins: header.numSkins,
    offsets: { frames: header.ofsFrames, tagNames: header.ofsTagNames, tags: header.ofsTags, surfaces: header.ofsSurfaces, end: header.ofsEnd },
    frameNames,
    frameMins,
    frameMaxs,
    frameLocalOrigins,
    frameRadii,
    tagCount: T,
    tagNames,
    tagXyz,
    tagAngles,
    surfaces,
    warnings,
  };
}

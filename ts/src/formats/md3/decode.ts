/**
 * Bytes [0, ofsEnd) of a validated header → an {@link Md3Model}. All offsets and counts are validated first
 * (`surfaceLayouts`), so every allocation here is bounded by bytes that are really in the file; the records are
 * then copied out with their values checked: finite floats (BAD_NUMBER), triangle indices (INDEX_OUT_OF_RANGE).
 *
 * Vertices stay int16 and the model owns every array (no view into the input), so a parsed model costs about as
 * many bytes as the file.
 */
import { ErrorCode, type ParseWarning } from '../../base/errors.js';
import type { Md3Model, Md3Surface } from '../../base/model.js';
import { FRAME_BYTES, FRAME_NAME_BYTES, QPATH_BYTES, S, SHADER_BYTES, TAG_BYTES } from './layout.js';
import { md3HeaderEngineWarnings } from './engine-limits.js';
import { fail, type Md3Header } from './header.js';
import { hostOrderCopy, latin1Field } from '../../base/binary.js';
import { surfaceLayouts, type SurfaceLayout } from './surfaces.js';

/** `n` little-endian float32 from `at` into `out[o…]`, each finite (BAD_NUMBER at its byte offset otherwise). */
function floats(view: DataView, at: number, n: number, out: Float32Array, o: number, what: string): void {
  for (let i = 0; i < n; i++) {
    const v = view.getFloat32(at + 4 * i, true);
    if (!Number.isFinite(v)) fail(ErrorCode.BadNumber, `${what} is ${v}`, at + 4 * i);
    out[o + i] = v;
  }
}

function surface(bytes: Uint8Array, view: DataView, s: SurfaceLayout, frameCount: number, index: number): Md3Surface {
  const what = `surface ${index}`;
  const shaders: Md3Surface['shaders'] = [];
  for (let k = 0; k < s.numShaders; k++) {
    const at = s.shaders + k * SHADER_BYTES;
    shaders.push({ name: latin1Field(bytes, at, QPATH_BYTES), index: view.getInt32(at + QPATH_BYTES, true) });
  }
  const n = s.numTriangles * 3;
  const triangles = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const v = view.getInt32(s.triangles + 4 * i, true);
    if (v < 0 || v >= s.numVerts) {
      fail(ErrorCode.IndexOutOfRange, `${what} triangle ${Math.floor(i / 3)} vertex ${v} outside 0..${s.numVerts - 1}`, s.triangles + 4 * i);
    }
    triangles[i] = v;
  }
  const st = new Float32Array(s.numVerts * 2);
  floats(view, s.st, st.length, st, 0, `${what} st`);
  return {
    name: latin1Field(bytes, s.start + S.name, QPATH_BYTES),
    flags: view.getInt32(s.start + S.flags, true),
    vertexCount: s.numVerts,
    triangleCount: s.numTriangles,
    shaders,
    triangles,
    st,
    xyzNormals: hostOrderCopy(bytes, s.xyzNormals, s.numVerts * frameCount * 4, Int16Array),
  };
}

/**
 * Decodes a file whose header is `header` (already validated) from `bytes`, which holds at least `header.ofsEnd`
 * bytes. `received` is the input's full length (bytes past ofsEnd → TRAILING_BYTES warning).
 */
export function decodeMd3(bytes: Uint8Array, header: Md3Header, received: number): Md3Model {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const warnings: ParseWarning[] = md3HeaderEngineWarnings(header);
  const layouts = surfaceLayouts(bytes, header, warnings);
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
  const tagOrigins = new Float32Array(F * T * 3);
  const tagAxes = new Float32Array(F * T * 9);
  const mismatchWarned = new Uint8Array(T);
  for (let f = 0; f < F; f++) {
    for (let k = 0; k < T; k++) {
      const i = f * T + k;
      const at = header.ofsTags + i * TAG_BYTES;
      const name = latin1Field(bytes, at, QPATH_BYTES);
      if (f === 0) tagNames.push(name);
      else if (name !== tagNames[k] && mismatchWarned[k] === 0) {
        mismatchWarned[k] = 1;
        warnings.push({
          code: 'TAG_NAME_MISMATCH',
          message: `tag ${k} of frame ${f} is named ${JSON.stringify(name)}, in frame 0 ${JSON.stringify(tagNames[k])} (frame 0's name is used)`,
          offset: at,
        });
      }
      floats(view, at + QPATH_BYTES, 3, tagOrigins, i * 3, `tag ${k} of frame ${f} origin`);
      floats(view, at + QPATH_BYTES + 12, 9, tagAxes, i * 9, `tag ${k} of frame ${f} axis`);
    }
  }

  const surfaces = layouts.map((s, i) => surface(bytes, view, s, F, i));

  if (received > header.ofsEnd) {
    warnings.push({
      code: 'TRAILING_BYTES',
      message: `${received - header.ofsEnd} byte(s) after ofsEnd ${header.ofsEnd} are ignored`,
      offset: header.ofsEnd,
    });
  }
  return {
    format: 'md3',
    version: header.version,
    name: header.name,
    flags: header.flags,
    frameCount: F,
    frameNames,
    frameMins,
    frameMaxs,
    frameLocalOrigins,
    frameRadii,
    tagCount: T,
    tagNames,
    tagOrigins,
    tagAxes,
    surfaces,
    warnings,
  };
}

/**
 * Md3Model → MD3 bytes (ioquake3 `qfiles.h` md3Header_t … md3XyzNormal_t, little-endian), laid out as the
 * engine's loader walks it: header, frames, tags (frame-major), then each surface — header, shaders, triangles,
 * st, xyzNormals — with every offset recomputed. The vertices and normals are written as stored (already int16,
 * ×1/64), so parse → write → parse gives the same model; the header's numSkins is written 0 (the engine ignores it).
 */
import type { Md3Model, Md3Surface } from '../../base/model.js';
import {
  FRAME_BYTES,
  FRAME_NAME_BYTES,
  H,
  HEADER_BYTES,
  MD3_IDENT,
  MD3_VERSION,
  QPATH_BYTES,
  S,
  SHADER_BYTES,
  ST_BYTES,
  SURFACE_HEADER_BYTES,
  TAG_BYTES,
  TRIANGLE_BYTES,
  XYZ_NORMAL_BYTES,
} from './layout.js';
import { refuseEngineLimits, type WriteOptions } from '../../write/engine-limits.js';
import { md3EngineLimits } from './write-limits.js';
import { ByteOut, need } from '../../write/out.js';

function surfaceBytes(s: Md3Surface, frames: number): number {
  return SURFACE_HEADER_BYTES + s.shaders.length * SHADER_BYTES + s.triangleCount * TRIANGLE_BYTES +
    s.vertexCount * (ST_BYTES + frames * XYZ_NORMAL_BYTES);
}

function ident(out: ByteOut, at: number): void {
  for (let i = 0; i < 4; i++) out.bytes[at + i] = MD3_IDENT.charCodeAt(i);
}

/**
 * The MD3 file of `model`. UNWRITABLE for a name longer than its field or arrays shorter than the counts, and with
 * `validate` for a file ioquake3 will not load (engine-limits.ts).
 */
export function writeMd3(model: Md3Model, options: WriteOptions = {}): Uint8Array {
  const F = model.frameCount;
  const T = model.tagCount;
  need('frameMins', model.frameMins, 3 * F);
  need('frameMaxs', model.frameMaxs, 3 * F);
  need('frameLocalOrigins', model.frameLocalOrigins, 3 * F);
  need('frameRadii', model.frameRadii, F);
  need('tagOrigins', model.tagOrigins, 3 * T * F);
  need('tagAxes', model.tagAxes, 9 * T * F);
  const ofsFrames = HEADER_BYTES;
  const ofsTags = ofsFrames + F * FRAME_BYTES;
  const ofsSurfaces = ofsTags + F * T * TAG_BYTES;
  let size = ofsSurfaces;
  for (const s of model.surfaces) size += surfaceBytes(s, F);
  const out = new ByteOut(size);

  ident(out, H.ident);
  out.i32(H.version, MD3_VERSION);
  out.name(H.name, QPATH_BYTES, model.name, 'the model name');
  out.i32(H.flags, model.flags);
  out.i32(H.numFrames, F);
  out.i32(H.numTags, T);
  out.i32(H.numSurfaces, model.surfaces.length);
  out.i32(H.numSkins, 0);
  out.i32(H.ofsFrames, ofsFrames);
  out.i32(H.ofsTags, ofsTags);
  out.i32(H.ofsSurfaces, ofsSurfaces);
  out.i32(H.ofsEnd, size);

  for (let f = 0; f < F; f++) {
    const at = ofsFrames + f * FRAME_BYTES;
    for (let k = 0; k < 3; k++) {
      out.f32(at + 4 * k, model.frameMins[3 * f + k]);
      out.f32(at + 12 + 4 * k, model.frameMaxs[3 * f + k]);
      out.f32(at + 24 + 4 * k, model.frameLocalOrigins[3 * f + k]);
    }
    out.f32(at + 36, model.frameRadii[f]);
    out.name(at + 40, FRAME_NAME_BYTES, model.frameNames[f] ?? '', `frame ${f} name`);
  }
  for (let f = 0; f < F; f++) {
    for (let t = 0; t < T; t++) {
      const i = f * T + t;
      const at = ofsTags + i * TAG_BYTES;
      out.name(at, QPATH_BYTES, model.tagNames[t], `tag ${t} name`);
      for (let k = 0; k < 3; k++) out.f32(at + 64 + 4 * k, model.tagOrigins[3 * i + k]);
      for (let k = 0; k < 9; k++) out.f32(at + 76 + 4 * k, model.tagAxes[9 * i + k]);
    }
  }

  let start = ofsSurfaces;
  model.surfaces.forEach((s, n) => {
    const what = `surface ${n}`;
    need(`${what} triangles`, s.triangles, 3 * s.triangleCount);
    need(`${what} st`, s.st, 2 * s.vertexCount);
    need(`${what} xyzNormals`, s.xyzNormals, 4 * s.vertexCount * F);
    const ofsShaders = SURFACE_HEADER_BYTES;
    const ofsTriangles = ofsShaders + s.shaders.length * SHADER_BYTES;
    const ofsSt = ofsTriangles + s.triangleCount * TRIANGLE_BYTES;
    const ofsXyz = ofsSt + s.vertexCount * ST_BYTES;
    const end = ofsXyz + s.vertexCount * F * XYZ_NORMAL_BYTES;
    ident(out, start + S.ident);
    out.name(start + S.name, QPATH_BYTES, s.name, `${what} name`);
    out.i32(start + S.flags, s.flags);
    out.i32(start + S.numFrames, F);
    out.i32(start + S.numShaders, s.shaders.length);
    out.i32(start + S.numVerts, s.vertexCount);
    out.i32(start + S.numTriangles, s.triangleCount);
    out.i32(start + S.ofsTriangles, ofsTriangles);
    out.i32(start + S.ofsShaders, ofsShaders);
    out.i32(start + S.ofsSt, ofsSt);
    out.i32(start + S.ofsXyzNormals, ofsXyz);
    out.i32(start + S.ofsEnd, end);
    s.shaders.forEach((sh, k) => {
      const at = start + ofsShaders + k * SHADER_BYTES;
      out.name(at, QPATH_BYTES, sh.name, `${what} shader ${k}`);
      out.i32(at + QPATH_BYTES, sh.index);
    });
    for (let i = 0; i < 3 * s.triangleCount; i++) out.i32(start + ofsTriangles + 4 * i, s.triangles[i]);
    for (let i = 0; i < 2 * s.vertexCount; i++) out.f32(start + ofsSt + 4 * i, s.st[i]);
    for (let i = 0; i < 4 * s.vertexCount * F; i++) out.i16(start + ofsXyz + 2 * i, s.xyzNormals[i]);
    start += end;
  });
  if (options.validate) refuseEngineLimits(md3EngineLimits(out.bytes), 'ioquake3');
  return out.bytes;
}

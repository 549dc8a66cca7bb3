/**
 * MdlModel → MDL bytes (modelgen.h: mdl_t, then the skins, st vertices, triangles and frames, one after another,
 * little-endian), in the variant the model says: IDPO, QuakeForge's MD16 (each pose followed by its low bytes) or
 * Hexen II's RAPO (num_st_verts, triangles with their own st indices). Every field is written as stored — skin and
 * frame record types, group intervals and bounds, pose bounds and names, onseam, facesfront, the vertices' bytes —
 * so parse → write → parse gives the same model. A trailing block (the re-release's QMEX) is only a fact of the
 * parsed model and is not written.
 *
 * UNWRITABLE for what the layout cannot hold: a pose name past its 16 bytes, arrays shorter than the counts, an IDPO
 * whose triangles index st apart from positions (only RAPO can say that), a group of no pose, a single-frame record
 * of several poses; with `validate`, for a file some engine refuses (the reader's ENGINE_LIMIT warnings).
 */
import type { MdlModel } from '../../base/model.js';
import { parseMdl } from './parser.js';
import {
  MDL_FIELD as F,
  MDL_FRAME_GROUP_BYTES,
  MDL_HEADER_BYTES,
  MDL_IDENT,
  MDL_POSE_HEADER_BYTES,
  MDL_POSE_NAME_BYTES,
  MDL_ST_BYTES,
  MDL_TRIANGLE_BYTES,
  MDL_VERTEX_BYTES,
  RAPO_HEADER_BYTES,
} from './limits.js';
import { refuseEngineLimits, type WriteOptions } from '../../write/engine-limits.js';
import { ByteOut, need, unwritable } from '../../write/out.js';

/** The file's size, record by record (the layout the reader walks). */
function fileSize(m: MdlModel): number {
  const picture = m.skinWidth * m.skinHeight;
  const pose = MDL_POSE_HEADER_BYTES + m.vertexCount * MDL_VERTEX_BYTES * (m.variant === 'MD16' ? 2 : 1);
  let n = m.variant === 'RAPO' ? RAPO_HEADER_BYTES : MDL_HEADER_BYTES;
  for (const s of m.skins) n += s.type === 0 ? 4 + picture : 8 + 4 * s.pictureCount + s.pictureCount * picture;
  n += m.stCount * MDL_ST_BYTES + m.triangleCount * MDL_TRIANGLE_BYTES;
  for (const f of m.frames) n += f.type === 0 ? 4 + pose : 4 + MDL_FRAME_GROUP_BYTES + 4 * f.poseCount + f.poseCount * pose;
  return n;
}

function check(m: MdlModel): void {
  need('frameVertices', m.frameVertices, 4 * m.vertexCount * m.poseCount);
  if (m.variant === 'MD16') need('frameVerticesLow', m.frameVerticesLow ?? [], 4 * m.vertexCount * m.poseCount);
  need('skinPixels', m.skinPixels, m.pictureCount * m.skinWidth * m.skinHeight);
  need('onseam', m.onseam, m.stCount);
  need('st', m.st, 2 * m.stCount);
  need('facesFront', m.facesFront, m.triangleCount);
  need('triangleVertexIndices', m.triangleVertexIndices, 3 * m.triangleCount);
  need('triangleStIndices', m.triangleStIndices, 3 * m.triangleCount);
  need('poseBoundsMin', m.poseBoundsMin, 4 * m.poseCount);
  need('poseBoundsMax', m.poseBoundsMax, 4 * m.poseCount);
  if (m.skins.length === 0 && m.pictureCount > 0) unwritable(`${m.pictureCount} pictures but no skin record`);
  if (m.frames.length === 0) unwritable('no frame record: every engine refuses a model with no frames');
  if (m.variant !== 'RAPO') {
    if (m.stCount !== m.vertexCount) unwritable(`${m.stCount} st vertices for ${m.vertexCount} vertices: only RAPO stores st apart from positions`);
    for (let c = 0; c < 3 * m.triangleCount; c++) {
      if (m.triangleStIndices[c] !== m.triangleVertexIndices[c]) unwritable(`triangle ${Math.floor(c / 3)} indexes st ${m.triangleStIndices[c]} apart from vertex ${m.triangleVertexIndices[c]}: only RAPO can say that (${m.variant} indexes st with the vertex)`);
    }
  }
  let pose = 0;
  m.frames.forEach((f, i) => {
    if (f.firstPose !== pose) unwritable(`frame ${i} starts at pose ${f.firstPose}, not ${pose}: frames hold consecutive poses`);
    if (f.poseCount < 1) unwritable(`frame ${i} holds no pose`);
    if (f.type === 0 && f.poseCount !== 1) unwritable(`frame ${i} is a single frame (type 0) of ${f.poseCount} poses`);
    pose += f.poseCount;
  });
  if (pose !== m.poseCount) unwritable(`the frames hold ${pose} poses, poseCount is ${m.poseCount}`);
}

/** The MDL file of `model`. */
export function writeMdl(model: MdlModel, options: WriteOptions = {}): Uint8Array {
  check(model);
  const m = model;
  const out = new ByteOut(fileSize(m));
  const V = m.vertexCount, block = V * MDL_VERTEX_BYTES, picture = m.skinWidth * m.skinHeight;
  out.i32(F.ident, MDL_IDENT[m.variant]);
  out.i32(F.version, m.version);
  for (let k = 0; k < 3; k++) {
    out.f32(F.scale + 4 * k, m.scale[k]);
    out.f32(F.origin + 4 * k, m.origin[k]);
    out.f32(F.eyePosition + 4 * k, m.eyePosition[k]);
  }
  out.f32(F.radius, m.radius);
  out.i32(F.skinCount, m.skins.length);
  out.i32(F.skinWidth, m.skinWidth);
  out.i32(F.skinHeight, m.skinHeight);
  out.i32(F.vertexCount, V);
  out.i32(F.triangleCount, m.triangleCount);
  out.i32(F.frameCount, m.frames.length);
  out.i32(F.synctype, m.synctype);
  out.i32(F.flags, m.flags);
  out.f32(F.size, m.size);
  let at = MDL_HEADER_BYTES;
  if (m.variant === 'RAPO') {
    out.i32(F.stCount, m.stCount);
    at = RAPO_HEADER_BYTES;
  }
  for (const s of m.skins) {
    out.i32(at, s.type);
    at += 4;
    if (s.type !== 0) {
      out.i32(at, s.pictureCount);
      at += 4;
      for (let j = 0; j < s.pictureCount; j++, at += 4) out.f32(at, s.intervals[j] ?? 0);
    } else if (s.pictureCount !== 1) unwritable(`skin record of type 0 with ${s.pictureCount} pictures`, at - 4);
    out.bytes.set(m.skinPixels.subarray(s.firstPicture * picture, (s.firstPicture + s.pictureCount) * picture), at);
    at += s.pictureCount * picture;
  }
  for (let i = 0; i < m.stCount; i++, at += MDL_ST_BYTES) {
    out.i32(at, m.onseam[i]);
    out.i32(at + 4, m.st[2 * i]);
    out.i32(at + 8, m.st[2 * i + 1]);
  }
  for (let t = 0; t < m.triangleCount; t++, at += MDL_TRIANGLE_BYTES) {
    out.i32(at, m.facesFront[t]);
    for (let k = 0; k < 3; k++) {
      if (m.variant === 'RAPO') {
        out.view.setUint16(at + 4 + 2 * k, m.triangleVertexIndices[3 * t + k], true);
        out.view.setUint16(at + 10 + 2 * k, m.triangleStIndices[3 * t + k], true);
      } else out.i32(at + 4 + 4 * k, m.triangleVertexIndices[3 * t + k]);
    }
  }
  const writePose = (p: number) => {
    out.bytes.set(m.poseBoundsMin.subarray(4 * p, 4 * p + 4), at);
    out.bytes.set(m.poseBoundsMax.subarray(4 * p, 4 * p + 4), at + 4);
    out.name(at + 8, MDL_POSE_NAME_BYTES, m.poseNames[p] ?? '', `pose ${p} name`);
    at += MDL_POSE_HEADER_BYTES;
    out.bytes.set(m.frameVertices.subarray(p * block, (p + 1) * block), at);
    at += block;
    if (m.variant === 'MD16') {
      out.bytes.set(m.frameVerticesLow!.subarray(p * block, (p + 1) * block), at);
      at += block;
    }
  };
  for (const f of m.frames) {
    out.i32(at, f.type);
    at += 4;
    if (f.type === 0) {
      writePose(f.firstPose);
      continue;
    }
    out.i32(at, f.poseCount);
    out.bytes.set(f.boundsMin.subarray(0, 4), at + 4);
    out.bytes.set(f.boundsMax.subarray(0, 4), at + 8);
    at += MDL_FRAME_GROUP_BYTES;
    for (let j = 0; j < f.poseCount; j++, at += 4) out.f32(at, f.intervals[j] ?? 0);
    for (let j = 0; j < f.poseCount; j++) writePose(f.firstPose + j);
  }
  if (options.validate) refuseEngineLimits(mdlEngineLimits(out.bytes), 'a Quake engine');
  return out.bytes;
}

/** The engines' limits the MDL `bytes` go past (the reader's ENGINE_LIMIT warnings; empty when every engine read loads it). */
export function mdlEngineLimits(bytes: Uint8Array) {
  return parseMdl(bytes).warnings.filter((w) => w.code === 'ENGINE_LIMIT');
}

/**
 * Md2Model → MD2 bytes (Quake 2 `qcommon/qfiles.h` dmdl_t, little-endian), in qdata's block order: header, skins,
 * st, triangles, frames, glcmds — every offset and framesize recomputed. Frames are written as stored (bytes,
 * normal indices, per-frame scale and translate), so parse → write → parse gives the same model.
 *
 * The glcmd block is what Quake 2 draws from (gl_mesh.c GL_DrawAliasFrameLerp walks only the glcmds), so a model
 * without one (`glCommands: null`: absent or unusable in the file it came from) gets one built: strips and fans
 * grown greedily as qdata did (`md2-glcmds.ts`), s and t as qdata computes them, (pixel + 0.5) / skin size.
 */
import { Md2GlKind, type Md2GlCommands, type Md2Model } from '../../base/model.js';
import { latin1Field } from '../../base/binary.js';
import { HEADER_FIELD as HF, MD2_VERSION } from './header.js';
import {
  LIMITS,
  MD2_FRAME_HEADER_BYTES,
  MD2_FRAME_NAME_BYTES,
  MD2_GLCMD_VERTEX_BYTES,
  MD2_HEADER_BYTES,
  MD2_ST_BYTES,
  MD2_TRIANGLE_BYTES,
  MD2_VERTEX_BYTES,
} from './limits.js';
import { refuseEngineLimits, type WriteOptions } from '../../write/engine-limits.js';
import { md2EngineLimits } from './write-limits.js';
import { glcmdSt, md2GlCommands } from './write-glcmds.js';
import { ByteOut, need } from '../../write/out.js';

/** One strip of 3 per triangle: the glcmds qdata would write with no stripping (covers every triangle once; the baseline `md2GlCommands` is measured against). */
export function md2TriangleGlCommands(model: Md2Model): Md2GlCommands {
  const n = model.triangleCount;
  const st = new Float32Array(6 * n);
  const vertices = new Uint16Array(3 * n);
  const firstVertex = new Uint32Array(n + 1);
  for (let i = 0; i < 3 * n; i++) {
    vertices[i] = model.trianglePositionIndices[i];
    glcmdSt(model, model.triangleStIndices[i], st, 2 * i);
  }
  for (let c = 0; c <= n; c++) firstVertex[c] = 3 * c;
  return { commandCount: n, kinds: new Uint8Array(n).fill(Md2GlKind.Strip), firstVertex, vertices, st };
}

/**
 * The MD2 file of `model`. UNWRITABLE for a name longer than its field or arrays shorter than the counts, and with
 * `validate` for a file Quake 2 will not load (engine-limits.ts).
 */
export function writeMd2(model: Md2Model, options: WriteOptions = {}): Uint8Array {
  const V = model.vertexCount;
  const F = model.frameCount;
  need('frameScales', model.frameScales, 3 * F);
  need('frameTranslates', model.frameTranslates, 3 * F);
  need('frameVertices', model.frameVertices, 4 * V * F);
  need('st', model.st, 2 * model.stCount);
  need('trianglePositionIndices', model.trianglePositionIndices, 3 * model.triangleCount);
  need('triangleStIndices', model.triangleStIndices, 3 * model.triangleCount);
  const gl = model.glCommands ?? md2GlCommands(model);
  const glVertices = gl.firstVertex[gl.commandCount];
  const glWords = gl.commandCount + glVertices * (MD2_GLCMD_VERTEX_BYTES / 4) + 1;

  const frameSize = MD2_FRAME_HEADER_BYTES + V * MD2_VERTEX_BYTES;
  const skinsOffset = MD2_HEADER_BYTES;
  const stOffset = skinsOffset + model.skins.length * LIMITS.skinNameBytes;
  const trianglesOffset = stOffset + model.stCount * MD2_ST_BYTES;
  const framesOffset = trianglesOffset + model.triangleCount * MD2_TRIANGLE_BYTES;
  const glOffset = framesOffset + F * frameSize;
  const end = glOffset + 4 * glWords;
  const out = new ByteOut(end);

  out.i32(HF.ident, 0x32504449);
  out.i32(HF.version, MD2_VERSION);
  out.i32(HF.skinWidth, model.skinWidth);
  out.i32(HF.skinHeight, model.skinHeight);
  out.i32(HF.frameSize, frameSize);
  out.i32(HF.skinCount, model.skins.length);
  out.i32(HF.vertexCount, V);
  out.i32(HF.stCount, model.stCount);
  out.i32(HF.triangleCount, model.triangleCount);
  out.i32(HF.glCommandWords, glWords);
  out.i32(HF.frameCount, F);
  out.i32(HF.skinsOffset, skinsOffset);
  out.i32(HF.stOffset, stOffset);
  out.i32(HF.trianglesOffset, trianglesOffset);
  out.i32(HF.framesOffset, framesOffset);
  out.i32(HF.glCommandsOffset, glOffset);
  out.i32(HF.endOffset, end);

  model.skins.forEach((skin, i) => {
    const at = skinsOffset + i * LIMITS.skinNameBytes;
    // The record as stored when it still says the same name (keeps the exporter's bytes after the NUL).
    if (skin.bytes?.length === LIMITS.skinNameBytes && latin1Field(skin.bytes, 0, LIMITS.skinNameBytes) === skin.name) {
      out.bytes.set(skin.bytes, at);
    } else {
      out.name(at, LIMITS.skinNameBytes, skin.name, `skin ${i} name`);
    }
  });
  for (let i = 0; i < 2 * model.stCount; i++) out.i16(stOffset + 2 * i, model.st[i]);
  for (let t = 0; t < model.triangleCount; t++) {
    const at = trianglesOffset + t * MD2_TRIANGLE_BYTES;
    for (let k = 0; k < 3; k++) {
      out.i16(at + 2 * k, model.trianglePositionIndices[3 * t + k]);
      out.i16(at + 6 + 2 * k, model.triangleStIndices[3 * t + k]);
    }
  }
  for (let f = 0; f < F; f++) {
    const at = framesOffset + f * frameSize;
    for (let k = 0; k < 3; k++) {
      out.f32(at + 4 * k, model.frameScales[3 * f + k]);
      out.f32(at + 12 + 4 * k, model.frameTranslates[3 * f + k]);
    }
    out.name(at + 24, MD2_FRAME_NAME_BYTES, model.frameNames[f] ?? '', `frame ${f} name`);
    out.bytes.set(model.frameVertices.subarray(4 * V * f, 4 * V * (f + 1)), at + MD2_FRAME_HEADER_BYTES);
  }
  let at = glOffset;
  for (let c = 0; c < gl.commandCount; c++) {
    const a = gl.firstVertex[c];
    const b = gl.firstVertex[c + 1];
    out.i32(at, gl.kinds[c] === Md2GlKind.Fan ? -(b - a) : b - a);
    at += 4;
    for (let v = a; v < b; v++, at += MD2_GLCMD_VERTEX_BYTES) {
      out.f32(at, gl.st[2 * v]);
      out.f32(at + 4, gl.st[2 * v + 1]);
      out.i32(at + 8, gl.vertices[v]);
    }
  }
  out.i32(at, 0);
  if (options.validate) refuseEngineLimits(md2EngineLimits(out.bytes), 'Quake 2');
  return out.bytes;
}

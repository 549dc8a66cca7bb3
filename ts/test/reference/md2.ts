/**
 * Reference decoders of MD2 frames, in plain TS: the independent check the morph kernels (WASM and TS) are tested
 * against, written from the format (qfiles.h: position = byte · scale + translate; normal = anorms.h entry), not
 * shipped. Positions are computed in double and rounded once to float32 — the correctly rounded value. (Rounding the
 * product first, as a float32 kernel does, is off by up to an ulp of the translate: 3e-5 on a 2-unit coordinate of
 * dolphin.md2, whose translates are large.)
 */
import type { Md2Model } from '../../src/base/model.js';
import { MD2_NORMALS } from '../../src/kernels/quake-normals.js';

function frameChecked(model: Md2Model, frame: number): void {
  if (!Number.isInteger(frame) || frame < 0 || frame >= model.frameCount) {
    throw new RangeError(`frame ${frame} is not in [0, ${model.frameCount})`);
  }
}

function outChecked(out: Float32Array | undefined, length: number): Float32Array {
  if (!out) return new Float32Array(length);
  if (out.length < length) throw new RangeError(`out has ${out.length} floats, ${length} needed`);
  return out;
}

/** Positions of `frame`, 3 floats per vertex in file order: byte · scale + translate. */
export function md2FramePositions(model: Md2Model, frame: number, out?: Float32Array): Float32Array {
  frameChecked(model, frame);
  const n = model.vertexCount;
  const p = outChecked(out, n * 3);
  const v = model.frameVertices;
  const sx = model.frameScales[frame * 3];
  const sy = model.frameScales[frame * 3 + 1];
  const sz = model.frameScales[frame * 3 + 2];
  const tx = model.frameTranslates[frame * 3];
  const ty = model.frameTranslates[frame * 3 + 1];
  const tz = model.frameTranslates[frame * 3 + 2];
  for (let i = 0, b = frame * n * 4; i < n; i++, b += 4) {
    p[i * 3] = v[b] * sx + tx;
    p[i * 3 + 1] = v[b + 1] * sy + ty;
    p[i * 3 + 2] = v[b + 2] * sz + tz;
  }
  return p;
}

/** Normals of `frame`, 3 floats per vertex: the table entries the file's normal indices name. */
export function md2FrameNormals(model: Md2Model, frame: number, out?: Float32Array): Float32Array {
  frameChecked(model, frame);
  const n = model.vertexCount;
  const o = outChecked(out, n * 3);
  const v = model.frameVertices;
  for (let i = 0, b = frame * n * 4 + 3; i < n; i++, b += 4) {
    const k = v[b] * 3;
    o[i * 3] = MD2_NORMALS[k];
    o[i * 3 + 1] = MD2_NORMALS[k + 1];
    o[i * 3 + 2] = MD2_NORMALS[k + 2];
  }
  return o;
}


/**
 * Reference decoders of MD3 vertices, in plain TS: the independent check the morph kernels (WASM and TS) are tested
 * against, not shipped.
 * Formulas from GROUND-TRUTH.md / ioquake3 `tr_surface.c` LerpMeshVertexes: position = int16 × 1/64; packed normal
 * n → lat = (n >> 8) & 255, lng = n & 255, angles = byte × 2π/256, normal = (cos lat · sin lng, sin lat · sin lng,
 * cos lng). Between two frames: positions lerped, normals decoded, lerped and renormalised.
 */
import type { Md3Model, Md3Surface } from '../../src/base/model.js';

/** Positions are stored as int16 × 64 (ioquake3 qfiles.h MD3_XYZ_SCALE), written out here independently of the kernels. */
const MD3_XYZ_SCALE = 1 / 64;

const ANGLE = (2 * Math.PI) / 256;

/** Decodes a packed lat/lng normal (the 4th int16 of a vertex) into `out[offset…offset + 2]`. */
export function decodeMd3Normal(packed: number, out: Float32Array | number[], offset = 0): void {
  const lat = ((packed >> 8) & 255) * ANGLE;
  const lng = (packed & 255) * ANGLE;
  const s = Math.sin(lng);
  out[offset] = Math.cos(lat) * s;
  out[offset + 1] = Math.sin(lat) * s;
  out[offset + 2] = Math.cos(lng);
}

/** Float positions and normals of one surface, 3 per vertex. */
export interface Md3FramePose {
  positions: Float32Array;
  normals: Float32Array;
}

function surfaceOf(model: Md3Model, surface: Md3Surface | number): Md3Surface {
  if (typeof surface !== 'number') return surface;
  const s = model.surfaces[surface];
  if (s === undefined) throw new RangeError(`surface ${surface} outside 0..${model.surfaces.length - 1}`);
  return s;
}

/** RangeError unless `frame` is one of the model's frames (the vertex decoders and `lerpTag`). */
export function checkFrame(model: Md3Model, frame: number): void {
  if (!Number.isInteger(frame) || frame < 0 || frame >= model.frameCount) {
    throw new RangeError(`frame ${frame} outside 0..${model.frameCount - 1}`);
  }
}

function poseBuffers(vertexCount: number, out?: Md3FramePose): Md3FramePose {
  const n = vertexCount * 3;
  if (out && out.positions.length >= n && out.normals.length >= n) return out;
  return { positions: new Float32Array(n), normals: new Float32Array(n) };
}

/** Positions and normals of `surface` (object or index) at `frame`; reuses `out` when it is large enough. */
export function md3FramePositions(model: Md3Model, surface: Md3Surface | number, frame: number, out?: Md3FramePose): Md3FramePose {
  return md3LerpFramePositions(model, surface, frame, frame, 0, out);
}

/**
 * Positions and normals of `surface` blended between `frameA` (t = 0) and `frameB` (t = 1). Where the two
 * normals cancel (opposite directions at t = 0.5), the nearer frame's normal is kept rather than a zero vector.
 */
export function md3LerpFramePositions(
  model: Md3Model, surface: Md3Surface | number, frameA: number, frameB: number, t: number, out?: Md3FramePose,
): Md3FramePose {
  const s = surfaceOf(model, surface);
  checkFrame(model, frameA);
  checkFrame(model, frameB);
  const pose = poseBuffers(s.vertexCount, out);
  const { positions, normals } = pose;
  const xyz = s.xyzNormals;
  const ka = (1 - t) * MD3_XYZ_SCALE;
  const kb = t * MD3_XYZ_SCALE;
  const na = [0, 0, 0];
  const nb = [0, 0, 0];
  let a = frameA * s.vertexCount * 4;
  let b = frameB * s.vertexCount * 4;
  for (let v = 0, o = 0; v < s.vertexCount; v++, o += 3, a += 4, b += 4) {
    positions[o] = xyz[a] * ka + xyz[b] * kb;
    positions[o + 1] = xyz[a + 1] * ka + xyz[b + 1] * kb;
    positions[o + 2] = xyz[a + 2] * ka + xyz[b + 2] * kb;
    decodeMd3Normal(xyz[a + 3], na);
    if (a === b || t === 0) {
      normals[o] = na[0];
      normals[o + 1] = na[1];
      normals[o + 2] = na[2];
      continue;
    }
    decodeMd3Normal(xyz[b + 3], nb);
    const x = na[0] * (1 - t) + nb[0] * t;
    const y = na[1] * (1 - t) + nb[1] * t;
    const z = na[2] * (1 - t) + nb[2] * t;
    const len = Math.hypot(x, y, z);
    const keep = t < 0.5 ? na : nb;
    normals[o] = len > 1e-6 ? x / len : keep[0];
    normals[o + 1] = len > 1e-6 ? y / len : keep[1];
    normals[o + 2] = len > 1e-6 ? z / len : keep[2];
  }
  return pose;
}

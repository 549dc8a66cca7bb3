/**
 * An MDC decoded as the engine draws it, into the MD3 data shape (`Md3Model`), once: every MD3 door (the MD3
 * poser and its WASM/TS kernels, glTF and OBJ export, tags, the three.js adapter, the viewer) then takes it unchanged.
 *
 * Per frame and surface, as ET: Legacy's LerpCMeshVertexes (`tr_surface.c`): the frame's base frame
 * (frameBaseFrames[f]) gives int16 positions in 1/64 units and a packed lat/lng normal; if the surface has
 * compressed frames and frameCompFrames[f] ≥ 0, the compressed word adds ((byte − MDC_MAX_OFS) × MDC_DIST_SCALE) on
 * each axis (R_MDC_DecodeXyzCompressed) and its top byte picks the normal from the 256-entry table instead.
 *
 * MD3 keeps positions on the 1/64 grid: a compressed frame's position (base + k × 0.05) is rounded to the nearest
 * 1/64, at most 1/128 unit off on each axis; its table normal is re-packed to MD3's lat/lng (within one 256th of a
 * turn). A base frame is copied exactly. Tags: origin × 1/64, angles × MDC_TAG_ANGLE_SCALE degrees turned into
 * axes as the engine's AnglesToAxis (R_LerpTag).
 *
 * What this makes is bounded before it is allocated: vertices × frames × 8 bytes over the surfaces, at most
 * `maxMdcFrameBytes` (a few bytes of frame table can name a frame of every vertex).
 */
import type { Md3Model, Md3Surface } from '../../base/model.js';
import { overLimit, resourceLimits } from '../../base/resource-limits.js';
import { H, MDC_MAX_OFS, MDC_TAG_ANGLE_SCALE, XYZ_SCALE } from './layout.js';
import type { MdcModel, MdcSurface } from './model.js';
import { mdcNormalTable, packLatLng } from './normals.js';

const cache = new WeakMap<MdcModel, Md3Model>();

/** MDC_DIST_SCALE / XYZ_SCALE: one compressed step in 1/64 units (a literal: top-level arithmetic is work a bundler keeps). */
const STEP = 3.2;

/** Bytes the decoded frames take (vertices × frames × 8), the figure `maxMdcFrameBytes` bounds. */
export function mdcFrameBytes(m: MdcModel): number {
  let n = 0;
  for (const s of m.surfaces) n += s.vertexCount * m.frameCount * 8;
  return n;
}

/** The 256 table normals packed as MD3 lat/lng (built once). */
let packed: Uint16Array | null = null;
function packedTable(): Uint16Array {
  if (packed) return packed;
  const t = mdcNormalTable();
  const out = new Uint16Array(256);
  for (let i = 0; i < 256; i++) out[i] = packLatLng(t[i * 3], t[i * 3 + 1], t[i * 3 + 2]);
  return (packed = out);
}

function clampInt16(v: number): number {
  return v < -32768 ? -32768 : v > 32767 ? 32767 : v;
}

/** One surface's frames decoded into MD3's frame-major int16 records. */
export function decodeSurfaceFrames(s: MdcSurface, frameCount: number): Int16Array {
  const nv = s.vertexCount;
  const out = new Int16Array(nv * frameCount * 4);
  const normals = packedTable();
  const hasComp = s.numCompFrames > 0;
  for (let f = 0; f < frameCount; f++) {
    const base = s.frameBaseFrames[f] * nv * 4;
    const comp = hasComp ? s.frameCompFrames[f] : -1;
    const o = f * nv * 4;
    if (comp < 0) {
      out.set(s.baseXyzNormals.subarray(base, base + nv * 4), o);
      continue;
    }
    const c0 = comp * nv;
    for (let v = 0; v < nv; v++) {
      const w = s.compressed[c0 + v];
      const b = base + v * 4;
      const d = o + v * 4;
      out[d] = clampInt16(s.baseXyzNormals[b] + Math.round(((w & 255) - MDC_MAX_OFS) * STEP));
      out[d + 1] = clampInt16(s.baseXyzNormals[b + 1] + Math.round((((w >>> 8) & 255) - MDC_MAX_OFS) * STEP));
      out[d + 2] = clampInt16(s.baseXyzNormals[b + 2] + Math.round((((w >>> 16) & 255) - MDC_MAX_OFS) * STEP));
      out[d + 3] = normals[w >>> 24];
    }
  }
  return out;
}

/**
 * A tag's angles (degrees: pitch, yaw, roll) → axis[0] forward, axis[1] left, axis[2] up, 9 floats at `out[o…]`:
 * the engine's AnglesToAxis (AngleVectors, with the right vector negated).
 */
export function anglesToAxis(pitch: number, yaw: number, roll: number, out: Float32Array, o: number): void {
  const rad = Math.PI / 180;
  const sp = Math.sin(pitch * rad), cp = Math.cos(pitch * rad);
  const sy = Math.sin(yaw * rad), cy = Math.cos(yaw * rad);
  const sr = Math.sin(roll * rad), cr = Math.cos(roll * rad);
  // forward
  out[o] = cp * cy;
  out[o + 1] = cp * sy;
  out[o + 2] = -sp;
  // left = −right
  out[o + 3] = sr * sp * cy - cr * sy;
  out[o + 4] = sr * sp * sy + cr * cy;
  out[o + 5] = sr * cp;
  // up
  out[o + 6] = cr * sp * cy + sr * sy;
  out[o + 7] = cr * sp * sy - sr * cy;
  out[o + 8] = cr * cp;
}

/** The model as an `Md3Model` (decoded on the first call, then kept with the model). */
export function mdcToMd3(m: MdcModel): Md3Model {
  const done = cache.get(m);
  if (done) return done;
  const bytes = mdcFrameBytes(m);
  const limit = resourceLimits().maxMdcFrameBytes;
  if (bytes > limit) throw overLimit(`MDC frames decode to ${bytes} bytes (${m.frameCount} frames)`, 'maxMdcFrameBytes', limit, H.numFrames);
  const F = m.frameCount, T = m.tagCount;
  const tagOrigins = new Float32Array(F * T * 3);
  const tagAxes = new Float32Array(F * T * 9);
  for (let i = 0; i < F * T; i++) {
    for (let k = 0; k < 3; k++) tagOrigins[i * 3 + k] = m.tagXyz[i * 3 + k] * XYZ_SCALE;
    const a = m.tagAngles;
    anglesToAxis(a[i * 3] * MDC_TAG_ANGLE_SCALE, a[i * 3 + 1] * MDC_TAG_ANGLE_SCALE, a[i * 3 + 2] * MDC_TAG_ANGLE_SCALE, tagAxes, i * 9);
  }
  const surfaces: Md3Surface[] = m.surfaces.map((s) => ({
    name: s.name,
    flags: s.flags,
    vertexCount: s.vertexCount,
    triangleCount: s.triangleCount,
    shaders: s.shaders,
    triangles: s.triangles,
    st: s.st,
    xyzNormals: decodeSurfaceFrames(s, F),
  }));
  const out: Md3Model = {
    format: 'md3',
    version: 15,
    name: m.name,
    flags: m.flags,
    frameCount: F,
    frameNames: m.frameNames,
    frameMins: m.frameMins,
    frameMaxs: m.frameMaxs,
    frameLocalOrigins: m.frameLocalOrigins,
    frameRadii: m.frameRadii,
    tagCount: T,
    tagNames: m.tagNames,
    tagOrigins,
    tagAxes,
    surfaces,
    warnings: m.warnings,
  };
  cache.set(m, out);
  return out;
}

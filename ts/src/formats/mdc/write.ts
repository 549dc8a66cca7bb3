/**
 * MD3 → MDC as the engine's own encoder would write it (ET: Legacy `tr_model.c` R_MDC_ConvertMD3 and the functions
 * it calls, kept there under `#if 0`; the rules restated, not copied):
 *
 * - frame 0 is a base frame; each later frame is stored compressed against the last base frame when every vertex of
 *   every surface can be (the whole model at once, so surfaces do not tear apart), else it becomes a base frame;
 * - a vertex can be compressed when its offset from the base frame is under MDC_MAX_DIST (127 × 0.05) on each axis
 *   and, once encoded (each axis `(int)|(v + 0.025) / 0.05 + 127|`) and decoded, lies within MDC_MAX_ERROR (0.1) of
 *   its place;
 * - its normal is the table entry R_MDC_GetAnorm picks: the ring whose height is nearest the normal's, then the
 *   entry of the ring nearest in direction;
 * - a tag's origin is `(short)(origin × 64)`, its angles the axes' pitch, yaw and roll (AxisToAngles) over
 *   MDC_TAG_ANGLE_SCALE, cut to short.
 *
 * The layout is R_MDC_ConvertMD3's: header, frames, tag names, tags, then per surface its header, triangles,
 * shaders, st, base frames, compressed frames, frameBaseFrames, frameCompFrames.
 */
import type { Md3Model } from '../../base/model.js';
import {
  FRAME_BYTES, HEADER_BYTES, MDC_DIST_SCALE, MDC_MAX_OFS, MDC_TAG_ANGLE_SCALE, SHADER_BYTES, ST_BYTES, SURFACE_HEADER_BYTES,
  TAG_BYTES, TAG_NAME_BYTES, TRIANGLE_BYTES, XYZ_COMPRESSED_BYTES, XYZ_NORMAL_BYTES, XYZ_SCALE,
} from './layout.js';
import { mdcNormalTable } from './normals.js';

/** MDC_MAX_ERROR (tr_local.h): the farthest a compressed vertex may land from its place. */
export const MDC_MAX_ERROR = 0.1;
/** MDC_MAX_OFS × MDC_DIST_SCALE (a literal: top-level arithmetic is work a bundler keeps). */
const MDC_MAX_DIST = 6.35;

/** The engine's decode of a packed lat/lng normal (R_LatLongToNormal). */
function latLngNormal(p: number, out: number[]): void {
  const lat = (((p >> 8) & 255) * 2 * Math.PI) / 256, lng = ((p & 255) * 2 * Math.PI) / 256;
  out[0] = Math.cos(lat) * Math.sin(lng);
  out[1] = Math.sin(lat) * Math.sin(lng);
  out[2] = Math.cos(lng);
}

/** R_MDC_GetAnorm's choice: the ring of nearest height, then the entry of largest dot product in it. */
export function nearestTableNormal(x: number, y: number, z: number): number {
  const t = mdcNormalTable();
  let ringStart = 0, bestZ = Infinity;
  for (let i = 0; i < 256; i++) {
    if (i > 0 && t[i * 3 + 2] === t[(i - 1) * 3 + 2]) continue;
    const d = Math.abs(z - t[i * 3 + 2]);
    if (d < bestZ) {
      bestZ = d;
      ringStart = i;
    }
  }
  let best = ringStart, bestDot = -Infinity;
  for (let i = ringStart; i < 256 && t[i * 3 + 2] === t[ringStart * 3 + 2]; i++) {
    const d = x * t[i * 3] + y * t[i * 3 + 1] + z * t[i * 3 + 2];
    if (d > bestDot) {
      bestDot = d;
      best = i;
    }
  }
  return best;
}

/** The compressed word of vertex `v` of frame `f` against base frame `b`, or -1 when it cannot be (R_MDC_GetXyzCompressed with verify). */
function compress(xyz: Int16Array, nv: number, v: number, f: number, b: number, n: number[]): number {
  const at = (f * nv + v) * 4, base = (b * nv + v) * 4;
  let word = 0, err2 = 0;
  for (let k = 0; k < 3; k++) {
    const d = (xyz[at + k] - xyz[base + k]) * XYZ_SCALE;
    if (Math.abs(d) >= MDC_MAX_DIST) return -1;
    const byte = Math.trunc(Math.abs((d + MDC_DIST_SCALE * 0.5) / MDC_DIST_SCALE + MDC_MAX_OFS));
    const e = d - (byte - MDC_MAX_OFS) * MDC_DIST_SCALE;
    err2 += e * e;
    word |= byte << (8 * k);
  }
  if (Math.sqrt(err2) > MDC_MAX_ERROR) return -1;
  latLngNormal(xyz[at + 3], n);
  return (word | (nearestTableNormal(n[0], n[1], n[2]) << 24)) >>> 0;
}

/** The frames stored whole: 0, then each frame some vertex of some surface cannot be compressed against the last. */
export function mdcBaseFrames(model: Md3Model): number[] {
  const bases = [0];
  const n = [0, 0, 0];
  for (let f = 1; f < model.frameCount; f++) {
    const last = bases[bases.length - 1];
    const whole = model.surfaces.some((s) => {
      for (let v = 0; v < s.vertexCount; v++) if (compress(s.xyzNormals, s.vertexCount, v, f, last, n) < 0) return true;
      return false;
    });
    if (whole) bases.push(f);
  }
  return bases;
}

/** AxisToAngles: pitch, yaw, roll in degrees of axes forward, left, up (9 floats at `a[o…]`). */
export function axisToAngles(a: ArrayLike<number>, o: number): [number, number, number] {
  const deg = 180 / Math.PI;
  const pitch = Math.atan2(-a[o + 2], Math.hypot(a[o], a[o + 1])) * deg;
  const yaw = Math.atan2(a[o + 1], a[o]) * deg;
  const roll = Math.atan2(a[o + 5], a[o + 8]) * deg;
  return [pitch, yaw, roll];
}

function text(bytes: Uint8Array, at: number, length: number, s: string): void {
  for (let i = 0; i < Math.min(s.length, length - 1); i++) bytes[at + i] = s.charCodeAt(i) & 255;
}

/** The model as MDC bytes, frames compressed where the engine's encoder would. */
export function writeMdc(model: Md3Model): Uint8Array {
  const F = model.frameCount, T = model.tagCount;
  const bases = mdcBaseFrames(model);
  const NB = bases.length, NC = F - NB;
  const ofsFrames = HEADER_BYTES;
  const ofsTagNames = ofsFrames + F * FRAME_BYTES;
  const ofsTags = ofsTagNames + T * TAG_NAME_BYTES;
  const ofsSurfaces = ofsTags + F * T * TAG_BYTES;
  const surfaceBytes = model.surfaces.map((s) => SURFACE_HEADER_BYTES + s.triangleCount * TRIANGLE_BYTES + s.shaders.length * SHADER_BYTES + s.vertexCount * ST_BYTES + s.vertexCount * NB * XYZ_NORMAL_BYTES + s.vertexCount * NC * XYZ_COMPRESSED_BYTES + 4 * F);
  const ofsEnd = surfaceBytes.reduce((a, b) => a + b, ofsSurfaces);
  const bytes = new Uint8Array(ofsEnd);
  const v = new DataView(bytes.buffer);
  bytes.set([0x49, 0x44, 0x50, 0x43]);
  v.setInt32(4, 2, true);
  text(bytes, 8, 64, model.name);
  [model.flags, F, T, model.surfaces.length, 0, ofsFrames, ofsTagNames, ofsTags, ofsSurfaces, ofsEnd].forEach((x, i) => v.setInt32(72 + 4 * i, x, true));
  for (let f = 0; f < F; f++) {
    const at = ofsFrames + f * FRAME_BYTES;
    for (let k = 0; k < 3; k++) {
      v.setFloat32(at + 4 * k, model.frameMins[f * 3 + k], true);
      v.setFloat32(at + 12 + 4 * k, model.frameMaxs[f * 3 + k], true);
      v.setFloat32(at + 24 + 4 * k, model.frameLocalOrigins[f * 3 + k], true);
    }
    v.setFloat32(at + 36, model.frameRadii[f], true);
    text(bytes, at + 40, 16, model.frameNames[f] ?? '');
  }
  model.tagNames.forEach((n, k) => text(bytes, ofsTagNames + k * TAG_NAME_BYTES, TAG_NAME_BYTES, n));
  const short = (x: number) => Math.max(-32768, Math.min(32767, Math.trunc(x)));
  for (let i = 0; i < F * T; i++) {
    const at = ofsTags + i * TAG_BYTES;
    for (let k = 0; k < 3; k++) v.setInt16(at + 2 * k, short(model.tagOrigins[i * 3 + k] / XYZ_SCALE), true);
    axisToAngles(model.tagAxes, i * 9).forEach((a, k) => v.setInt16(at + 6 + 2 * k, short(a / MDC_TAG_ANGLE_SCALE), true));
  }
  let at = ofsSurfaces;
  const n = [0, 0, 0];
  model.surfaces.forEach((s, si) => {
    const nv = s.vertexCount;
    const rel = { tri: SURFACE_HEADER_BYTES, sh: 0, st: 0, xyz: 0, comp: 0, fb: 0, fc: 0 };
    rel.sh = rel.tri + s.triangleCount * TRIANGLE_BYTES;
    rel.st = rel.sh + s.shaders.length * SHADER_BYTES;
    rel.xyz = rel.st + nv * ST_BYTES;
    rel.comp = rel.xyz + nv * NB * XYZ_NORMAL_BYTES;
    rel.fb = rel.comp + nv * NC * XYZ_COMPRESSED_BYTES;
    rel.fc = rel.fb + 2 * F;
    // ET's own files hold 7 here (the engine overwrites it with SF_MDC)
    v.setInt32(at, 7, true);
    text(bytes, at + 4, 64, s.name);
    [s.flags, NC, NB, s.shaders.length, nv, s.triangleCount, rel.tri, rel.sh, rel.st, rel.xyz, rel.comp, rel.fb, rel.fc, surfaceBytes[si]].forEach((x, i) => v.setInt32(at + 68 + 4 * i, x, true));
    for (let i = 0; i < s.triangles.length; i++) v.setInt32(at + rel.tri + 4 * i, s.triangles[i], true);
    s.shaders.forEach((sh, k) => {
      text(bytes, at + rel.sh + k * SHADER_BYTES, 64, sh.name);
      v.setInt32(at + rel.sh + k * SHADER_BYTES + 64, sh.index, true);
    });
    for (let i = 0; i < s.st.length; i++) v.setFloat32(at + rel.st + 4 * i, s.st[i], true);
    bases.forEach((f, k) => {
      for (let i = 0; i < nv * 4; i++) v.setInt16(at + rel.xyz + 2 * (k * nv * 4 + i), s.xyzNormals[f * nv * 4 + i], true);
    });
    let base = -1, c = 0;
    for (let f = 0; f < F; f++) {
      if (base + 1 < NB && bases[base + 1] === f) {
        base++;
        v.setInt16(at + rel.fb + 2 * f, base, true);
        v.setInt16(at + rel.fc + 2 * f, -1, true);
        continue;
      }
      for (let i = 0; i < nv; i++) v.setUint32(at + rel.comp + 4 * (c * nv + i), compress(s.xyzNormals, nv, i, f, bases[base], n), true);
      v.setInt16(at + rel.fb + 2 * f, base, true);
      v.setInt16(at + rel.fc + 2 * f, c, true);
      c++;
    }
    at += surfaceBytes[si];
  });
  return bytes;
}

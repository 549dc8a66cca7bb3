/**
 * The pure-TS vertex-animation kernels, mirroring `crates/core/src/morph.rs` name for name: two quantised
 * frames → float positions and normals of their blend. Positions lerped; normals decoded, lerped and
 * renormalised; when two opposite normals cancel, the nearer frame's normal is kept. The normal tables are those of
 * `tables.ts` (`MD2_NORMAL_TABLE`, `md3DecodedNormals()`). Returns false (writing nothing) when a frame index or a length
 * is out of range, like the Rust side.
 */
import { MD2_NORMAL_TABLE_STRIDE, MD2_VERTEX_BYTES, MD3_DECODED_NORMALS_LEN, MD3_VERTEX_SHORTS, MD3_XYZ_SCALE, PLACEMENT_FLOATS } from './layout.js';

function blendNormal(ax: number, ay: number, az: number, bx: number, by: number, bz: number, t: number, out: Float32Array, o: number): void {
  const s = 1 - t;
  const x = ax * s + bx * t;
  const y = ay * s + by * t;
  const z = az * s + bz * t;
  const len2 = x * x + y * y + z * z;
  if (len2 > 1e-12) {
    const inv = 1 / Math.sqrt(len2);
    out[o] = x * inv;
    out[o + 1] = y * inv;
    out[o + 2] = z * inv;
  } else if (t < 0.5) {
    out[o] = ax;
    out[o + 1] = ay;
    out[o + 2] = az;
  } else {
    out[o] = bx;
    out[o + 1] = by;
    out[o + 2] = bz;
  }
}

export function md2Blend(
  frames: Uint8Array, scales: Float32Array, translates: Float32Array, vertexCount: number, frameA: number, frameB: number, t: number,
  normals: Float32Array, outPositions: Float32Array, outNormals: Float32Array,
): boolean {
  const frameBytes = vertexCount * MD2_VERTEX_BYTES;
  const frameCount = frameBytes === 0 ? 0 : Math.floor(frames.length / frameBytes);
  const n = vertexCount * 3;
  if (!(frameA >= 0 && frameA < frameCount && frameB >= 0 && frameB < frameCount) || scales.length < frameCount * 3 || translates.length < frameCount * 3
    || normals.length < MD2_NORMAL_TABLE_STRIDE || outPositions.length < n || outNormals.length < n) return false;
  const normalMax = Math.floor(normals.length / MD2_NORMAL_TABLE_STRIDE) - 1;
  const s = 1 - t;
  const a3 = frameA * 3, b3 = frameB * 3;
  const kax = scales[a3] * s, kay = scales[a3 + 1] * s, kaz = scales[a3 + 2] * s;
  const kbx = scales[b3] * t, kby = scales[b3 + 1] * t, kbz = scales[b3 + 2] * t;
  const cx = translates[a3] * s + translates[b3] * t;
  const cy = translates[a3 + 1] * s + translates[b3 + 1] * t;
  const cz = translates[a3 + 2] * s + translates[b3 + 2] * t;
  let a = frameA * frameBytes, b = frameB * frameBytes;
  for (let o = 0; o < n; o += 3, a += 4, b += 4) {
    outPositions[o] = frames[a] * kax + frames[b] * kbx + cx;
    outPositions[o + 1] = frames[a + 1] * kay + frames[b + 1] * kby + cy;
    outPositions[o + 2] = frames[a + 2] * kaz + frames[b + 2] * kbz + cz;
    // << 2: MD2_NORMAL_TABLE_STRIDE (a literal here: the imported constant measured slower in V8).
    const na = Math.min(frames[a + 3], normalMax) << 2, nb = Math.min(frames[b + 3], normalMax) << 2;
    blendNormal(normals[na], normals[na + 1], normals[na + 2], normals[nb], normals[nb + 1], normals[nb + 2], t, outNormals, o);
  }
  return true;
}

export function md3Blend(
  xyzNormals: Int16Array, vertexCount: number, frameA: number, frameB: number, t: number, table: Float32Array,
  outPositions: Float32Array, outNormals: Float32Array,
): boolean {
  const frameLen = vertexCount * MD3_VERTEX_SHORTS;
  const frameCount = frameLen === 0 ? 0 : Math.floor(xyzNormals.length / frameLen);
  const n = vertexCount * 3;
  if (table.length < MD3_DECODED_NORMALS_LEN || !(frameA >= 0 && frameA < frameCount && frameB >= 0 && frameB < frameCount) || outPositions.length < n || outNormals.length < n) return false;
  const ka = (1 - t) * MD3_XYZ_SCALE;
  const kb = t * MD3_XYZ_SCALE;
  let a = frameA * frameLen, b = frameB * frameLen;
  for (let o = 0; o < n; o += 3, a += 4, b += 4) {
    outPositions[o] = xyzNormals[a] * ka + xyzNormals[b] * kb;
    outPositions[o + 1] = xyzNormals[a + 1] * ka + xyzNormals[b + 1] * kb;
    outPositions[o + 2] = xyzNormals[a + 2] * ka + xyzNormals[b + 2] * kb;
    // Packed normal p (lat · 256 + lng): its decoded `x y z 0` entry at 4·p (a literal shift: an imported constant
    // here measured 4–8% slower in V8).
    const na = (xyzNormals[a + 3] & 0xffff) << 2, nb = (xyzNormals[b + 3] & 0xffff) << 2;
    blendNormal(table[na], table[na + 1], table[na + 2], table[nb], table[nb + 1], table[nb + 2], t, outNormals, o);
  }
  return true;
}

/**
 * Places decoded vertices: positions p → M·(p, 1), normals n → M₃·n renormalised (left as they are when zero), for
 * vertices [first, first + count) of both outputs, in place. `matrix` is a row-major 3×4. Returns false (writing
 * nothing) when the range or the matrix is short.
 */
export function transformVertices(matrix: Float32Array, positions: Float32Array, normals: Float32Array, first: number, count: number): boolean {
  const end = (first + count) * 3;
  if (!(Number.isInteger(first) && first >= 0 && Number.isInteger(count) && count >= 0) || matrix.length < PLACEMENT_FLOATS || positions.length < end || normals.length < end) return false;
  const m = matrix;
  for (let o = first * 3; o < end; o += 3) {
    const x = positions[o], y = positions[o + 1], z = positions[o + 2];
    positions[o] = m[0] * x + m[1] * y + m[2] * z + m[3];
    positions[o + 1] = m[4] * x + m[5] * y + m[6] * z + m[7];
    positions[o + 2] = m[8] * x + m[9] * y + m[10] * z + m[11];
    const nx = normals[o], ny = normals[o + 1], nz = normals[o + 2];
    const wx = m[0] * nx + m[1] * ny + m[2] * nz, wy = m[4] * nx + m[5] * ny + m[6] * nz, wz = m[8] * nx + m[9] * ny + m[10] * nz;
    const len2 = wx * wx + wy * wy + wz * wz;
    if (len2 > 0) {
      const inv = 1 / Math.sqrt(len2);
      normals[o] = wx * inv;
      normals[o + 1] = wy * inv;
      normals[o + 2] = wz * inv;
    }
  }
  return true;
}

/**
 * The pure-TS hot path: the same kernels as `crates/core` (`pose.rs`, `skin.rs`, `validate.rs`), name for
 * name (snake_case there, camelCase here), same layouts, same arithmetic order. Used where WASM is missing or
 * unwanted, and as the reference the WASM path is parity-tested against.
 *
 * Quaternions: (x, y, z, w), Hamilton product, v' = q·v·q*, w recovered as −sqrt(max(0, 1 − x² − y² − z²)).
 * Arithmetic is in float64 with float32 storage; the Rust side computes in float32. The difference is far
 * below the parity tolerance (1e-4 × the model's diagonal).
 */
import { recoverW } from '../base/quat.js';
import { BASEFRAME_STRIDE, MATRIX_STRIDE, POSE_STRIDE, WEIGHT_STRIDE } from './layout.js';

export { recoverW };

/** One md5anim frame → local pose (flagged components from `frame`, the rest from `baseframe`). */
export function composeFrame(
  flags: Uint8Array,
  startIndex: Uint32Array,
  baseframe: Float32Array,
  frame: Float32Array,
  outLocal: Float32Array,
): void {
  const n = flags.length;
  for (let j = 0; j < n; j++) {
    const b = j * BASEFRAME_STRIDE;
    const f = flags[j];
    let k = startIndex[j];
    const tx = f & 1 ? frame[k++] : baseframe[b];
    const ty = f & 2 ? frame[k++] : baseframe[b + 1];
    const tz = f & 4 ? frame[k++] : baseframe[b + 2];
    const qx = f & 8 ? frame[k++] : baseframe[b + 3];
    const qy = f & 16 ? frame[k++] : baseframe[b + 4];
    const qz = f & 32 ? frame[k++] : baseframe[b + 5];
    const o = j * POSE_STRIDE;
    outLocal[o] = tx;
    outLocal[o + 1] = ty;
    outLocal[o + 2] = tz;
    outLocal[o + 3] = 0;
    outLocal[o + 4] = qx;
    outLocal[o + 5] = qy;
    outLocal[o + 6] = qz;
    outLocal[o + 7] = recoverW(qx, qy, qz);
  }
}

/** Blend two local poses as the engine does: lerp translations, shortest-path slerp rotations. */
export function interpolateLocal(a: Float32Array, b: Float32Array, t: number, outLocal: Float32Array): void {
  const joints = (outLocal.length / POSE_STRIDE) | 0;
  for (let j = 0; j < joints; j++) {
    const o = j * POSE_STRIDE;
    outLocal[o] = a[o] + (b[o] - a[o]) * t;
    outLocal[o + 1] = a[o + 1] + (b[o + 1] - a[o + 1]) * t;
    outLocal[o + 2] = a[o + 2] + (b[o + 2] - a[o + 2]) * t;
    outLocal[o + 3] = 0;
    slerpInto(a, o + 4, b, o + 4, t, outLocal, o + 4);
  }
}

/**
 * Doom 3's slerp (`quat::slerp`) of a[ai…] and b[bi…] into out[oi…]: t ≤ 0 → a, t ≥ 1 → b, flip b on a negative dot,
 * plain lerp when nearly equal. Also the crowd kernel's (`ts-crowd-kernels.ts`).
 */
export function slerpInto(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, t: number, out: Float32Array | Float64Array, oi: number): void {
  const ax = a[ai], ay = a[ai + 1], az = a[ai + 2], aw = a[ai + 3];
  let bx = b[bi], by = b[bi + 1], bz = b[bi + 2], bw = b[bi + 3];
  if (t <= 0) {
    out[oi] = ax; out[oi + 1] = ay; out[oi + 2] = az; out[oi + 3] = aw;
    return;
  }
  if (t >= 1) {
    out[oi] = bx; out[oi + 1] = by; out[oi + 2] = bz; out[oi + 3] = bw;
    return;
  }
  let cosom = ax * bx + ay * by + az * bz + aw * bw;
  if (cosom < 0) {
    cosom = -cosom;
    bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  let s0: number, s1: number;
  if (1 - cosom > 1e-6) {
    const omega = Math.acos(Math.min(cosom, 1));
    const invSin = 1 / Math.sin(omega);
    s0 = Math.sin((1 - t) * omega) * invSin;
    s1 = Math.sin(t * omega) * invSin;
  } else {
    s0 = 1 - t;
    s1 = t;
  }
  out[oi] = s0 * ax + s1 * bx;
  out[oi + 1] = s0 * ay + s1 * by;
  out[oi + 2] = s0 * az + s1 * bz;
  out[oi + 3] = s0 * aw + s1 * bw;
}

/** Local → object space, parents first: q = normalize(qParent·q), t = tParent + rotate(qParent, t). */
export function localToObject(parents: Int32Array, local: Float32Array, outObject: Float32Array): void {
  const n = parents.length;
  for (let j = 0; j < n; j++) {
    const o = j * POSE_STRIDE;
    const p = parents[j];
    const tx = local[o], ty = local[o + 1], tz = local[o + 2];
    const qx = local[o + 4], qy = local[o + 5], qz = local[o + 6], qw = local[o + 7];
    if (p < 0) {
      outObject[o] = tx; outObject[o + 1] = ty; outObject[o + 2] = tz; outObject[o + 3] = 0;
      outObject[o + 4] = qx; outObject[o + 5] = qy; outObject[o + 6] = qz; outObject[o + 7] = qw;
      continue;
    }
    const po = p * POSE_STRIDE;
    const px = outObject[po + 4], py = outObject[po + 5], pz = outObject[po + 6], pw = outObject[po + 7];
    // rotate (tx,ty,tz) by the parent: v + 2w(u×v) + 2u×(u×v)
    const cx = 2 * (py * tz - pz * ty);
    const cy = 2 * (pz * tx - px * tz);
    const cz = 2 * (px * ty - py * tx);
    outObject[o] = outObject[po] + tx + pw * cx + (py * cz - pz * cy);
    outObject[o + 1] = outObject[po + 1] + ty + pw * cy + (pz * cx - px * cz);
    outObject[o + 2] = outObject[po + 2] + tz + pw * cz + (px * cy - py * cx);
    outObject[o + 3] = 0;
    // Hamilton product parent·local, then renormalise
    let rx = pw * qx + px * qw + py * qz - pz * qy;
    let ry = pw * qy - px * qz + py * qw + pz * qx;
    let rz = pw * qz + px * qy - py * qx + pz * qw;
    let rw = pw * qw - px * qx - py * qy - pz * qz;
    const len2 = rx * rx + ry * ry + rz * rz + rw * rw;
    if (len2 > 0) {
      const inv = 1 / Math.sqrt(len2);
      rx *= inv; ry *= inv; rz *= inv; rw *= inv;
    } else {
      rx = 0; ry = 0; rz = 0; rw = 1;
    }
    outObject[o + 4] = rx; outObject[o + 5] = ry; outObject[o + 6] = rz; outObject[o + 7] = rw;
  }
}

/** Object poses → row-major 3×4 matrices padded to 16 floats (rows `m·0 m·1 m·2 t·`, then `0 0 0 0`). */
export function poseMatrices(object: Float32Array, outMatrices: Float32Array): void {
  const joints = (object.length / POSE_STRIDE) | 0;
  for (let j = 0; j < joints; j++) {
    const o = j * POSE_STRIDE;
    const m = j * MATRIX_STRIDE;
    const x = object[o + 4], y = object[o + 5], z = object[o + 6], w = object[o + 7];
    const xx = x * x, yy = y * y, zz = z * z, xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
    outMatrices[m] = 1 - 2 * (yy + zz);
    outMatrices[m + 1] = 2 * (xy - wz);
    outMatrices[m + 2] = 2 * (xz + wy);
    outMatrices[m + 3] = object[o];
    outMatrices[m + 4] = 2 * (xy + wz);
    outMatrices[m + 5] = 1 - 2 * (xx + zz);
    outMatrices[m + 6] = 2 * (yz - wx);
    outMatrices[m + 7] = object[o + 1];
    outMatrices[m + 8] = 2 * (xz - wy);
    outMatrices[m + 9] = 2 * (yz + wx);
    outMatrices[m + 10] = 1 - 2 * (xx + yy);
    outMatrices[m + 11] = object[o + 2];
    outMatrices[m + 12] = 0;
    outMatrices[m + 13] = 0;
    outMatrices[m + 14] = 0;
    outMatrices[m + 15] = 0;
  }
}

/**
 * Joint matrices with each joint's 3×3 part times `scales[j]` into `outMatrices`, translations copied (see
 * crates/core/src/pose.rs `scale_matrices`: q2pro's `.md5scale`, the weights' offsets scaled about the joint).
 */
export function scaleMatrices(matrices: Float32Array, scales: Float32Array, outMatrices: Float32Array): void {
  for (let j = 0; j < scales.length; j++) {
    const m = j * MATRIX_STRIDE;
    const s = scales[j];
    for (let row = 0; row < 3; row++) {
      const r = m + row * 4;
      outMatrices[r] = matrices[r] * s;
      outMatrices[r + 1] = matrices[r + 1] * s;
      outMatrices[r + 2] = matrices[r + 2] * s;
      outMatrices[r + 3] = matrices[r + 3];
    }
    outMatrices[m + 12] = 0;
    outMatrices[m + 13] = 0;
    outMatrices[m + 14] = 0;
    outMatrices[m + 15] = 0;
  }
}

/** Total vertices and weights of a grouping (`groupSizes[c − 1]` vertices with c weights each). */
export function groupTotals(groupSizes: Uint32Array): { vertices: number; weights: number } {
  let vertices = 0, weights = 0;
  for (let g = 0; g < groupSizes.length; g++) {
    vertices += groupSizes[g];
    weights += groupSizes[g] * (g + 1);
  }
  return { vertices, weights };
}

/**
 * Positions over a stream grouped by weight count (see crates/core/src/skin.rs): vertex i of the stream is
 * Σ M[joints[k]] · weights[4k..4k+4] over its weights, written to slot `dest[i]` (file order) or, with an
 * empty `dest`, to slot i (grouped order). Returns false, writing nothing, when the shapes disagree.
 */
export function skinPositions(
  matrices: Float32Array,
  groupSizes: Uint32Array,
  joints: Uint32Array,
  weights: Float32Array,
  dest: Uint32Array,
  out: Float32Array,
): boolean {
  const { vertices, weights: total } = groupTotals(groupSizes);
  const jointCount = (matrices.length / MATRIX_STRIDE) | 0;
  if ((jointCount === 0 && total > 0) || joints.length < total || weights.length < total * WEIGHT_STRIDE || out.length < vertices * 3 || !(dest.length === 0 || dest.length >= vertices)) return false;
  // Unlike the Rust kernel, no clamping: a JS typed array cannot be read or written out of bounds (a bad index
  // reads undefined and writes nowhere), validateSkin rejects such streams first, and the clamp cost 25%.
  const scatter = dest.length > 0;
  let v = 0, k = 0;
  for (let g = 0; g < groupSizes.length; g++) {
    const c = g + 1;
    for (let end = v + groupSizes[g]; v < end; v++) {
      // The first weight initialises the sums (as in the Rust kernel: every vertex has at least one).
      let m = joints[k] << 4; // × MATRIX_STRIDE
      let w = k << 2; // × WEIGHT_STRIDE
      let wx = weights[w], wy = weights[w + 1], wz = weights[w + 2], wb = weights[w + 3];
      let x = matrices[m] * wx + matrices[m + 1] * wy + matrices[m + 2] * wz + matrices[m + 3] * wb;
      let y = matrices[m + 4] * wx + matrices[m + 5] * wy + matrices[m + 6] * wz + matrices[m + 7] * wb;
      let z = matrices[m + 8] * wx + matrices[m + 9] * wy + matrices[m + 10] * wz + matrices[m + 11] * wb;
      k++;
      for (const stop = k + c - 1; k < stop; k++) {
        m = joints[k] << 4;
        w = k << 2;
        wx = weights[w]; wy = weights[w + 1]; wz = weights[w + 2]; wb = weights[w + 3];
        x += matrices[m] * wx + matrices[m + 1] * wy + matrices[m + 2] * wz + matrices[m + 3] * wb;
        y += matrices[m + 4] * wx + matrices[m + 5] * wy + matrices[m + 6] * wz + matrices[m + 7] * wb;
        z += matrices[m + 8] * wx + matrices[m + 9] * wy + matrices[m + 10] * wz + matrices[m + 11] * wb;
      }
      const s = (scatter ? dest[v] : v) * 3;
      out[s] = x;
      out[s + 1] = y;
      out[s + 2] = z;
    }
  }
  return true;
}

/** Normals: the same sum over normal weights (`nx·b ny·b nz·b 0`), renormalised. */
export function skinNormals(
  matrices: Float32Array,
  groupSizes: Uint32Array,
  joints: Uint32Array,
  normalWeights: Float32Array,
  dest: Uint32Array,
  out: Float32Array,
): boolean {
  if (!skinPositions(matrices, groupSizes, joints, normalWeights, dest, out)) return false;
  const n = groupTotals(groupSizes).vertices * 3;
  for (let i = 0; i < n; i += 3) {
    const x = out[i], y = out[i + 1], z = out[i + 2];
    const len2 = x * x + y * y + z * z;
    if (len2 > 0) {
      const inv = 1 / Math.sqrt(len2);
      out[i] = x * inv; out[i + 1] = y * inv; out[i + 2] = z * inv;
    }
  }
  return true;
}

/**
 * Many frames in one call (mirrors crates/core/src/batch.rs): for each index in `frameIndices`, compose →
 * object → matrices (in the scratch buffers) → skin, frame i's positions at out[i · V · 3]. Returns false at a
 * frame index past the anim or a short buffer.
 */
export function skinFrames(
  parents: Int32Array,
  flags: Uint8Array,
  startIndex: Uint32Array,
  baseframe: Float32Array,
  frames: Float32Array,
  componentCount: number,
  groupSizes: Uint32Array,
  joints: Uint32Array,
  weights: Float32Array,
  dest: Uint32Array,
  frameIndices: Uint32Array,
  local: Float32Array,
  object: Float32Array,
  matrices: Float32Array,
  out: Float32Array,
): boolean {
  const vertices = groupTotals(groupSizes).vertices;
  const frameCount = componentCount === 0 ? Infinity : Math.floor(frames.length / componentCount);
  const n = parents.length * POSE_STRIDE;
  if (local.length < n || object.length < n || out.length < frameIndices.length * vertices * 3) return false;
  for (let i = 0; i < frameIndices.length; i++) {
    const f = frameIndices[i];
    if (f >= frameCount) return false;
    composeFrame(flags, startIndex, baseframe, frames.subarray(f * componentCount, f * componentCount + componentCount), local);
    localToObject(parents, local, object);
    poseMatrices(object, matrices);
    if (!skinPositions(matrices.subarray(0, parents.length * MATRIX_STRIDE), groupSizes, joints, weights, dest, out.subarray(i * vertices * 3, (i + 1) * vertices * 3))) return false;
  }
  return true;
}

/** −1 when valid, else the first joint whose parent is not −1 and not below it. */
export function validateParents(parents: Int32Array): number {
  for (let j = 0; j < parents.length; j++) {
    const p = parents[j];
    if (p >= j || p < -1) return j;
  }
  return -1;
}

/**
 * −1 when valid, −2 when the shapes disagree (start indices not one per joint, a baseframe shorter than 6 floats per
 * joint), else the first joint whose flags are over 63 or whose components run past the frame.
 */
export function validateAnim(flags: Uint8Array, startIndex: Uint32Array, baseframeLength: number, componentCount: number): number {
  if (startIndex.length !== flags.length || baseframeLength < flags.length * BASEFRAME_STRIDE) return -2;
  for (let j = 0; j < flags.length; j++) {
    const f = flags[j];
    let bits = 0;
    for (let b = f; b; b >>= 1) bits += b & 1;
    if (f > 63 || startIndex[j] + bits > componentCount) return j;
  }
  return -1;
}

/** −1 valid, −2 inconsistent shape (or `dest` not a permutation), else the first weight naming a joint ≥ jointCount. */
export function validateSkin(jointCount: number, groupSizes: Uint32Array, joints: Uint32Array, weightsLength: number, dest: Uint32Array): number {
  const { vertices, weights: total } = groupTotals(groupSizes);
  if (total > joints.length || total * WEIGHT_STRIDE > weightsLength || !(dest.length === 0 || dest.length === vertices)) return -2;
  for (let k = 0; k < total; k++) if (joints[k] >= jointCount) return k;
  if (dest.length) {
    const seen = new Uint8Array(vertices);
    for (let i = 0; i < dest.length; i++) {
      if (dest[i] >= vertices || seen[dest[i]]) return -2;
      seen[dest[i]] = 1;
    }
  }
  return -1;
}

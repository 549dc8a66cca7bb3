/**
 * The TS mirror of `crates/core/src/iqm.rs` (IQM bind matrices, frame decoding, ioquake3's ComputePoseMats) and
 * `lbs.rs` (linear blend skinning), name for name (snake_case there, camelCase here), same layouts, same
 * arithmetic order; computed in float64 with float32 storage, as the other TS kernels (the parity tests hold both
 * to a tolerance). Bind and inverse bind matrices are ioquake3's row-major 3×4 (`IQM_BIND_STRIDE`); skinning
 * matrices are column-major 4×4 (`LBS_MATRIX_STRIDE`, glTF's joint matrices as they are).
 */
import { IQM_BIND_STRIDE, IQM_CHANNELS, LBS_MATRIX_STRIDE } from './layout.js';

type M12 = Float64Array;

/** ioquake3 `Matrix34Multiply` into `out`. */
export function matrix34Multiply(a: ArrayLike<number>, b: ArrayLike<number>, out: M12): M12 {
  out[0] = a[0] * b[0] + a[1] * b[4] + a[2] * b[8];
  out[1] = a[0] * b[1] + a[1] * b[5] + a[2] * b[9];
  out[2] = a[0] * b[2] + a[1] * b[6] + a[2] * b[10];
  out[3] = a[0] * b[3] + a[1] * b[7] + a[2] * b[11] + a[3];
  out[4] = a[4] * b[0] + a[5] * b[4] + a[6] * b[8];
  out[5] = a[4] * b[1] + a[5] * b[5] + a[6] * b[9];
  out[6] = a[4] * b[2] + a[5] * b[6] + a[6] * b[10];
  out[7] = a[4] * b[3] + a[5] * b[7] + a[6] * b[11] + a[7];
  out[8] = a[8] * b[0] + a[9] * b[4] + a[10] * b[8];
  out[9] = a[8] * b[1] + a[9] * b[5] + a[10] * b[9];
  out[10] = a[8] * b[2] + a[9] * b[6] + a[10] * b[10];
  out[11] = a[8] * b[3] + a[9] * b[7] + a[10] * b[11] + a[11];
  return out;
}

/** ioquake3 `JointToMatrix` (rotation rows scaled by scale[row]) from q at `qi`, s at `si`, t at `ti`. */
export function jointToMatrix(q: ArrayLike<number>, qi: number, s: ArrayLike<number>, si: number, t: ArrayLike<number>, ti: number, out: M12): M12 {
  const x = q[qi], y = q[qi + 1], z = q[qi + 2], w = q[qi + 3];
  const xx = 2 * x * x, yy = 2 * y * y, zz = 2 * z * z;
  const xy = 2 * x * y, xz = 2 * x * z, yz = 2 * y * z;
  const wx = 2 * w * x, wy = 2 * w * y, wz = 2 * w * z;
  out[0] = s[si] * (1 - (yy + zz));
  out[1] = s[si] * (xy - wz);
  out[2] = s[si] * (xz + wy);
  out[3] = t[ti];
  out[4] = s[si + 1] * (xy + wz);
  out[5] = s[si + 1] * (1 - (xx + zz));
  out[6] = s[si + 1] * (yz - wx);
  out[7] = t[ti + 1];
  out[8] = s[si + 2] * (xz - wy);
  out[9] = s[si + 2] * (yz + wx);
  out[10] = s[si + 2] * (1 - (xx + yy));
  out[11] = t[ti + 2];
  return out;
}

/** ioquake3 `Matrix34Invert`. */
export function matrix34Invert(m: ArrayLike<number>, o: M12): M12 {
  o[0] = m[0]; o[1] = m[4]; o[2] = m[8];
  o[4] = m[1]; o[5] = m[5]; o[6] = m[9];
  o[8] = m[2]; o[9] = m[6]; o[10] = m[10];
  for (let r = 0; r < 12; r += 4) {
    const inv = 1 / (o[r] * o[r] + o[r + 1] * o[r + 1] + o[r + 2] * o[r + 2]);
    o[r] *= inv; o[r + 1] *= inv; o[r + 2] *= inv;
  }
  const t0 = m[3], t1 = m[7], t2 = m[11];
  for (let r = 0; r < 12; r += 4) o[r + 3] = -(o[r] * t0 + o[r + 1] * t1 + o[r + 2] * t2);
  return o;
}

/** ioquake3 `QuatNormalize2` of q[i…i+3] into out[o…o+3]. */
export function quatNormalize2(q: ArrayLike<number>, i: number, out: Float32Array | Float64Array, o: number): void {
  // rounded to float32 so that the zero test agrees with the Rust kernel's (a denormal quaternion squares to 0 there)
  const len = Math.fround(q[i] * q[i] + q[i + 1] * q[i + 1] + q[i + 2] * q[i + 2] + q[i + 3] * q[i + 3]);
  if (len !== 0) {
    const il = 1 / Math.sqrt(len);
    out[o] = q[i] * il; out[o + 1] = q[i + 1] * il; out[o + 2] = q[i + 2] * il; out[o + 3] = q[i + 3] * il;
  } else {
    out[o] = 0; out[o + 1] = 0; out[o + 2] = 0; out[o + 3] = -1;
  }
}

/** ioquake3 `QuatSlerp(from, to, fraction)` of a[i…] and b[i…] into out[0…3]. */
export function quatSlerp(a: ArrayLike<number>, b: ArrayLike<number>, i: number, fraction: number, out: Float64Array): Float64Array {
  let cos = a[i] * b[i] + a[i + 1] * b[i + 1] + a[i + 2] * b[i + 2] + a[i + 3] * b[i + 3];
  let sign = 1;
  if (cos < 0) {
    cos = -cos;
    sign = -1;
  }
  let back: number, lerp: number;
  if (cos < 0.999999) {
    const angle = Math.acos(cos);
    const sin = Math.sin(angle);
    back = Math.sin((1 - fraction) * angle) / sin;
    lerp = Math.sin(fraction * angle) / sin;
  } else {
    back = 1 - fraction;
    lerp = fraction;
  }
  for (let c = 0; c < 4; c++) out[c] = a[i + c] * back + sign * b[i + c] * lerp;
  return out;
}

/** R_LoadIQM's bind and inverse bind matrices; false when the shapes disagree (nothing written). */
export function iqmBindMatrices(parents: Int32Array, translate: Float32Array, rotate: Float32Array, scale: Float32Array, bind: Float32Array, invBind: Float32Array): boolean {
  const n = parents.length;
  if (translate.length < n * 3 || rotate.length < n * 4 || scale.length < n * 3 || bind.length < n * IQM_BIND_STRIDE || invBind.length < n * IQM_BIND_STRIDE) return false;
  const q = new Float32Array(4), base = new Float64Array(12), inv = new Float64Array(12), b = new Float64Array(12), ib = new Float64Array(12);
  for (let i = 0; i < n; i++) {
    quatNormalize2(rotate, i * 4, q, 0);
    jointToMatrix(q, 0, scale, i * 3, translate, i * 3, base);
    matrix34Invert(base, inv);
    const p = parents[i];
    const at = i * IQM_BIND_STRIDE;
    if (p >= 0 && p < i) {
      matrix34Multiply(bind.subarray(p * IQM_BIND_STRIDE), base, b);
      matrix34Multiply(inv, invBind.subarray(p * IQM_BIND_STRIDE), ib);
      bind.set(b, at);
      invBind.set(ib, at);
    } else {
      bind.set(base, at);
      invBind.set(inv, at);
    }
  }
  return true;
}

/** Total channels the masks take per frame. */
export function iqmChannelsUsed(masks: Uint32Array): number {
  let n = 0;
  for (let p = 0; p < masks.length; p++) for (let c = 0; c < IQM_CHANNELS; c++) if (masks[p] & (1 << c)) n++;
  return n;
}

/** One frame's channels (from `frames[at]`) → per pose `tx ty tz qx qy qz qw sx sy sz`, the rotation normalised. */
export function iqmDecodeFrame(masks: Uint32Array, offsets: Float32Array, scales: Float32Array, frames: Uint16Array, at: number, out: Float32Array): void {
  let k = at;
  const ch = new Float64Array(IQM_CHANNELS);
  for (let p = 0; p < masks.length; p++) {
    const o = p * IQM_CHANNELS;
    const mask = masks[p];
    for (let c = 0; c < IQM_CHANNELS; c++) {
      let v = offsets[o + c];
      if (mask & (1 << c)) v += frames[k++] * scales[o + c];
      ch[c] = v;
    }
    out[o] = ch[0]; out[o + 1] = ch[1]; out[o + 2] = ch[2];
    quatNormalize2(ch, 3, out, o + 3);
    out[o + 7] = ch[7]; out[o + 8] = ch[8]; out[o + 9] = ch[9];
  }
}

export interface IqmPoseInput {
  parents: Int32Array;
  masks: Uint32Array;
  offsets: Float32Array;
  scales: Float32Array;
  frames: Uint16Array;
  frameCount: number;
  frameChannels: number;
  bind: Float32Array;
  invBind: Float32Array;
}

/** ComputePoseMats(frame = b, oldframe = a, backlerp = 1 − t) → column-major skinning matrices; false when refused. */
export function iqmPoseMatrices(inp: IqmPoseInput, frameA: number, frameB: number, t: number, scratch: Float32Array, out: Float32Array): boolean {
  const n = inp.parents.length;
  const fc = inp.frameChannels;
  if (!(Number.isInteger(frameA) && Number.isInteger(frameB) && frameA >= 0 && frameB >= 0)) return false;
  if (inp.frames.length < inp.frameCount * fc || inp.masks.length !== n || inp.offsets.length < n * IQM_CHANNELS || inp.scales.length < n * IQM_CHANNELS) return false;
  if (inp.bind.length < n * IQM_BIND_STRIDE || inp.invBind.length < n * IQM_BIND_STRIDE || scratch.length < 2 * n * IQM_CHANNELS || out.length < n * LBS_MATRIX_STRIDE) return false;
  if (iqmChannelsUsed(inp.masks) > fc || frameA >= inp.frameCount || frameB >= inp.frameCount) return false;
  const a = scratch.subarray(0, n * IQM_CHANNELS), b = scratch.subarray(n * IQM_CHANNELS, 2 * n * IQM_CHANNELS);
  iqmDecodeFrame(inp.masks, inp.offsets, inp.scales, inp.frames, frameA * fc, a);
  const same = frameA === frameB;
  if (!same) iqmDecodeFrame(inp.masks, inp.offsets, inp.scales, inp.frames, frameB * fc, b);
  const lerp = t, backlerp = 1 - t;
  const tr = new Float64Array(3), s = new Float64Array(3), q = new Float64Array(4);
  const mat1 = new Float64Array(12), mat2 = new Float64Array(12), m = new Float64Array(12), pose = new Float64Array(12), parent = new Float64Array(12);
  for (let i = 0; i < n; i++) {
    const o = i * IQM_CHANNELS;
    if (same) {
      tr[0] = a[o]; tr[1] = a[o + 1]; tr[2] = a[o + 2];
      q[0] = a[o + 3]; q[1] = a[o + 4]; q[2] = a[o + 5]; q[3] = a[o + 6];
      s[0] = a[o + 7]; s[1] = a[o + 8]; s[2] = a[o + 9];
    } else {
      for (let c = 0; c < 3; c++) {
        tr[c] = a[o + c] * backlerp + b[o + c] * lerp;
        s[c] = a[o + 7 + c] * backlerp + b[o + 7 + c] * lerp;
      }
      quatSlerp(a, b, o + 3, lerp, q);
    }
    jointToMatrix(q, 0, s, 0, tr, 0, mat1);
    const inv = inp.invBind.subarray(i * IQM_BIND_STRIDE, (i + 1) * IQM_BIND_STRIDE);
    const p = inp.parents[i];
    if (p >= 0 && p < i) {
      matrix34Multiply(inp.bind.subarray(p * IQM_BIND_STRIDE), mat1, mat2);
      matrix34Multiply(mat2, inv, m);
      readColumns(out, p, parent);
      matrix34Multiply(parent, m, pose);
    } else {
      matrix34Multiply(mat1, inv, pose);
    }
    writeColumns(out, i, pose);
  }
  return true;
}

function readColumns(out: Float32Array, j: number, r: M12): void {
  const m = j * LBS_MATRIX_STRIDE;
  r[0] = out[m]; r[1] = out[m + 4]; r[2] = out[m + 8]; r[3] = out[m + 12];
  r[4] = out[m + 1]; r[5] = out[m + 5]; r[6] = out[m + 9]; r[7] = out[m + 13];
  r[8] = out[m + 2]; r[9] = out[m + 6]; r[10] = out[m + 10]; r[11] = out[m + 14];
}

function writeColumns(out: Float32Array, j: number, r: M12): void {
  const m = j * LBS_MATRIX_STRIDE;
  out[m] = r[0]; out[m + 1] = r[4]; out[m + 2] = r[8]; out[m + 3] = 0;
  out[m + 4] = r[1]; out[m + 5] = r[5]; out[m + 6] = r[9]; out[m + 7] = 0;
  out[m + 8] = r[2]; out[m + 9] = r[6]; out[m + 10] = r[10]; out[m + 11] = 0;
  out[m + 12] = r[3]; out[m + 13] = r[7]; out[m + 14] = r[11]; out[m + 15] = 1;
}

export interface LbsInput {
  matrices: Float32Array;
  positions: Float32Array;
  /** Empty to skip normals. */
  normals: Float32Array;
  /** Empty to skip tangents. */
  tangents: Float32Array;
  indices: Uint8Array;
  /** Byte weights (÷ 255), or empty when `weightsF32` is given. */
  weightsU8: Uint8Array;
  weightsF32: Float32Array;
}

export interface LbsOutput {
  positions: Float32Array;
  normals: Float32Array;
  tangents: Float32Array;
}

/** Vertices when every buffer fits them, else −1 (`lbs_vertices`). */
export function lbsVertices(inp: LbsInput, out: LbsOutput): number {
  const v = Math.floor(inp.positions.length / 3);
  const weightsOk = inp.weightsF32.length === 0 ? inp.weightsU8.length >= v * 4 : inp.weightsF32.length >= v * 4;
  const normalsOk = inp.normals.length === 0 || (inp.normals.length >= v * 3 && out.normals.length >= v * 3);
  const tangentsOk = inp.tangents.length === 0 || (inp.tangents.length >= v * 4 && out.tangents.length >= v * 4);
  const ok = inp.matrices.length >= LBS_MATRIX_STRIDE && inp.indices.length >= v * 4 && weightsOk && normalsOk && tangentsOk && out.positions.length >= v * 3;
  return ok ? v : -1;
}

/** Linear blend skinning as `lbs_skin`; false (nothing written) when the shapes disagree. */
export function lbsSkin(inp: LbsInput, out: LbsOutput): boolean {
  const vertices = lbsVertices(inp, out);
  if (vertices < 0) return false;
  const m = inp.matrices;
  const last = Math.floor(m.length / LBS_MATRIX_STRIDE) - 1;
  const byte = inp.weightsF32.length === 0;
  const wn = inp.normals.length > 0, wt = inp.tangents.length > 0;
  const c = new Float64Array(12); // columns c0 c1 c2 c3, xyz each
  const w = new Float64Array(4);
  const j = [0, 0, 0, 0];
  for (let v = 0; v < vertices; v++) {
    let alive = true;
    for (let k = 0; k < 4; k++) {
      const x = byte ? Math.fround(inp.weightsU8[v * 4 + k] / 255) : inp.weightsF32[v * 4 + k];
      alive = alive && x > 0;
      w[k] = alive ? x : 0;
      j[k] = Math.min(inp.indices[v * 4 + k], last) * LBS_MATRIX_STRIDE;
    }
    if (w[0] > 0) {
      for (let col = 0; col < 4; col++) {
        for (let row = 0; row < 3; row++) {
          const e = col * 4 + row;
          c[col * 3 + row] = w[0] * m[j[0] + e] + w[1] * m[j[1] + e] + w[2] * m[j[2] + e] + w[3] * m[j[3] + e];
        }
      }
    } else {
      c.fill(0);
      c[0] = 1; c[4] = 1; c[8] = 1;
    }
    const px = inp.positions[v * 3], py = inp.positions[v * 3 + 1], pz = inp.positions[v * 3 + 2];
    for (let r = 0; r < 3; r++) out.positions[v * 3 + r] = c[r] * px + c[3 + r] * py + c[6 + r] * pz + c[9 + r];
    if (!wn && !wt) continue;
    // cofactor columns: c1×c2, c2×c0, c0×c1
    const n0x = c[4] * c[8] - c[5] * c[7], n0y = c[5] * c[6] - c[3] * c[8], n0z = c[3] * c[7] - c[4] * c[6];
    const n1x = c[7] * c[2] - c[8] * c[1], n1y = c[8] * c[0] - c[6] * c[2], n1z = c[6] * c[1] - c[7] * c[0];
    const n2x = c[1] * c[5] - c[2] * c[4], n2y = c[2] * c[3] - c[0] * c[5], n2z = c[0] * c[4] - c[1] * c[3];
    const apply = (x: number, y: number, z: number, dst: Float32Array, at: number) => {
      const ox = n0x * x + n1x * y + n2x * z, oy = n0y * x + n1y * y + n2y * z, oz = n0z * x + n1z * y + n2z * z;
      const len2 = ox * ox + oy * oy + oz * oz;
      const inv = len2 > 0 ? 1 / Math.sqrt(len2) : 1;
      dst[at] = ox * inv; dst[at + 1] = oy * inv; dst[at + 2] = oz * inv;
    };
    if (wn) apply(inp.normals[v * 3], inp.normals[v * 3 + 1], inp.normals[v * 3 + 2], out.normals, v * 3);
    if (wt) {
      apply(inp.tangents[v * 4], inp.tangents[v * 4 + 1], inp.tangents[v * 4 + 2], out.tangents, v * 4);
      out.tangents[v * 4 + 3] = inp.tangents[v * 4 + 3];
    }
  }
  return true;
}

/** The bind-pose vertices a bake skins (`IqmBakeSkin`): positions, indices, weights. */
export interface IqmBakeSkin {
  positions: Float32Array;
  indices: Uint8Array;
  weightsU8: Uint8Array;
  weightsF32: Float32Array;
}

/**
 * Frames `frameIndices` posed (`iqmPoseMatrices`, each frame alone) and their positions skinned (`lbsSkin`) into
 * `out`, frame i at `out[i · V · 3]` (`iqm_skin_frames`); false, nothing written into `out`, when refused.
 */
export function iqmSkinFrames(pose: IqmPoseInput, skin: IqmBakeSkin, frameIndices: Uint32Array, scratch: Float32Array, matrices: Float32Array, out: Float32Array): boolean {
  const span = Math.floor(skin.positions.length / 3) * 3;
  if (matrices.length < Math.max(1, pose.parents.length) * LBS_MATRIX_STRIDE || out.length < frameIndices.length * span) return false;
  for (let i = 0; i < frameIndices.length; i++) if (frameIndices[i] >= pose.frameCount) return false;
  const none = new Float32Array(0);
  for (let i = 0; i < frameIndices.length; i++) {
    const f = frameIndices[i];
    if (!iqmPoseMatrices(pose, f, f, 0, scratch, matrices)) return false; // only the first frame can fail
    const inp: LbsInput = { matrices, positions: skin.positions, normals: none, tangents: none, indices: skin.indices, weightsU8: skin.weightsU8, weightsF32: skin.weightsF32 };
    if (!lbsSkin(inp, { positions: out.subarray(i * span, (i + 1) * span), normals: none, tangents: none })) return false;
  }
  return true;
}

/** −1 when valid, −2 on a weights array shorter than the indices, else the first weighted index ≥ jointCount. */
export function validateLbs(jointCount: number, indices: Uint8Array, weightsU8: Uint8Array, weightsF32: Float32Array): number {
  const n = indices.length;
  const byte = weightsF32.length === 0;
  if ((byte && weightsU8.length < n) || (!byte && weightsF32.length < n)) return -2;
  for (let k = 0; k < n; k++) {
    const weighted = byte ? weightsU8[k] > 0 : weightsF32[k] > 0;
    if (weighted && indices[k] >= jointCount) return k;
  }
  return -1;
}

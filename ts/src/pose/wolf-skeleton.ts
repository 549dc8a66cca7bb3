/**
 * The bones of RtCW's MDS and ET's MDX, composed as their renderer's R_CalcBones does (RtCW GPL source / ET: Legacy
 * `tr_animation_mds.c` and `tr_animation_mdm.c`: R_CalcBone, R_CalcBoneLerp, then the torso rotation about the torso
 * parent). A bone frame stores three Euler angles and, for a bone with a parent, the pitch and yaw of the direction
 * from its parent, both as shorts decoded as SHORT2ANGLE (`s · 360 / 65536`); a bone sits `parentDist` along that
 * direction from its parent, a root at the frame's `parentOffset`. The torso's bones (torsoWeight > 0) take their
 * angles and directions from the torso frame, blended with the legs' by their weight, then the torso axis turns them
 * about the torso parent (identity by default: then the torso frame alone differs).
 *
 * The result is each bone's matrix as the renderer applies it (`out[i] = row i · v + t[i]`: the rows are
 * AnglesToAxis' forward, left and up), row-major 3×4 in the kernels' layout (kernels/layout.ts MATRIX_STRIDE), so a
 * weight's offset in bone space is skinned by the MD5 skinning kernels unchanged. This is the composition only; the
 * skinning runs on a backend (formats/mds/poser.ts).
 */
import { quatFromBasis } from '../base/quat.js';
import { MATRIX_STRIDE } from '../kernels/layout.js';

/** One bone of an MDS or MDX skeleton (mdsBoneInfo_t / mdxBoneInfo_t). */
export interface WolfBone {
  name: string;
  /** −1: a root (placed at the frame's parentOffset). */
  parent: number;
  /** How much of the torso frame (and the torso axis) the bone takes: 0 legs, 1 torso. */
  torsoWeight: number;
  /** Its distance from its parent, along the direction its frame's ofsAngles give. */
  parentDist: number;
  /** BONEFLAG_TAG (1): the bone is a tag (the torso axis turns its axes one by one). */
  flags: number;
}

/** A surface's vertices and weights as flat arrays (vertex v's weights are weightStart[v] .. weightStart[v + 1]). */
export interface WolfSurfaceVertices {
  vertexCount: number;
  normals: Float32Array;
  texCoords: Float32Array;
  weightStart: Uint32Array;
  /** Per weight: the bone (an index into the model's bones, as the renderer reads it), its weight, its offset in that bone's space. */
  weightBones: Uint32Array;
  weights: Float32Array;
  offsets: Float32Array;
}

/**
 * An MDS's or MDX's frame records (mdsFrame_t / mdxFrame_t without their bones) as flat arrays, frame f's at f × the
 * stride: a file may hold millions of frames, and an object per frame would cost far more than its 52 bytes.
 */
export interface WolfFrameTable {
  readonly length: number;
  /** min xyz then max xyz: 6 a frame. */
  readonly bounds: Float32Array;
  readonly localOrigins: Float32Array;
  readonly radii: Float32Array;
  /** Where the root bone starts the hierarchy: 3 a frame. */
  readonly parentOffsets: Float32Array;
}

/** What the composition reads of an MDS or MDX file. */
export interface WolfSkeleton {
  bones: readonly WolfBone[];
  torsoParent: number;
  /** The frames: how many, and each one's root position (3 floats a frame). */
  frames: { readonly length: number; readonly parentOffsets: Float32Array };
  /** Per frame, per bone: angles[4] (the 4th unused) then ofsAngles[2], as stored. */
  boneFrames: Int16Array;
}

/** Which frames, as a refEntity_t names them; frames are clamped to the skeleton's. */
export interface WolfFrames {
  frame: number;
  /** The frame blended from (default `frame`), by `backlerp` (0: `frame` alone). */
  oldFrame?: number;
  backlerp?: number;
  /** The torso's frames (default: the legs'). */
  torsoFrame?: number;
  oldTorsoFrame?: number;
  torsoBacklerp?: number;
  /** refEntity_t.torsoAxis, rows (default identity). */
  torsoAxis?: ArrayLike<number>;
}

const BONEFLAG_TAG = 1;

/** One composition's working vectors (a call never yields, so one set serves every call: a million frames made four million arrays). */
const SCRATCH = /* @__PURE__ */ scratchVectors();
function scratchVectors() {
  return { axis: new Float64Array(9), ang: new Float64Array(3), tang: new Float64Array(3), vec: new Float64Array(6) };
}
/** SHORT2ANGLE's factor, 360 / 65536 (a literal: a bundler keeps a top-level expression). */
const SHORT2ANGLE = 0.0054931640625;
/** π / 180. */
const DEG = 0.017453292519943295;

/** q_math.c AngleNormalize360 / 180, through the engine's 16-bit angle. */
function angleNormalize180(a: number): number {
  const n = (360 / 65536) * (Math.trunc(a * (65536 / 360)) & 65535);
  return n > 180 ? n - 360 : n;
}

/** AnglesToAxis (pitch, yaw, roll in degrees) → rows forward, left, up into `m` at `o` (stride 4). */
function anglesToAxis(pitch: number, yaw: number, roll: number, m: Float64Array): void {
  const sy = Math.sin(yaw * DEG), cy = Math.cos(yaw * DEG);
  const sp = Math.sin(pitch * DEG), cp = Math.cos(pitch * DEG);
  const sr = Math.sin(roll * DEG), cr = Math.cos(roll * DEG);
  m[0] = cp * cy; m[1] = cp * sy; m[2] = -sp;
  // left = −right
  m[3] = sr * sp * cy - cr * sy; m[4] = sr * sp * sy + cr * cy; m[5] = sr * cp;
  m[6] = cr * sp * cy + sr * sy; m[7] = cr * sp * sy - sr * cy; m[8] = cr * cp;
}

/** LocalAngleVector: the forward vector of (pitch, yaw). */
function angleVector(pitch: number, yaw: number, out: Float64Array, o: number): void {
  const sy = Math.sin(yaw * DEG), cy = Math.cos(yaw * DEG);
  const sp = Math.sin(pitch * DEG), cp = Math.cos(pitch * DEG);
  out[o] = cp * cy; out[o + 1] = cp * sy; out[o + 2] = -sp;
}

/** SLerp_Normal: a normalised lerp of two directions. */
function nlerp(a: Float64Array, ao: number, b: Float64Array, bo: number, t: number, out: Float64Array, oo: number): void {
  const x = a[ao] * (1 - t) + b[bo] * t, y = a[ao + 1] * (1 - t) + b[bo + 1] * t, z = a[ao + 2] * (1 - t) + b[bo + 2] * t;
  const len = Math.sqrt(x * x + y * y + z * z);
  const inv = len > 0 ? 1 / len : 0;
  out[oo] = x * inv; out[oo + 1] = y * inv; out[oo + 2] = z * inv;
}

/** The bones in an order with every parent before its children (the file's parents may come after). */
export function parentsFirst(bones: readonly WolfBone[]): Int32Array {
  const order = new Int32Array(bones.length);
  const placed = new Uint8Array(bones.length);
  let n = 0;
  const place = (i: number): void => {
    // parents are checked acyclic by the readers, so the walk up ends within bones.length steps
    const chain: number[] = [];
    for (let p = i; p >= 0 && !placed[p]; p = bones[p].parent) chain.push(p);
    for (let k = chain.length - 1; k >= 0; k--) { placed[chain[k]] = 1; order[n++] = chain[k]; }
  };
  for (let i = 0; i < bones.length; i++) place(i);
  return order;
}

/**
 * Composes every bone of `skeleton` for `frames` into `out` (bones × MATRIX_STRIDE floats, row-major 3×4). `scratch`
 * may be handed in to avoid allocating (bones × 12 float64s).
 */
export function wolfBoneMatrices(skeleton: WolfSkeleton, frames: WolfFrames, out: Float32Array, order: Int32Array = parentsFirst(skeleton.bones), scratch: Float64Array = new Float64Array(skeleton.bones.length * 12)): Float32Array {
  const { bones } = skeleton;
  const J = bones.length;
  const last = skeleton.frames.length - 1;
  const clamp = (f: number | undefined, d: number) => Math.min(Math.max(0, Math.floor(f ?? d)), last);
  const frame = clamp(frames.frame, 0);
  const oldFrame = clamp(frames.oldFrame, frame);
  const torsoFrame = clamp(frames.torsoFrame, frame);
  const oldTorsoFrame = clamp(frames.oldTorsoFrame, frames.torsoFrame === undefined ? oldFrame : torsoFrame);
  const backlerp = oldFrame === frame ? 0 : frames.backlerp ?? 0;
  const torsoBacklerp = oldTorsoFrame === torsoFrame ? 0 : frames.torsoBacklerp ?? (frames.torsoFrame === undefined ? backlerp : 0);
  const frontlerp = 1 - backlerp, torsoFrontlerp = 1 - torsoBacklerp;
  const lerped = backlerp !== 0 || torsoBacklerp !== 0;
  const bf = skeleton.boneFrames;
  const stride = J * 6;
  // each bone: matrix rows (9) and translation (3) in float64, as the engine's floats but without their rounding
  const m = scratch;
  const { axis, ang, tang, vec } = SCRATCH;
  const dec = (f: number, b: number, k: number) => bf[f * stride + b * 6 + k] * SHORT2ANGLE;
  const lerpAngle = (fNew: number, fOld: number, b: number, k: number, back: number) => {
    const a1 = dec(fNew, b, k), a2 = dec(fOld, b, k);
    return a1 - back * angleNormalize180(a1 - a2);
  };
  for (const b of order) {
    const bone = bones[b];
    const w = bone.torsoWeight;
    const isTorso = w !== 0, fullTorso = w === 1;
    for (let k = 0; k < 3; k++) {
      if (!lerped) {
        ang[k] = dec(fullTorso ? torsoFrame : frame, b, k);
        if (isTorso && !fullTorso) tang[k] = dec(torsoFrame, b, k);
      } else {
        ang[k] = fullTorso ? lerpAngle(torsoFrame, oldTorsoFrame, b, k, torsoBacklerp) : lerpAngle(frame, oldFrame, b, k, backlerp);
        if (isTorso && !fullTorso) tang[k] = lerpAngle(torsoFrame, oldTorsoFrame, b, k, torsoBacklerp);
      }
      if (isTorso && !fullTorso) {
        let diff = tang[k] - ang[k];
        if (Math.abs(diff) > 180) diff = angleNormalize180(diff);
        ang[k] += w * diff;
      }
    }
    anglesToAxis(ang[0], ang[1], ang[2], axis);
    const o = b * 12;
    for (let k = 0; k < 9; k++) m[o + k] = axis[k];
    if (bone.parent >= 0) {
      const p = bone.parent * 12 + 9;
      if (!lerped) {
        const src = fullTorso ? torsoFrame : frame;
        angleVector(dec(src, b, 4), dec(src, b, 5), vec, 0);
        if (isTorso && !fullTorso) {
          angleVector(dec(torsoFrame, b, 4), dec(torsoFrame, b, 5), vec, 3);
          nlerp(vec, 0, vec, 3, w, vec, 0);
        }
      } else {
        const [fNew, fOld, t] = fullTorso ? [torsoFrame, oldTorsoFrame, torsoFrontlerp] : [frame, oldFrame, frontlerp];
        angleVector(dec(fNew, b, 4), dec(fNew, b, 5), vec, 3);
        angleVector(dec(fOld, b, 4), dec(fOld, b, 5), vec, 0);
        nlerp(vec, 0, vec, 3, t, vec, 0);
        if (isTorso && !fullTorso) {
          const d = Float64Array.of(vec[0], vec[1], vec[2]);
          angleVector(dec(torsoFrame, b, 4), dec(torsoFrame, b, 5), vec, 3);
          angleVector(dec(oldTorsoFrame, b, 4), dec(oldTorsoFrame, b, 5), vec, 0);
          nlerp(vec, 0, vec, 3, torsoFrontlerp, vec, 3);
          nlerp(d, 0, vec, 3, w, vec, 0);
        }
      }
      for (let k = 0; k < 3; k++) m[o + 9 + k] = m[p + k] + bone.parentDist * vec[k];
    } else {
      const a = skeleton.frames.parentOffsets.subarray(frame * 3), c = skeleton.frames.parentOffsets.subarray(oldFrame * 3);
      for (let k = 0; k < 3; k++) m[o + 9 + k] = lerped ? frontlerp * a[k] + backlerp * c[k] : a[k];
    }
  }
  torsoTurn(skeleton, frames.torsoAxis, m);
  for (let b = 0; b < J; b++) {
    const o = b * 12, d = b * MATRIX_STRIDE;
    for (let r = 0; r < 3; r++) {
      out[d + 4 * r] = m[o + 3 * r]; out[d + 4 * r + 1] = m[o + 3 * r + 1]; out[d + 4 * r + 2] = m[o + 3 * r + 2];
      out[d + 4 * r + 3] = m[o + 9 + r];
    }
    out[d + 12] = 0; out[d + 13] = 0; out[d + 14] = 0; out[d + 15] = 0;
  }
  return out;
}

/** R_CalcBones' last loop: the torso bones turned by the torso axis (transposed), scaled by their weight, about the torso parent. */
function torsoTurn(skeleton: WolfSkeleton, torsoAxis: ArrayLike<number> | undefined, m: Float64Array): void {
  if (!torsoAxis) return; // identity: the turn is no turn
  const { bones, torsoParent } = skeleton;
  const tpo = torsoParent >= 0 && torsoParent < bones.length ? m.slice(torsoParent * 12 + 9, torsoParent * 12 + 12) : new Float64Array(3);
  // Matrix3Transpose(refent->torsoAxis)
  const A = new Float64Array(9);
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) A[r * 3 + c] = torsoAxis[c * 3 + r];
  const scaled = (w: number, v: ArrayLike<number>, vo: number, out: Float64Array, oo: number) => {
    const x = v[vo], y = v[vo + 1], z = v[vo + 2];
    for (let r = 0; r < 3; r++) out[oo + r] = (1 - w) * v[vo + r] + w * (x * A[r * 3] + y * A[r * 3 + 1] + z * A[r * 3 + 2]);
  };
  const tmp = new Float64Array(12);
  for (let b = 0; b < bones.length; b++) {
    const w = bones[b].torsoWeight;
    if (!(w > 0)) continue;
    const o = b * 12;
    const t = [m[o + 9] - tpo[0], m[o + 10] - tpo[1], m[o + 11] - tpo[2]];
    if (!(bones[b].flags & BONEFLAG_TAG)) {
      // m2 (w·A + (1 − w)·I, then tpo) × m1 (the bone's matrix, then t − tpo)
      for (let r = 0; r < 3; r++) {
        const s = (c: number) => w * A[r * 3 + c] + (r === c ? 1 - w : 0);
        for (let c = 0; c < 3; c++) tmp[r * 3 + c] = s(0) * m[o + c] + s(1) * m[o + 3 + c] + s(2) * m[o + 6 + c];
        tmp[9 + r] = s(0) * t[0] + s(1) * t[1] + s(2) * t[2] + tpo[r];
      }
      m.set(tmp, o);
    } else {
      // a tag's axes each turned (LocalScaledMatrixTransformVector), its position about the torso parent
      for (let r = 0; r < 3; r++) scaled(w, m, o + 3 * r, tmp, 3 * r);
      scaled(w, t, 0, tmp, 9);
      for (let k = 0; k < 3; k++) tmp[9 + k] += tpo[k];
      m.set(tmp, o);
    }
  }
}

/**
 * Each bone's pose relative to its parent at one frame, from the composed matrices (`matrices`, MATRIX_STRIDE a
 * bone): translation (3 a bone) and rotation (unit x y z w, 4 a bone) — what a glTF joint or a three.js bone takes.
 * The rows of an engine matrix are the bone's axes as the skinning reads them (out = M · v), so its columns are the
 * local axes in the model's space.
 */
export function wolfLocalPoses(bones: readonly WolfBone[], matrices: Float32Array, translations: Float32Array, rotations: Float32Array): void {
  const x = [0, 0, 0], y = [0, 0, 0], z = [0, 0, 0];
  for (let b = 0; b < bones.length; b++) {
    const o = b * MATRIX_STRIDE, parent = bones[b].parent;
    let tx = matrices[o + 3], ty = matrices[o + 7], tz = matrices[o + 11];
    for (let r = 0; r < 3; r++) {
      x[r] = matrices[o + 4 * r];
      y[r] = matrices[o + 4 * r + 1];
      z[r] = matrices[o + 4 * r + 2];
    }
    if (parent >= 0) {
      // Rpᵀ · (t − tp), and Rpᵀ · each axis (column c of Rpᵀ·v is Σ_r Rp[r][c] v[r])
      const p = parent * MATRIX_STRIDE;
      const dx = tx - matrices[p + 3], dy = ty - matrices[p + 7], dz = tz - matrices[p + 11];
      const inv = (v: number[], c: number) => matrices[p + c] * v[0] + matrices[p + 4 + c] * v[1] + matrices[p + 8 + c] * v[2];
      const d = [dx, dy, dz];
      tx = inv(d, 0); ty = inv(d, 1); tz = inv(d, 2);
      const lx = [inv(x, 0), inv(x, 1), inv(x, 2)], ly = [inv(y, 0), inv(y, 1), inv(y, 2)], lz = [inv(z, 0), inv(z, 1), inv(z, 2)];
      x.splice(0, 3, ...lx); y.splice(0, 3, ...ly); z.splice(0, 3, ...lz);
    }
    translations[b * 3] = tx; translations[b * 3 + 1] = ty; translations[b * 3 + 2] = tz;
    rotations.set(quatFromBasis(x, y, z), b * 4);
  }
}

/** The first bone whose parents loop (no root above it), or −1: the readers refuse such a file (the renderer would compute a bone from one never computed). */
export function firstLoopingBone(bones: readonly WolfBone[]): number {
  for (let i = 0; i < bones.length; i++) {
    let p = bones[i].parent;
    for (let steps = 0; p >= 0; steps++) {
      if (steps >= bones.length) return i;
      p = bones[p].parent;
    }
  }
  return -1;
}

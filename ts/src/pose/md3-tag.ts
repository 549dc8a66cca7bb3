/**
 * Tag interpolation, as ioquake3 `R_LerpTag` does it: origin and the three axes lerped component-wise between the
 * two frames, then each axis normalised on its own. That is not a rotation in general (lerped axes drift from 90°
 * apart, by up to a few degrees between the frames of a fast clip), but it is what the game renders, so it is the
 * default. `{ orthonormalize: true }` makes a true rotation instead: Gram–Schmidt from axis[0] (axis[0]
 * normalised; axis[1] made perpendicular to it; axis[2] made perpendicular to both), which keeps the stored
 * handedness (a cross product would silently un-mirror a mirrored tag). A degenerate axis (lerped to zero length)
 * is left as it is, like the engine's VectorNormalize; never NaN.
 */
import type { Md3Model } from '../base/model.js';
import { quatFromBasis, type Quat } from '../base/quat.js';

/** Layout of a lerped tag: origin xyz, then axis[0], axis[1], axis[2] (3 floats each), as in the file. */
export const TAG_FLOATS = 12;

export interface LerpTagOptions {
  /** Gram–Schmidt the lerped axes into an orthonormal frame (default false: normalise each, as the engine). */
  orthonormalize?: boolean;
}

/** Index of the tag called `name`, or −1. */
export function md3TagIndex(model: Md3Model, name: string): number {
  return model.tagNames.indexOf(name);
}

function resolveTag(model: Md3Model, tag: number | string): number {
  const k = typeof tag === 'string' ? md3TagIndex(model, tag) : tag;
  if (!Number.isInteger(k) || k < 0 || k >= model.tagCount) {
    throw new RangeError(`no tag ${JSON.stringify(tag)} (the model has ${JSON.stringify(model.tagNames)})`);
  }
  return k;
}

/** RangeError unless `frame` is one of the model's frames (the engine clamps silently; here that would hide a caller's bug). */
function checkFrame(model: Md3Model, frame: number): void {
  if (!Number.isInteger(frame) || frame < 0 || frame >= model.frameCount) {
    throw new RangeError(`frame ${frame} outside 0..${model.frameCount - 1}`);
  }
}

function normalize(v: Float32Array, o: number): void {
  const len = Math.hypot(v[o], v[o + 1], v[o + 2]);
  if (len > 0) {
    v[o] /= len;
    v[o + 1] /= len;
    v[o + 2] /= len;
  }
}

/** v[o…] −= (v[o…] · u[p…]) u[p…], for a unit u. */
function reject(v: Float32Array, o: number, u: Float32Array, p: number): void {
  const d = v[o] * u[p] + v[o + 1] * u[p + 1] + v[o + 2] * u[p + 2];
  v[o] -= d * u[p];
  v[o + 1] -= d * u[p + 1];
  v[o + 2] -= d * u[p + 2];
}

/**
 * The tag `tag` (index or name) blended between `frameA` (t = 0) and `frameB` (t = 1), written to
 * `out[0…11]` (origin, axis[0], axis[1], axis[2]). Frames out of range are a RangeError (the engine clamps them
 * silently to the last frame; here that would hide a caller's bug).
 */
export function lerpTag(
  model: Md3Model, tag: number | string, frameA: number, frameB: number, t: number,
  out: Float32Array = new Float32Array(TAG_FLOATS), options: LerpTagOptions = {},
): Float32Array {
  const k = resolveTag(model, tag);
  checkFrame(model, frameA);
  checkFrame(model, frameB);
  const T = model.tagCount;
  const ia = frameA * T + k;
  const ib = frameB * T + k;
  const s = 1 - t;
  for (let c = 0; c < 3; c++) out[c] = model.tagOrigins[ia * 3 + c] * s + model.tagOrigins[ib * 3 + c] * t;
  for (let c = 0; c < 9; c++) out[3 + c] = model.tagAxes[ia * 9 + c] * s + model.tagAxes[ib * 9 + c] * t;
  normalize(out, 3);
  if (options.orthonormalize) {
    reject(out, 6, out, 3);
    normalize(out, 6);
    reject(out, 9, out, 3);
    reject(out, 9, out, 6);
  } else {
    normalize(out, 6);
  }
  normalize(out, 9);
  return out;
}

/**
 * A tag's rotation as a unit quaternion: the matrix whose columns are its three axes (a point p of an attached model
 * lands at origin + Σ p[i]·axis[i], ioquake3 CG_PositionEntityOnTag), for the glTF exporter's tag nodes and the
 * three.js adapter's. `axes` are 9 floats, axis[0] first (`lerpTag`'s out[3…11]); orthonormal ones make a true rotation.
 */
export const tagQuaternion = (axes: ArrayLike<number>): Quat => quatFromBasis([axes[0], axes[1], axes[2]], [axes[3], axes[4], axes[5]], [axes[6], axes[7], axes[8]]);

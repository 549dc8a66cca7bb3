/**
 * Column-major 4×4 matrices (glTF's layout: element (row r, column c) at c·4 + r) in double precision, and rigid
 * transforms — a rotation quaternion and a translation — read from and written as them: the glTF import's arithmetic
 * (not the front door's: the bundle splits by module, so this file stays out of it).
 */
import { quatFromBasis, type Quat } from './quat.js';
import { cross, dot, unit, type Vec3 } from './vec3.js';

/** A rotation (unit quaternion) and a translation. */
export interface Rigid {
  q: Quat;
  t: Vec3;
}

export const MAT4_IDENTITY: readonly number[] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** The product a·b. */
export function mat4Multiply(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const o = new Array<number>(16).fill(0);
  for (let c = 0; c < 4; c++) for (let r = 0; r < 4; r++) {
    let s = 0;
    for (let k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
    o[c * 4 + r] = s;
  }
  return o;
}

/**
 * The inverse of m (general: cofactors) and its determinant; `inverse` is null when the determinant is not finite or
 * not above `minDet` in size.
 */
export function mat4Invert(m: ArrayLike<number>, minDet = 0): { inverse: number[] | null; det: number } {
  const [a00, a01, a02, a03, a10, a11, a12, a13, a20, a21, a22, a23, a30, a31, a32, a33] = Array.from(m);
  const b00 = a00 * a11 - a01 * a10, b01 = a00 * a12 - a02 * a10, b02 = a00 * a13 - a03 * a10;
  const b03 = a01 * a12 - a02 * a11, b04 = a01 * a13 - a03 * a11, b05 = a02 * a13 - a03 * a12;
  const b06 = a20 * a31 - a21 * a30, b07 = a20 * a32 - a22 * a30, b08 = a20 * a33 - a23 * a30;
  const b09 = a21 * a32 - a22 * a31, b10 = a21 * a33 - a23 * a31, b11 = a22 * a33 - a23 * a32;
  const det = b00 * b11 - b01 * b10 + b02 * b09 + b03 * b08 - b04 * b07 + b05 * b06;
  if (!(Math.abs(det) > minDet) || !Number.isFinite(det)) return { inverse: null, det };
  const d = 1 / det;
  const inverse = [
    (a11 * b11 - a12 * b10 + a13 * b09) * d, (a02 * b10 - a01 * b11 - a03 * b09) * d, (a31 * b05 - a32 * b04 + a33 * b03) * d, (a22 * b04 - a21 * b05 - a23 * b03) * d,
    (a12 * b08 - a10 * b11 - a13 * b07) * d, (a00 * b11 - a02 * b08 + a03 * b07) * d, (a32 * b02 - a30 * b05 - a33 * b01) * d, (a20 * b05 - a22 * b02 + a23 * b01) * d,
    (a10 * b10 - a11 * b08 + a13 * b06) * d, (a01 * b08 - a00 * b10 - a03 * b06) * d, (a30 * b04 - a31 * b02 + a33 * b00) * d, (a21 * b02 - a20 * b04 - a23 * b00) * d,
    (a11 * b07 - a10 * b09 - a12 * b06) * d, (a00 * b09 - a01 * b07 + a02 * b06) * d, (a31 * b01 - a30 * b03 - a32 * b00) * d, (a20 * b03 - a21 * b01 + a22 * b00) * d,
  ];
  return { inverse, det };
}

/** The rotation and translation of an affine matrix, scale and shear dropped (columns Gram–Schmidt'ed, a mirror's last axis flipped). */
export function rigidPart(m: ArrayLike<number>): Rigid {
  const x = unit([m[0], m[1], m[2]]);
  const c1 = [m[4], m[5], m[6]];
  const y = unit(c1.map((c, i) => c - dot(c1, x) * x[i]));
  const z = cross(x, y);
  return { q: quatFromBasis(x, y, z), t: [m[12], m[13], m[14]] };
}

/** |scale − 1| or shear of an affine matrix's 3×3 part, the largest: how far it is from a rotation. */
export function nonRigidity(m: ArrayLike<number>): number {
  const c = [[m[0], m[1], m[2]], [m[4], m[5], m[6]], [m[8], m[9], m[10]]];
  let worst = 0;
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) worst = Math.max(worst, Math.abs(dot(c[i], c[j]) - (i === j ? 1 : 0)));
  return worst;
}

/** The matrix of the rigid transform (R(q), t). */
export function rigidMatrix({ q: [x, y, z, w], t }: Rigid): number[] {
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y), 0,
    2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x), 0,
    2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y), 0,
    t[0], t[1], t[2], 1,
  ];
}

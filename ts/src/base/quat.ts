/**
 * Quaternions: the one fact parsers and kernels share (`recoverW`, in float32 as the kernels compute it) and the
 * double-precision arithmetic of the exporters, the importers and the three.js adapter — one home for all of them.
 * Convention (see model.ts and crates/core/src/quat.rs): (x, y, z, w), Hamilton product, v' = q·v·q*,
 * w = −sqrt(max(0, 1 − x² − y² − z²)).
 */
const fr = Math.fround;

/**
 * w from x, y, z in float32, operation by operation like Rust's `recover_w`: near |xyz| = 1 the square root
 * amplifies rounding differences (1e-8 under the root is 1e-4 in w), so both paths round alike. +0 when the
 * radicand is not positive.
 */
export function recoverW(x: number, y: number, z: number): number {
  const t = fr(fr(fr(1 - fr(x * x)) - fr(y * y)) - fr(z * z));
  return t > 0 ? -fr(Math.sqrt(t)) : 0;
}

/** A quaternion (x, y, z, w) in double precision, for the exporters' and importers' rigid-transform arithmetic. */
export type Quat = [number, number, number, number];

/** Hamilton product a·b. */
export function quatMultiply(a: Quat, b: Quat): Quat {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

/** The conjugate (the inverse of a unit quaternion). */
export const quatConjugate = (q: Quat): Quat => [-q[0], -q[1], -q[2], q[3]];

/** q·v·q* for a unit q. */
export function quatRotate(q: Quat, v: ArrayLike<number>): [number, number, number] {
  const [x, y, z, w] = q;
  const cx = 2 * (y * v[2] - z * v[1]), cy = 2 * (z * v[0] - x * v[2]), cz = 2 * (x * v[1] - y * v[0]);
  return [v[0] + w * cx + (y * cz - z * cy), v[1] + w * cy + (z * cx - x * cz), v[2] + w * cz + (x * cy - y * cx)];
}

/** q / |q|; a zero q stays zero. */
export function quatNormalize(q: ArrayLike<number>): Quat {
  const l = Math.hypot(q[0], q[1], q[2], q[3]) || 1;
  return [q[0] / l, q[1] / l, q[2] / l, q[3] / l];
}

/** (x, y, z, w) / its length; the identity when that is zero or not a number. */
export function quatUnit(x: number, y: number, z: number, w: number): Quat {
  const len = Math.hypot(x, y, z, w);
  return len > 0 ? [x / len, y / len, z / len, w / len] : [0, 0, 0, 1];
}

/**
 * The unit quaternion of the rotation whose matrix has columns x, y, z (an orthonormal basis; MD3 tag axes are those
 * columns, ioquake3 R_LerpTag), by Shepperd's method: the largest of w, x, y, z is found from the diagonal first.
 */
export function quatFromBasis(x: ArrayLike<number>, y: ArrayLike<number>, z: ArrayLike<number>): Quat {
  const tr = x[0] + y[1] + z[2];
  let q: Quat;
  if (tr > 0) {
    const s = 2 * Math.sqrt(tr + 1);
    q = [(y[2] - z[1]) / s, (z[0] - x[2]) / s, (x[1] - y[0]) / s, s / 4];
  } else if (x[0] > y[1] && x[0] > z[2]) {
    const s = 2 * Math.sqrt(1 + x[0] - y[1] - z[2]);
    q = [s / 4, (y[0] + x[1]) / s, (z[0] + x[2]) / s, (y[2] - z[1]) / s];
  } else if (y[1] > z[2]) {
    const s = 2 * Math.sqrt(1 + y[1] - x[0] - z[2]);
    q = [(y[0] + x[1]) / s, s / 4, (z[1] + y[2]) / s, (z[0] - x[2]) / s];
  } else {
    const s = 2 * Math.sqrt(1 + z[2] - x[0] - y[1]);
    q = [(z[0] + x[2]) / s, (z[1] + y[2]) / s, s / 4, (x[1] - y[0]) / s];
  }
  return quatNormalize(q);
}

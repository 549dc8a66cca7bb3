/** Three-vectors in double precision, for the exporters' and importers' rigid-transform arithmetic (base/quat.ts, base/mat4.ts). */
export type Vec3 = [number, number, number];

export const cross = (a: ArrayLike<number>, b: ArrayLike<number>): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

export const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** v / |v|; a zero v stays zero. */
export function unit(v: ArrayLike<number>): Vec3 {
  const l = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / l, v[1] / l, v[2] / l];
}

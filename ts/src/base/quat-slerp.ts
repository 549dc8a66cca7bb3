/**
 * Quaternion interpolation for the glTF import's sampler (glTF 2.0 LINEAR rotation channels). A file of its own so
 * the front door, which never samples a glTF, does not carry it (the bundle splits by module).
 */
import { quatNormalize, type Quat } from './quat.js';

/** Shortest-path spherical interpolation from a (t = 0) to b (t = 1), normalised; linear (then normalised) when a·b ≥ 0.9995. */
export function quatSlerp(a: ArrayLike<number>, b: ArrayLike<number>, t: number): Quat {
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const s = d < 0 ? -1 : 1;
  d *= s;
  let ka = 1 - t, kb = t;
  if (d < 0.9995) {
    const th = Math.acos(d), sin = Math.sin(th);
    ka = Math.sin((1 - t) * th) / sin;
    kb = Math.sin(t * th) / sin;
  }
  return quatNormalize([ka * a[0] + s * kb * b[0], ka * a[1] + s * kb * b[1], ka * a[2] + s * kb * b[2], ka * a[3] + s * kb * b[3]]);
}

/**
 * The one quaternion fact parsers and kernels share. Convention (see model.ts and crates/core/src/quat.rs):
 * (x, y, z, w), Hamilton product, v' = q·v·q*, w = −sqrt(max(0, 1 − x² − y² − z²)).
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

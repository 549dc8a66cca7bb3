//! A crowd's joint palettes in one call: many instances of one skeleton, each at its own place in its own clip,
//! posed from a skinned view's sampled clips (`formats/model-view.ts` `SkinnedClipView`: every joint's
//! parent-relative translation, unit rotation and scale at each key) into one skinning matrix per joint per instance
//! — what GPU skinning reads, and what three.js computes bone by bone (`AnimationMixer` then `Skeleton.update`).
//!
//! Per instance and joint: the two keys lerped (translation, scale) and slerped (rotation: Doom 3's shortest path, as
//! `quat::slerp`, with its acos and sines as polynomials, `slerp_poly`: within 1e-6 of it, and a crowd's joints are
//! most of its time — libm's acosf and sinf were four calls per joint), the local matrix T · R · S, taken through its
//! parent's (parents first) and then its inverse bind: `palette = object · inverse_bind`, row-major 3×4.
//!
//! No allocation; one scratch of `joints · 12` floats (the object matrices of the instance in hand). Key indices
//! past the keys are clamped to the last; a parent not below its joint is taken as a root (`validate::parents`
//! reports it), so unvalidated input cannot read outside the slices.

use crate::layout::{CROWD_INSTANCE_STRIDE, CROWD_KEY_STRIDE, CROWD_PALETTE_STRIDE};
use crate::quat;

/// The skeleton and its keys: `keys` holds key after key, each `joints · CROWD_KEY_STRIDE` floats.
pub struct CrowdSkeleton<'a> {
    pub parents: &'a [i32],
    /// Row-major 3×4 per joint (`CROWD_PALETTE_STRIDE`): object space → the joint's bind space.
    pub inv_bind: &'a [f32],
    pub keys: &'a [f32],
}

/// acos(x) for x in [0, 1] (Abramowitz & Stegun 4.4.46: |error| ≤ 2e-8).
#[inline(always)]
pub fn acos01(x: f32) -> f32 {
    let p = -0.001_262_491_1;
    let p = p * x + 0.006_670_090_1;
    let p = p * x - 0.017_088_125_6;
    let p = p * x + 0.030_891_881;
    let p = p * x - 0.050_174_304_6;
    let p = p * x + 0.088_978_987_4;
    let p = p * x - 0.214_598_801_6;
    let p = p * x + 1.570_796_305;
    (1.0 - x).sqrt() * p
}

/// sin(x) for x in [0, π/2]: Taylor to x¹¹ (|error| ≤ 6e-8 there).
#[inline(always)]
pub fn sin_half_pi(x: f32) -> f32 {
    let x2 = x * x;
    let p = -1.0 / 39_916_800.0;
    let p = p * x2 + 1.0 / 362_880.0;
    let p = p * x2 - 1.0 / 5_040.0;
    let p = p * x2 + 1.0 / 120.0;
    let p = p * x2 - 1.0 / 6.0;
    x + x * x2 * p
}

/// `quat::slerp` (Doom 3's: t ≤ 0 → a, t ≥ 1 → b, b flipped on a negative dot, a plain lerp when nearly equal) with
/// `acos01` and `sin_half_pi` (the angle is in [0, π/2] once b is on a's side).
#[inline(always)]
pub fn slerp_poly(a: quat::Quat, b: quat::Quat, t: f32) -> quat::Quat {
    if t <= 0.0 {
        return a;
    }
    if t >= 1.0 {
        return b;
    }
    let mut cosom = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
    let mut to = b;
    if cosom < 0.0 {
        cosom = -cosom;
        to = [-b[0], -b[1], -b[2], -b[3]];
    }
    let (s0, s1) = if 1.0 - cosom > 1e-6 {
        let omega = acos01(cosom.min(1.0));
        let inv_sin = 1.0 / sin_half_pi(omega);
        (sin_half_pi((1.0 - t) * omega) * inv_sin, sin_half_pi(t * omega) * inv_sin)
    } else {
        (1.0 - t, t)
    };
    [s0 * a[0] + s1 * to[0], s0 * a[1] + s1 * to[1], s0 * a[2] + s1 * to[2], s0 * a[3] + s1 * to[3]]
}

/// T · R · S as a row-major 3×4: the rotation's columns scaled by s, the translation in the last column.
#[inline(always)]
fn trs(t: [f32; 3], q: quat::Quat, s: [f32; 3]) -> [f32; 12] {
    let c = quat::to_columns(q);
    [
        c[0][0] * s[0], c[1][0] * s[1], c[2][0] * s[2], t[0],
        c[0][1] * s[0], c[1][1] * s[1], c[2][1] * s[2], t[1],
        c[0][2] * s[0], c[1][2] * s[1], c[2][2] * s[2], t[2],
    ]
}

/// `a · b` (row-major 3×4, implied last row 0 0 0 1): ioquake3's `Matrix34Multiply` (`iqm::matrix34_multiply`), its
/// sums in the same order; with SIMD128 one row of the result per vector (the same floats).
#[inline(always)]
fn mul34(a: &[f32; 12], b: &[f32]) -> [f32; 12] {
    let b = &b[..12];
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::*;
        // SAFETY: `b` holds 12 floats (sliced above); `o` is 12 floats; unaligned reads and writes.
        unsafe {
            let p = b.as_ptr() as *const v128;
            let (b0, b1, b2) = (p.read_unaligned(), p.add(1).read_unaligned(), p.add(2).read_unaligned());
            let mut o = [0.0f32; 12];
            let q = o.as_mut_ptr() as *mut v128;
            for r in 0..3 {
                let row = f32x4_add(f32x4_add(f32x4_add(f32x4_mul(f32x4_splat(a[r * 4]), b0), f32x4_mul(f32x4_splat(a[r * 4 + 1]), b1)), f32x4_mul(f32x4_splat(a[r * 4 + 2]), b2)), f32x4(0.0, 0.0, 0.0, a[r * 4 + 3]));
                q.add(r).write_unaligned(row);
            }
            o
        }
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        let mut o = [0.0f32; 12];
        for r in 0..3 {
            for c in 0..4 {
                let v = a[r * 4] * b[c] + a[r * 4 + 1] * b[4 + c] + a[r * 4 + 2] * b[8 + c];
                o[r * 4 + c] = if c == 3 { v + a[r * 4 + 3] } else { v };
            }
        }
        o
    }
}

#[inline(always)]
fn read12(s: &[f32], at: usize) -> [f32; 12] {
    let mut o = [0.0f32; 12];
    o.copy_from_slice(&s[at..at + 12]);
    o
}

/// The palettes of the first `count` instances into `out` (instance i's joint j at `(i · joints + j) · 12`).
/// `instance_keys`: 2 per instance (key a, key b); `instance_blend`: 2 per instance (t of translation and rotation,
/// ts of scale). False, writing nothing, when a buffer is too short for `count` or the keys hold no whole key.
pub fn crowd_palettes(sk: &CrowdSkeleton, instance_keys: &[u32], instance_blend: &[f32], count: usize, scratch: &mut [f32], out: &mut [f32]) -> bool {
    let joints = sk.parents.len();
    let per_key = joints * CROWD_KEY_STRIDE;
    let key_count = if per_key == 0 { 0 } else { sk.keys.len() / per_key };
    let per_instance = joints * CROWD_PALETTE_STRIDE;
    if sk.inv_bind.len() < per_instance
        || scratch.len() < per_instance
        || count.checked_mul(CROWD_INSTANCE_STRIDE).map_or(true, |n| instance_keys.len() < n || instance_blend.len() < n)
        || count.checked_mul(per_instance).map_or(true, |n| out.len() < n)
        || (joints > 0 && key_count == 0)
    {
        return false;
    }
    let last = key_count.saturating_sub(1);
    for i in 0..count {
        let ka = (instance_keys[i * 2] as usize).min(last) * per_key;
        let kb = (instance_keys[i * 2 + 1] as usize).min(last) * per_key;
        let t = instance_blend[i * 2];
        let ts = instance_blend[i * 2 + 1];
        let o = &mut out[i * per_instance..(i + 1) * per_instance];
        for j in 0..joints {
            let a = &sk.keys[ka + j * CROWD_KEY_STRIDE..ka + (j + 1) * CROWD_KEY_STRIDE];
            let b = &sk.keys[kb + j * CROWD_KEY_STRIDE..kb + (j + 1) * CROWD_KEY_STRIDE];
            let tr = [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
            let q = slerp_poly([a[3], a[4], a[5], a[6]], [b[3], b[4], b[5], b[6]], t);
            let s = [a[7] + (b[7] - a[7]) * ts, a[8] + (b[8] - a[8]) * ts, a[9] + (b[9] - a[9]) * ts];
            let local = trs(tr, q, s);
            let p = sk.parents[j];
            let object = if p >= 0 && (p as usize) < j { mul34(&read12(scratch, p as usize * CROWD_PALETTE_STRIDE), &local) } else { local };
            scratch[j * CROWD_PALETTE_STRIDE..(j + 1) * CROWD_PALETTE_STRIDE].copy_from_slice(&object);
            let palette = mul34(&object, &sk.inv_bind[j * CROWD_PALETTE_STRIDE..]);
            o[j * CROWD_PALETTE_STRIDE..(j + 1) * CROWD_PALETTE_STRIDE].copy_from_slice(&palette);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_polynomial_slerp_is_doom_3s_within_1e_6() {
        let mut worst = 0.0f32;
        let mut seed = 1u32;
        let mut r = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        for _ in 0..20_000 {
            let a = quat::normalize([r(), r(), r(), r()]);
            let b = quat::normalize([r(), r(), r(), r()]);
            let t = r() + 0.5;
            let (p, e) = (slerp_poly(a, b, t), quat::slerp(a, b, t));
            for k in 0..4 {
                worst = worst.max((p[k] - e[k]).abs());
            }
        }
        assert!(worst < 1e-6, "worst {}", worst);
        for k in 0..=100 {
            let x = k as f32 / 100.0;
            assert!((acos01(x) - x.acos()).abs() < 1e-6);
            let y = x * std::f32::consts::FRAC_PI_2;
            assert!((sin_half_pi(y) - y.sin()).abs() < 1e-6);
        }
    }

    #[test]
    fn mul34_is_ioquake3s_product() {
        let a: [f32; 12] = [1.5, -2.0, 0.25, 3.0, 0.5, 1.0, -1.0, 2.0, 4.0, 0.0, 1.0, -1.0];
        let b: [f32; 12] = [0.1, 0.2, 0.3, 0.4, -0.5, 0.6, 0.7, 0.8, 0.9, -1.0, 1.1, 1.2];
        assert_eq!(mul34(&a, &b), crate::iqm::matrix34_multiply(&a, &b));
    }

    const ID: [f32; 12] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];

    #[test]
    fn a_child_follows_its_parent_and_keys_blend() {
        // Two joints; key 0: root at x = 0, key 1: root at x = 2; the child 1 along y of its parent, rotated 90° about z at key 1.
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let k0 = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0];
        let k1 = [2.0, 0.0, 0.0, 0.0, 0.0, h, h, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0];
        let keys: Vec<f32> = k0.iter().chain(k1.iter()).copied().collect();
        let mut inv = [0.0f32; 24];
        inv[..12].copy_from_slice(&ID);
        inv[12..].copy_from_slice(&ID);
        let sk = CrowdSkeleton { parents: &[-1, 0], inv_bind: &inv, keys: &keys };
        let mut scratch = [0.0f32; 24];
        let mut out = [0.0f32; 48];
        assert!(crowd_palettes(&sk, &[0, 1, 1, 9], &[0.5, 0.5, 0.0, 0.0], 2, &mut scratch, &mut out));
        // instance 0 halfway: root at x = 1
        assert!((out[3] - 1.0).abs() < 1e-6);
        // instance 1 at key 1 (key 9 clamped): the child sits 1 along the root's rotated y, i.e. at (2 − 1, 0, 0)
        let c = &out[24 + 12..24 + 24];
        assert!((c[3] - 1.0).abs() < 1e-6 && c[7].abs() < 1e-6, "{:?}", c);
        assert!(!crowd_palettes(&sk, &[0, 1], &[0.0, 0.0], 2, &mut scratch, &mut out));
    }
}

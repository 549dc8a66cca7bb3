//! A crowd's joint palettes in one call: many instances of one skeleton, each at its own place in its own clip,
//! posed from a skinned view's sampled clips (`formats/model-view.ts` `SkinnedClipView`: every joint's
//! parent-relative translation, unit rotation and scale at each key) into one skinning matrix per joint per instance
//! — what GPU skinning reads, and what three.js computes bone by bone (`AnimationMixer` then `Skeleton.update`).
//!
//! Per instance and joint: the two keys lerped (translation, scale) and slerped (rotation, Doom 3's shortest path:
//! `quat::slerp`, the one `pose::interpolate_local` uses), the local matrix T · R · S, taken through its parent's
//! (parents first) and then its inverse bind: `palette = object · inverse_bind`, row-major 3×4.
//!
//! No allocation; one scratch of `joints · 12` floats (the object matrices of the instance in hand). Key indices
//! past the keys are clamped to the last; a parent not below its joint is taken as a root (`validate::parents`
//! reports it), so unvalidated input cannot read outside the slices.

use crate::iqm::matrix34_multiply;
use crate::layout::{CROWD_INSTANCE_STRIDE, CROWD_KEY_STRIDE, CROWD_PALETTE_STRIDE};
use crate::quat;

/// The skeleton and its keys: `keys` holds key after key, each `joints · CROWD_KEY_STRIDE` floats.
pub struct CrowdSkeleton<'a> {
    pub parents: &'a [i32],
    /// Row-major 3×4 per joint (`CROWD_PALETTE_STRIDE`): object space → the joint's bind space.
    pub inv_bind: &'a [f32],
    pub keys: &'a [f32],
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
            let q = quat::slerp([a[3], a[4], a[5], a[6]], [b[3], b[4], b[5], b[6]], t);
            let s = [a[7] + (b[7] - a[7]) * ts, a[8] + (b[8] - a[8]) * ts, a[9] + (b[9] - a[9]) * ts];
            let local = trs(tr, q, s);
            let p = sk.parents[j];
            let object = if p >= 0 && (p as usize) < j { matrix34_multiply(&read12(scratch, p as usize * CROWD_PALETTE_STRIDE), &local) } else { local };
            scratch[j * CROWD_PALETTE_STRIDE..(j + 1) * CROWD_PALETTE_STRIDE].copy_from_slice(&object);
            let palette = matrix34_multiply(&object, &read12(sk.inv_bind, j * CROWD_PALETTE_STRIDE));
            o[j * CROWD_PALETTE_STRIDE..(j + 1) * CROWD_PALETTE_STRIDE].copy_from_slice(&palette);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

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

//! Linear blend skinning over a per-vertex weight stream (vertices in order, each followed by its
//! `counts[v]` weights). With weights pre-scaled as `x·b y·b z·b b`, a vertex is Σ M_j · w, so the
//! bias multiply disappears from the inner loop; for normals the last lane is 0 and the same sum
//! applies only the rotation columns.
//!
//! Two implementations with identical results up to float rounding: a scalar one (every target) and
//! a SIMD128 one (wasm32 built with `+simd128`), chosen at compile time; the JS side picks which of
//! the two wasm builds to load at run time.

use crate::layout::{MATRIX_STRIDE, WEIGHT_STRIDE};

/// Positions: `out[3v..3v+3] = Σ_k M[joints[k]] · weights[4k..4k+4]`.
pub fn skin_positions(matrices: &[f32], counts: &[u32], joints: &[u32], weights: &[f32], out: &mut [f32]) {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        simd::skin(matrices, counts, joints, weights, out);
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        skin_scalar(matrices, counts, joints, weights, out);
    }
}

/// Normals: the same sum over normal weights (`nx·b ny·b nz·b 0`), then renormalised.
pub fn skin_normals(matrices: &[f32], counts: &[u32], joints: &[u32], normal_weights: &[f32], out: &mut [f32]) {
    skin_positions(matrices, counts, joints, normal_weights, out);
    for n in out.chunks_exact_mut(3) {
        let len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
        if len2 > 0.0 {
            let inv = 1.0 / len2.sqrt();
            n[0] *= inv;
            n[1] *= inv;
            n[2] *= inv;
        }
    }
}

pub fn skin_scalar(matrices: &[f32], counts: &[u32], joints: &[u32], weights: &[f32], out: &mut [f32]) {
    let mut k = 0usize;
    for (v, &count) in counts.iter().enumerate() {
        let (mut x, mut y, mut z) = (0.0f32, 0.0f32, 0.0f32);
        for _ in 0..count {
            let j = joints[k] as usize;
            let m = &matrices[j * MATRIX_STRIDE..j * MATRIX_STRIDE + MATRIX_STRIDE];
            let w = &weights[k * WEIGHT_STRIDE..k * WEIGHT_STRIDE + WEIGHT_STRIDE];
            x += m[0] * w[0] + m[4] * w[1] + m[8] * w[2] + m[12] * w[3];
            y += m[1] * w[0] + m[5] * w[1] + m[9] * w[2] + m[13] * w[3];
            z += m[2] * w[0] + m[6] * w[1] + m[10] * w[2] + m[14] * w[3];
            k += 1;
        }
        let o = &mut out[v * 3..v * 3 + 3];
        o[0] = x;
        o[1] = y;
        o[2] = z;
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use super::{MATRIX_STRIDE, WEIGHT_STRIDE};
    use core::arch::wasm32::*;

    pub fn skin(matrices: &[f32], counts: &[u32], joints: &[u32], weights: &[f32], out: &mut [f32]) {
        let n = counts.len();
        let mut k = 0usize;
        for (v, &count) in counts.iter().enumerate() {
            let mut acc = f32x4_splat(0.0);
            for _ in 0..count {
                let j = joints[k] as usize;
                let m = &matrices[j * MATRIX_STRIDE..j * MATRIX_STRIDE + MATRIX_STRIDE];
                let w = &weights[k * WEIGHT_STRIDE..k * WEIGHT_STRIDE + WEIGHT_STRIDE];
                // SAFETY: `m` has 16 and `w` 4 floats (checked slices above); v128 loads are unaligned-safe.
                unsafe {
                    let p = m.as_ptr() as *const v128;
                    let wv = v128_load(w.as_ptr() as *const v128);
                    acc = f32x4_add(acc, f32x4_mul(v128_load(p), i32x4_shuffle::<0, 0, 0, 0>(wv, wv)));
                    acc = f32x4_add(acc, f32x4_mul(v128_load(p.add(1)), i32x4_shuffle::<1, 1, 1, 1>(wv, wv)));
                    acc = f32x4_add(acc, f32x4_mul(v128_load(p.add(2)), i32x4_shuffle::<2, 2, 2, 2>(wv, wv)));
                    acc = f32x4_add(acc, f32x4_mul(v128_load(p.add(3)), i32x4_shuffle::<3, 3, 3, 3>(wv, wv)));
                }
                k += 1;
            }
            if v + 1 < n {
                // Store 4 lanes; the 4th lands on the next vertex's x, which is written next.
                let o = &mut out[v * 3..v * 3 + 4];
                // SAFETY: `o` has 4 floats (checked slice).
                unsafe { v128_store(o.as_mut_ptr() as *mut v128, acc) };
            } else {
                let o = &mut out[v * 3..v * 3 + 3];
                o[0] = f32x4_extract_lane::<0>(acc);
                o[1] = f32x4_extract_lane::<1>(acc);
                o[2] = f32x4_extract_lane::<2>(acc);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_joint_places_a_full_weight_at_its_offset_plus_translation() {
        let mut m = [0.0f32; 16];
        m[0] = 1.0;
        m[5] = 1.0;
        m[10] = 1.0;
        m[12] = 10.0;
        m[13] = 20.0;
        m[14] = 30.0;
        let mut out = [0.0f32; 3];
        skin_positions(&m, &[1], &[0], &[1.0, 2.0, 3.0, 1.0], &mut out);
        assert_eq!(out, [11.0, 22.0, 33.0]);
    }

    #[test]
    fn two_half_weights_average_two_joints() {
        let mut m = [0.0f32; 32];
        for j in 0..2 {
            m[j * 16] = 1.0;
            m[j * 16 + 5] = 1.0;
            m[j * 16 + 10] = 1.0;
        }
        m[12] = 2.0; // joint 0 at x=2, joint 1 at origin
        let w = [0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.5];
        let mut out = [0.0f32; 6];
        skin_positions(&m, &[2], &[0, 1], &w, &mut out[..3]);
        assert_eq!(&out[..3], &[1.0, 0.0, 0.0]);
        let mut n = [0.0f32; 3];
        skin_normals(&m, &[1], &[0], &[0.0, 0.0, 0.5, 0.0], &mut n);
        assert_eq!(n, [0.0, 0.0, 1.0]);
    }
}

//! Linear blend skinning of bind-pose vertices by up to four joint matrices each, in ioquake3's arithmetic
//! (`code/renderergl2/tr_model_iqm.c` RB_IQMSurfaceAnim): the vertex matrix is the weighted sum of its joints'
//! matrices (weights read in order, stopping at the first one ≤ 0; a first weight ≤ 0 leaves the vertex unskinned —
//! the identity), positions are that matrix times (x y z 1), normals and tangents its cofactor matrix (the transpose
//! of the adjugate, as ioquake3's `nrmMat`) times (x y z), renormalised here (ioquake3 leaves that to its shaders);
//! a tangent's w is copied. Weights are floats, or bytes read as b / 255.
//!
//! Matrices are column-major 4×4 (`LBS_MATRIX_STRIDE`: glTF's joint matrices as they are, and what
//! `iqm::iqm_pose_matrices` writes); the blended columns then give a position as c0·x + c1·y + c2·z + c3 and a normal
//! as (c1×c2)·nx + (c2×c0)·ny + (c0×c1)·nz, the same products and sums, in the same order, as ioquake3's row form.
//! That is vertical arithmetic, one SIMD vector per column, so the SIMD128 (wasm) and SSE2 (x86-64) forms compute the
//! same floats as the scalar one, lane for lane.
//!
//! Safety without per-lane bounds checks: every length is checked once at entry (false, nothing written, when the
//! shapes disagree) and every joint index is clamped into range as it is read (`validate::lbs` reports such an index
//! as an error before the kernel runs), so an unvalidated vertex cannot read outside the matrices.

use crate::layout::LBS_MATRIX_STRIDE;

/// The inputs of one skinning call; `normals` / `tangents` empty to skip them (their outputs then too).
pub struct LbsInput<'a> {
    pub matrices: &'a [f32],
    pub positions: &'a [f32],
    pub normals: &'a [f32],
    pub tangents: &'a [f32],
    /// 4 joint indices per vertex.
    pub indices: &'a [u8],
    /// 4 byte weights per vertex (÷ 255), or empty when `weights_f32` is given.
    pub weights_u8: &'a [u8],
    /// 4 float weights per vertex, or empty.
    pub weights_f32: &'a [f32],
}

pub struct LbsOutput<'a> {
    pub positions: &'a mut [f32],
    pub normals: &'a mut [f32],
    pub tangents: &'a mut [f32],
}

/// Vertices of `inp` (positions / 3) when every buffer fits them, else None.
pub fn lbs_vertices(inp: &LbsInput, out: &LbsOutput) -> Option<usize> {
    let v = inp.positions.len() / 3;
    let w4 = v.checked_mul(4)?;
    let weights_ok = if inp.weights_f32.is_empty() { inp.weights_u8.len() >= w4 } else { inp.weights_f32.len() >= w4 };
    let normals_ok = inp.normals.is_empty() || (inp.normals.len() >= v * 3 && out.normals.len() >= v * 3);
    let tangents_ok = inp.tangents.is_empty() || (inp.tangents.len() >= w4 && out.tangents.len() >= w4);
    let ok = inp.matrices.len() >= LBS_MATRIX_STRIDE && inp.indices.len() >= w4 && weights_ok && normals_ok && tangents_ok && out.positions.len() >= v * 3;
    ok.then_some(v)
}

/// Skin every vertex; false (nothing written) when the shapes disagree or there is no matrix.
pub fn lbs_skin(inp: &LbsInput, out: &mut LbsOutput) -> bool {
    let v = match lbs_vertices(inp, out) {
        Some(v) => v,
        None => return false,
    };
    #[cfg(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64"))]
    simd::run(inp, out, v);
    #[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
    lbs_scalar(inp, out, v);
    true
}

/// The effective weights of vertex `v` (ioquake3's loop: stop at the first weight ≤ 0) and whether it is skinned.
#[inline(always)]
fn weights(inp: &LbsInput, v: usize) -> ([f32; 4], bool) {
    let mut w = [0.0f32; 4];
    for (k, x) in w.iter_mut().enumerate() {
        // SAFETY: entry checked that the weights hold 4 per vertex.
        *x = unsafe {
            if inp.weights_f32.is_empty() {
                *inp.weights_u8.get_unchecked(v * 4 + k) as f32 / 255.0
            } else {
                *inp.weights_f32.get_unchecked(v * 4 + k)
            }
        };
    }
    let skinned = w[0] > 0.0;
    let mut alive = true;
    for x in w.iter_mut() {
        alive = alive && *x > 0.0;
        if !alive {
            *x = 0.0;
        }
    }
    (w, skinned)
}

/// Joint matrix offsets of vertex `v`, each index clamped below the joint count.
#[inline(always)]
fn joints(inp: &LbsInput, v: usize, last: usize) -> [usize; 4] {
    // SAFETY: entry checked that the indices hold 4 per vertex.
    let j = |k: usize| (unsafe { *inp.indices.get_unchecked(v * 4 + k) } as usize).min(last) * LBS_MATRIX_STRIDE;
    [j(0), j(1), j(2), j(3)]
}

#[inline(always)]
fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

#[inline(always)]
fn normalise(n: [f32; 3]) -> [f32; 3] {
    let len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
    if len2 > 0.0 {
        let inv = 1.0 / len2.sqrt();
        [n[0] * inv, n[1] * inv, n[2] * inv]
    } else {
        n
    }
}

/// The scalar form (wasm without SIMD128, and the reference the SIMD forms are tested against).
#[allow(dead_code)]
pub fn lbs_scalar(inp: &LbsInput, out: &mut LbsOutput, vertices: usize) {
    let m = inp.matrices;
    let last = m.len() / LBS_MATRIX_STRIDE - 1;
    for v in 0..vertices {
        let (w, skinned) = weights(inp, v);
        // c[col][row]: the blended columns (axes, then translation)
        let mut c = [[0.0f32; 3]; 4];
        if skinned {
            let j = joints(inp, v, last);
            for (col, cv) in c.iter_mut().enumerate() {
                for (row, x) in cv.iter_mut().enumerate() {
                    let e = |k: usize| m[j[k] + col * 4 + row];
                    *x = w[0] * e(0) + w[1] * e(1) + w[2] * e(2) + w[3] * e(3);
                }
            }
        } else {
            c = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]];
        }
        let p = &inp.positions[v * 3..v * 3 + 3];
        for r in 0..3 {
            out.positions[v * 3 + r] = c[0][r] * p[0] + c[1][r] * p[1] + c[2][r] * p[2] + c[3][r];
        }
        if inp.normals.is_empty() && inp.tangents.is_empty() {
            continue;
        }
        let (n0, n1, n2) = (cross(c[1], c[2]), cross(c[2], c[0]), cross(c[0], c[1]));
        let apply = |x: f32, y: f32, z: f32| normalise([n0[0] * x + n1[0] * y + n2[0] * z, n0[1] * x + n1[1] * y + n2[1] * z, n0[2] * x + n1[2] * y + n2[2] * z]);
        if !inp.normals.is_empty() {
            let n = &inp.normals[v * 3..v * 3 + 3];
            out.normals[v * 3..v * 3 + 3].copy_from_slice(&apply(n[0], n[1], n[2]));
        }
        if !inp.tangents.is_empty() {
            let t = &inp.tangents[v * 4..v * 4 + 4];
            out.tangents[v * 4..v * 4 + 3].copy_from_slice(&apply(t[0], t[1], t[2]));
            out.tangents[v * 4 + 3] = t[3];
        }
    }
}

#[cfg(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64"))]
mod simd {
    //! One vector per matrix column. The weighted sum w0·m0 + w1·m1 + w2·m2 + w3·m3 (with the weights past a stop
    //! zeroed, as in the scalar form) and every product and difference are lane-wise, in the scalar form's order.
    use super::{joints, normalise, weights, LbsInput, LbsOutput};
    use crate::layout::LBS_MATRIX_STRIDE;

    #[cfg(target_arch = "wasm32")]
    mod v {
        use core::arch::wasm32::*;
        #[derive(Clone, Copy)]
        pub struct F(v128);
        /// SAFETY: `p` points at 4 readable floats.
        #[inline(always)]
        pub unsafe fn load(p: *const f32) -> F {
            F(v128_load(p as *const v128))
        }
        #[inline(always)]
        pub fn splat(x: f32) -> F {
            F(f32x4_splat(x))
        }
        #[inline(always)]
        pub fn add(a: F, b: F) -> F {
            F(f32x4_add(a.0, b.0))
        }
        #[inline(always)]
        pub fn sub(a: F, b: F) -> F {
            F(f32x4_sub(a.0, b.0))
        }
        #[inline(always)]
        pub fn mul(a: F, b: F) -> F {
            F(f32x4_mul(a.0, b.0))
        }
        /// (y, z, x, w)
        #[inline(always)]
        pub fn yzx(a: F) -> F {
            F(i32x4_shuffle::<1, 2, 0, 3>(a.0, a.0))
        }
        /// (z, x, y, w)
        #[inline(always)]
        pub fn zxy(a: F) -> F {
            F(i32x4_shuffle::<2, 0, 1, 3>(a.0, a.0))
        }
        #[inline(always)]
        pub fn lanes(a: F) -> [f32; 3] {
            [f32x4_extract_lane::<0>(a.0), f32x4_extract_lane::<1>(a.0), f32x4_extract_lane::<2>(a.0)]
        }
    }
    #[cfg(target_arch = "x86_64")]
    mod v {
        use core::arch::x86_64::*;
        #[derive(Clone, Copy)]
        pub struct F(__m128);
        /// SAFETY: `p` points at 4 readable floats.
        #[inline(always)]
        pub unsafe fn load(p: *const f32) -> F {
            F(_mm_loadu_ps(p))
        }
        #[inline(always)]
        pub fn splat(x: f32) -> F {
            // SAFETY: SSE2 is part of x86-64.
            F(unsafe { _mm_set1_ps(x) })
        }
        #[inline(always)]
        pub fn add(a: F, b: F) -> F {
            F(unsafe { _mm_add_ps(a.0, b.0) })
        }
        #[inline(always)]
        pub fn sub(a: F, b: F) -> F {
            F(unsafe { _mm_sub_ps(a.0, b.0) })
        }
        #[inline(always)]
        pub fn mul(a: F, b: F) -> F {
            F(unsafe { _mm_mul_ps(a.0, b.0) })
        }
        #[inline(always)]
        pub fn yzx(a: F) -> F {
            F(unsafe { _mm_shuffle_ps::<0b11_00_10_01>(a.0, a.0) })
        }
        #[inline(always)]
        pub fn zxy(a: F) -> F {
            F(unsafe { _mm_shuffle_ps::<0b11_01_00_10>(a.0, a.0) })
        }
        #[inline(always)]
        pub fn lanes(a: F) -> [f32; 3] {
            let mut o = [0.0f32; 4];
            unsafe { _mm_storeu_ps(o.as_mut_ptr(), a.0) };
            [o[0], o[1], o[2]]
        }
    }
    use v::*;

    #[inline(always)]
    fn cross(a: F, b: F) -> F {
        sub(mul(yzx(a), zxy(b)), mul(zxy(a), yzx(b)))
    }

    pub fn run(inp: &LbsInput, out: &mut LbsOutput, vertices: usize) {
        let m = inp.matrices.as_ptr();
        let last = inp.matrices.len() / LBS_MATRIX_STRIDE - 1;
        let identity = [splat(0.0), splat(0.0), splat(0.0), splat(0.0)];
        let (id0, id1, id2) = (F3::new(1.0, 0.0, 0.0), F3::new(0.0, 1.0, 0.0), F3::new(0.0, 0.0, 1.0));
        let with_normals = !inp.normals.is_empty();
        let with_tangents = !inp.tangents.is_empty();
        for v in 0..vertices {
            let (w, skinned) = weights(inp, v);
            let c = if skinned {
                let j = joints(inp, v, last);
                let (w0, w1, w2, w3) = (splat(w[0]), splat(w[1]), splat(w[2]), splat(w[3]));
                let mut c = identity;
                for (col, cv) in c.iter_mut().enumerate() {
                    // SAFETY: each j[k] ≤ last · 16, so j[k] + col · 4 + 4 ≤ matrices.len().
                    let e = |k: usize| unsafe { load(m.add(j[k] + col * 4)) };
                    *cv = add(add(add(mul(w0, e(0)), mul(w1, e(1))), mul(w2, e(2))), mul(w3, e(3)));
                }
                c
            } else {
                [id0.0, id1.0, id2.0, splat(0.0)]
            };
            let p = &inp.positions[v * 3..v * 3 + 3];
            let pos = add(add(add(mul(c[0], splat(p[0])), mul(c[1], splat(p[1]))), mul(c[2], splat(p[2]))), c[3]);
            out.positions[v * 3..v * 3 + 3].copy_from_slice(&lanes(pos));
            if !with_normals && !with_tangents {
                continue;
            }
            let (n0, n1, n2) = (cross(c[1], c[2]), cross(c[2], c[0]), cross(c[0], c[1]));
            let apply = |x: f32, y: f32, z: f32| normalise(lanes(add(add(mul(n0, splat(x)), mul(n1, splat(y))), mul(n2, splat(z)))));
            if with_normals {
                let n = &inp.normals[v * 3..v * 3 + 3];
                out.normals[v * 3..v * 3 + 3].copy_from_slice(&apply(n[0], n[1], n[2]));
            }
            if with_tangents {
                let t = &inp.tangents[v * 4..v * 4 + 4];
                out.tangents[v * 4..v * 4 + 3].copy_from_slice(&apply(t[0], t[1], t[2]));
                out.tangents[v * 4 + 3] = t[3];
            }
        }
    }

    /// A column of the identity, as a vector.
    struct F3(F);
    impl F3 {
        fn new(x: f32, y: f32, z: f32) -> F3 {
            let a = [x, y, z, 0.0];
            // SAFETY: `a` holds 4 floats.
            F3(unsafe { load(a.as_ptr()) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn random(seed: &mut u32) -> f32 {
        *seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
        (*seed >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
    }

    #[test]
    fn the_simd_form_writes_the_scalar_floats() {
        let mut s = 7u32;
        let (joints, v) = (5usize, 37usize);
        let matrices: Vec<f32> = (0..joints * 16).map(|_| random(&mut s)).collect();
        let positions: Vec<f32> = (0..v * 3).map(|_| random(&mut s) * 10.0).collect();
        let normals: Vec<f32> = (0..v * 3).map(|_| random(&mut s)).collect();
        let tangents: Vec<f32> = (0..v * 4).map(|_| random(&mut s)).collect();
        let indices: Vec<u8> = (0..v * 4).map(|k| (k * 7 % 9) as u8).collect(); // some past the joints: clamped
        let weights: Vec<u8> = (0..v * 4).map(|k| ((k * 53) % 256) as u8).collect();
        let inp = LbsInput { matrices: &matrices, positions: &positions, normals: &normals, tangents: &tangents, indices: &indices, weights_u8: &weights, weights_f32: &[] };
        let (mut p1, mut n1, mut t1) = (vec![0.0; v * 3], vec![0.0; v * 3], vec![0.0; v * 4]);
        let (mut p2, mut n2, mut t2) = (vec![0.0; v * 3], vec![0.0; v * 3], vec![0.0; v * 4]);
        assert!(lbs_skin(&inp, &mut LbsOutput { positions: &mut p1, normals: &mut n1, tangents: &mut t1 }));
        lbs_scalar(&inp, &mut LbsOutput { positions: &mut p2, normals: &mut n2, tangents: &mut t2 }, v);
        assert_eq!(p1, p2);
        assert_eq!(n1, n2);
        assert_eq!(t1, t2);
    }

    #[test]
    fn a_first_weight_of_zero_leaves_the_vertex_where_it_is() {
        let m = [2.0f32; 16];
        let inp = LbsInput { matrices: &m, positions: &[1.0, 2.0, 3.0], normals: &[], tangents: &[], indices: &[0; 4], weights_u8: &[], weights_f32: &[0.0, 1.0, 0.0, 0.0] };
        let mut p = [0.0; 3];
        assert!(lbs_skin(&inp, &mut LbsOutput { positions: &mut p, normals: &mut [], tangents: &mut [] }));
        assert_eq!(p, [1.0, 2.0, 3.0]);
        let short = LbsInput { weights_f32: &[1.0; 3], ..inp };
        assert!(!lbs_skin(&short, &mut LbsOutput { positions: &mut p, normals: &mut [], tangents: &mut [] }));
    }
}

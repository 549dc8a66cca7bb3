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
    //! One vector per matrix column. The weights are read as one vector (bytes widened and divided by 255 lane by
    //! lane, the scalar form's division), those past the first ≤ 0 zeroed by a prefix mask, and each broadcast; the
    //! weighted sum w0·m0 + w1·m1 + w2·m2 + w3·m3 and every product and difference are lane-wise, in the scalar
    //! form's order. Every read is unchecked: `lbs_vertices` checked the lengths at entry, and joint indices are
    //! clamped below the joint count.
    use super::LbsInput;
    use super::LbsOutput;
    use crate::layout::LBS_MATRIX_STRIDE;

    #[cfg(target_arch = "wasm32")]
    mod v {
        use core::arch::wasm32::*;
        #[derive(Clone, Copy)]
        pub struct F(v128);
        /// SAFETY (every pointer taker): `p` points at 4 readable floats (4 bytes for `bytes4`).
        #[inline(always)]
        pub unsafe fn load(p: *const f32) -> F {
            F(v128_load(p as *const v128))
        }
        #[inline(always)]
        pub unsafe fn store(p: *mut f32, a: F) {
            v128_store(p as *mut v128, a.0)
        }
        /// Four bytes widened to floats and divided by 255.
        #[inline(always)]
        pub unsafe fn bytes4(p: *const u8) -> F {
            let b = v128_load32_zero(p as *const u32);
            // signed conversion (the bytes are below 2^31): one instruction, where an unsigned one is several on x86
            F(f32x4_div(f32x4_convert_i32x4(u32x4_extend_low_u16x8(u16x8_extend_low_u8x16(b))), f32x4_splat(255.0)))
        }
        #[inline(always)]
        pub fn splat(x: f32) -> F {
            F(f32x4_splat(x))
        }
        /// The float at `p` in every lane (one load-and-splat).
        #[inline(always)]
        pub unsafe fn load_splat(p: *const f32) -> F {
            F(v128_load32_splat(p as *const u32))
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
        /// Bit k set when lane k is above 0.
        #[inline(always)]
        pub fn positive(a: F) -> u32 {
            i32x4_bitmask(f32x4_gt(a.0, f32x4_splat(0.0))) as u32
        }
        /// Lanes below `k` kept, the others 0.
        #[inline(always)]
        pub fn first(a: F, k: u32) -> F {
            F(v128_and(a.0, i32x4_lt(i32x4(0, 1, 2, 3), i32x4_splat(k as i32))))
        }
        #[inline(always)]
        pub fn lane0(a: F) -> F {
            F(i32x4_shuffle::<0, 0, 0, 0>(a.0, a.0))
        }
        #[inline(always)]
        pub fn lane1(a: F) -> F {
            F(i32x4_shuffle::<1, 1, 1, 1>(a.0, a.0))
        }
        #[inline(always)]
        pub fn lane2(a: F) -> F {
            F(i32x4_shuffle::<2, 2, 2, 2>(a.0, a.0))
        }
        #[inline(always)]
        pub fn lane3(a: F) -> F {
            F(i32x4_shuffle::<3, 3, 3, 3>(a.0, a.0))
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
        pub fn x(a: F) -> f32 {
            f32x4_extract_lane::<0>(a.0)
        }
    }
    #[cfg(target_arch = "x86_64")]
    mod v {
        use core::arch::x86_64::*;
        #[derive(Clone, Copy)]
        pub struct F(__m128);
        // SAFETY (every intrinsic here): SSE2 is part of x86-64; pointer takers as on wasm32.
        #[inline(always)]
        pub unsafe fn load(p: *const f32) -> F {
            F(_mm_loadu_ps(p))
        }
        #[inline(always)]
        pub unsafe fn store(p: *mut f32, a: F) {
            _mm_storeu_ps(p, a.0)
        }
        #[inline(always)]
        pub unsafe fn bytes4(p: *const u8) -> F {
            let b = _mm_cvtsi32_si128((p as *const i32).read_unaligned());
            let z = _mm_setzero_si128();
            F(_mm_div_ps(_mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(b, z), z)), _mm_set1_ps(255.0)))
        }
        #[inline(always)]
        pub fn splat(x: f32) -> F {
            F(unsafe { _mm_set1_ps(x) })
        }
        #[inline(always)]
        pub unsafe fn load_splat(p: *const f32) -> F {
            F(_mm_load1_ps(p))
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
        pub fn positive(a: F) -> u32 {
            unsafe { _mm_movemask_ps(_mm_cmpgt_ps(a.0, _mm_setzero_ps())) as u32 }
        }
        #[inline(always)]
        pub fn first(a: F, k: u32) -> F {
            unsafe { F(_mm_and_ps(a.0, _mm_castsi128_ps(_mm_cmplt_epi32(_mm_setr_epi32(0, 1, 2, 3), _mm_set1_epi32(k as i32))))) }
        }
        #[inline(always)]
        pub fn lane0(a: F) -> F {
            F(unsafe { _mm_shuffle_ps::<0b00_00_00_00>(a.0, a.0) })
        }
        #[inline(always)]
        pub fn lane1(a: F) -> F {
            F(unsafe { _mm_shuffle_ps::<0b01_01_01_01>(a.0, a.0) })
        }
        #[inline(always)]
        pub fn lane2(a: F) -> F {
            F(unsafe { _mm_shuffle_ps::<0b10_10_10_10>(a.0, a.0) })
        }
        #[inline(always)]
        pub fn lane3(a: F) -> F {
            F(unsafe { _mm_shuffle_ps::<0b11_11_11_11>(a.0, a.0) })
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
        pub fn x(a: F) -> f32 {
            unsafe { _mm_cvtss_f32(a.0) }
        }
    }
    use v::*;

    #[inline(always)]
    fn cross(a: F, b: F) -> F {
        sub(mul(yzx(a), zxy(b)), mul(zxy(a), yzx(b)))
    }

    /// `n` scaled to unit length (the scalar form's arithmetic: (x² + y²) + z², then 1 / sqrt), or as it is when 0.
    #[inline(always)]
    fn normalise(n: F) -> F {
        let sq = mul(n, n);
        let len2 = x(add(add(sq, yzx(sq)), zxy(sq))); // lane 0: (x² + y²) + z²
        if len2 > 0.0 {
            mul(n, splat(1.0 / len2.sqrt()))
        } else {
            n
        }
    }

    /// SAFETY: `p` has 3 writable floats; the 4th lane is written only when `room` (the next vertex's, rewritten after).
    #[inline(always)]
    unsafe fn put3(p: *mut f32, a: F, room: bool) {
        if room {
            store(p, a);
        } else {
            let mut t = [0.0f32; 4];
            store(t.as_mut_ptr(), a);
            core::ptr::copy_nonoverlapping(t.as_ptr(), p, 3);
        }
    }

    /// A tangent (4 floats at `p`): xyz from `a`, w kept from the input.
    #[inline(always)]
    unsafe fn put_tangent(p: *mut f32, a: F, w: f32) {
        let mut t = [0.0f32; 4];
        store(t.as_mut_ptr(), a);
        t[3] = w;
        core::ptr::copy_nonoverlapping(t.as_ptr(), p, 4);
    }

    pub fn run(inp: &LbsInput, out: &mut LbsOutput, vertices: usize) {
        let m = inp.matrices.as_ptr();
        let last = (inp.matrices.len() / LBS_MATRIX_STRIDE - 1) as u32;
        let byte = inp.weights_f32.is_empty();
        let with_normals = !inp.normals.is_empty();
        let with_tangents = !inp.tangents.is_empty();
        let (ip, inn, it, ix) = (inp.positions.as_ptr(), inp.normals.as_ptr(), inp.tangents.as_ptr(), inp.indices.as_ptr());
        let (wb, wf) = (inp.weights_u8.as_ptr(), inp.weights_f32.as_ptr());
        let (op, on, ot) = (out.positions.as_mut_ptr(), out.normals.as_mut_ptr(), out.tangents.as_mut_ptr());
        let id = [[1.0f32, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]];
        for v in 0..vertices {
            // SAFETY: `lbs_vertices` checked every input and output against `vertices`; joint offsets are clamped.
            unsafe {
                let w = if byte { bytes4(wb.add(v * 4)) } else { load(wf.add(v * 4)) };
                let alive = (!positive(w)).trailing_zeros().min(4); // weights read up to the first ≤ 0
                let c = if alive > 0 {
                    let w = if alive < 4 { first(w, alive) } else { w };
                    let (w0, w1, w2, w3) = (lane0(w), lane1(w), lane2(w), lane3(w));
                    let ji = (ix.add(v * 4) as *const u32).read_unaligned().to_le();
                    let j = |k: u32| m.add(((ji >> (8 * k)) & 0xff).min(last) as usize * LBS_MATRIX_STRIDE);
                    let (j0, j1, j2, j3) = (j(0), j(1), j(2), j(3));
                    let col = |o: usize| add(add(add(mul(w0, load(j0.add(o))), mul(w1, load(j1.add(o)))), mul(w2, load(j2.add(o)))), mul(w3, load(j3.add(o))));
                    [col(0), col(4), col(8), col(12)]
                } else {
                    [load(id[0].as_ptr()), load(id[1].as_ptr()), load(id[2].as_ptr()), load(id[3].as_ptr())]
                };
                let p = ip.add(v * 3);
                let pos = add(add(add(mul(c[0], load_splat(p)), mul(c[1], load_splat(p.add(1)))), mul(c[2], load_splat(p.add(2)))), c[3]);
                let room = v + 1 < vertices;
                put3(op.add(v * 3), pos, room);
                if !with_normals && !with_tangents {
                    continue;
                }
                let (n0, n1, n2) = (cross(c[1], c[2]), cross(c[2], c[0]), cross(c[0], c[1]));
                let apply = |q: *const f32| normalise(add(add(mul(n0, load_splat(q)), mul(n1, load_splat(q.add(1)))), mul(n2, load_splat(q.add(2)))));
                if with_normals {
                    put3(on.add(v * 3), apply(inn.add(v * 3)), room);
                }
                if with_tangents {
                    put_tangent(ot.add(v * 4), apply(it.add(v * 4)), *it.add(v * 4 + 3));
                }
            }
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

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
//! shapes disagree), and joint indices either are all in range (the SIMD forms scan each block of 256 vertices'
//! indices first; validation makes them so) or are clamped into range as they are read (`validate::lbs` reports
//! such an index as an error before the kernel runs), so an unvalidated vertex cannot read outside the matrices.

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
    //! One vector per matrix column. The weights are read as one vector (byte weights made floats a block at a
    //! time, by the scalar form's division), those past the first ≤ 0 zeroed by a prefix mask, and each broadcast;
    //! the weighted sum w0·m0 + w1·m1 + w2·m2 + w3·m3 and every product and difference are lane-wise, in the scalar
    //! form's order. Every read is unchecked: `lbs_vertices` checked the lengths at entry, and each block of 256
    //! vertices has its joint indices scanned (a block with one past the joints is read from a clamped copy).
    //!
    //! Shaped for V8 (measured against the same kernel built natively, docs/benchmarks-history.md "IQM skinning"):
    //! one loop per case (`skin::<CASE>`, each its own function), matrix columns loaded in source order, the weight
    //! prefix mask from a table, no clamp in the loops.
    use super::LbsInput;
    use super::LbsOutput;
    use crate::layout::LBS_MATRIX_STRIDE;

    #[cfg(target_arch = "wasm32")]
    mod v {
        use core::arch::wasm32::*;
        #[derive(Clone, Copy)]
        pub struct F(v128);
        /// SAFETY (every pointer taker): `p` points at 4 readable floats.
        #[inline(always)]
        pub unsafe fn load(p: *const f32) -> F {
            F(v128_load(p as *const v128))
        }
        #[inline(always)]
        pub unsafe fn store(p: *mut f32, a: F) {
            v128_store(p as *mut v128, a.0)
        }
        #[repr(C, packed)]
        struct Unaligned(v128);
        /// A matrix column, loaded in source order: LLVM otherwise hoists a vertex's 16 column loads above its
        /// arithmetic, and V8, which keeps wasm loads in order and places arithmetic after its inputs, spills them.
        #[inline(always)]
        pub unsafe fn load_m(p: *const f32) -> F {
            F(core::ptr::read_volatile(p as *const Unaligned).0)
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
        /// `a` and the 4 lane masks at `p`.
        #[inline(always)]
        pub unsafe fn and_mask(a: F, p: *const u32) -> F {
            F(v128_and(a.0, v128_load(p as *const v128)))
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
        /// (x + y) + z of lanes 0-2. Three extracts: a shuffle whose other lanes LLVM leaves undefined is a byte
        /// shuffle under V8, its mask rebuilt every time.
        #[inline(always)]
        pub fn sum3(a: F) -> f32 {
            f32x4_extract_lane::<0>(a.0) + f32x4_extract_lane::<1>(a.0) + f32x4_extract_lane::<2>(a.0)
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
        pub unsafe fn load_m(p: *const f32) -> F {
            load(p)
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
        pub unsafe fn and_mask(a: F, p: *const u32) -> F {
            F(_mm_and_ps(a.0, _mm_loadu_ps(p as *const f32)))
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
        /// (x + y) + z of lanes 0-2, lane 0 of two shuffled sums.
        #[inline(always)]
        pub fn sum3(a: F) -> f32 {
            unsafe { _mm_cvtss_f32(_mm_add_ps(_mm_add_ps(a.0, yzx(F(a.0)).0), zxy(F(a.0)).0)) }
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
        let len2 = sum3(mul(n, n)); // (x² + y²) + z²
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

    /// Lanes kept for each `positive` bitmask: those below its first clear bit (ioquake3 stops at the first weight
    /// ≤ 0). A table instead of a count and a compare: the unsigned lane compare is several instructions under V8.
    const PREFIX: [[u32; 4]; 16] = {
        let mut t = [[0u32; 4]; 16];
        let mut bits = 0;
        while bits < 16 {
            let mut k = 0;
            while k < 4 && bits >> k & 1 == 1 {
                t[bits][k] = u32::MAX;
                k += 1;
            }
            bits += 1;
        }
        t
    };

    /// The case a loop is built for: positions alone, positions, normals and tangents (`IqmPoser`'s two calls), or
    /// one of normals and tangents (tested per vertex). One loop
    /// each: the tests per vertex cost 10-20% under V8 (more values than registers), and a copy more costs module size.
    const ANY: u8 = 0;
    const POSITIONS: u8 = 1;
    const ALL: u8 = 2;

    /// Vertices per block: the block's indices are scanned, then read again by its skinning from L1.
    const BLOCK: usize = 256;

    pub fn run(inp: &LbsInput, out: &mut LbsOutput, vertices: usize) {
        let last = inp.matrices.len() / LBS_MATRIX_STRIDE - 1;
        let (with_normals, with_tangents) = (!inp.normals.is_empty(), !inp.tangents.is_empty());
        let mut clamped = [0u8; BLOCK * 4];
        let mut widened = [0f32; BLOCK * 4];
        let mut start = 0;
        while start < vertices {
            let end = (start + BLOCK).min(vertices);
            // The block's indices, scanned for one past the joints (16 a step; validation rules them out). Such a
            // block is skinned from a copy with every index clamped: the loops then read joint matrices unchecked.
            let mut ix = &inp.indices[start * 4..end * 4];
            if last < 255 && ix.iter().fold(0u8, |a, &b| a.max(b)) as usize > last {
                for (c, &i) in clamped.iter_mut().zip(ix) {
                    *c = i.min(last as u8);
                }
                ix = &clamped[..ix.len()];
            }
            // Byte weights: the block's made floats first (b / 255, the scalar form's division), so that every loop
            // reads floats.
            let w = if inp.weights_f32.is_empty() {
                for (f, &b) in widened.iter_mut().zip(&inp.weights_u8[start * 4..end * 4]) {
                    *f = b as f32 / 255.0;
                }
                &widened[..ix.len()]
            } else {
                &inp.weights_f32[start * 4..end * 4]
            };
            match (with_normals, with_tangents) {
                (false, false) => skin::<POSITIONS>(inp, out, ix, w, start, end, vertices),
                (true, true) => skin::<ALL>(inp, out, ix, w, start, end, vertices),
                _ => skin::<ANY>(inp, out, ix, w, start, end, vertices),
            }
            start = end;
        }
    }

    /// Skin vertices `start..end`, whose joint indices (4 each, all below the joint count) are `ix` and weights `w`.
    #[inline(never)] // one wasm function per loop: V8 allocates registers per function
    fn skin<const CASE: u8>(inp: &LbsInput, out: &mut LbsOutput, ix: &[u8], w: &[f32], start: usize, end: usize, vertices: usize) {
        let m = inp.matrices.as_ptr();
        let with_normals = CASE == ALL || CASE == ANY && !inp.normals.is_empty();
        let with_tangents = CASE == ALL || CASE == ANY && !inp.tangents.is_empty();
        let (ip, inn, it, ix) = (inp.positions.as_ptr(), inp.normals.as_ptr(), inp.tangents.as_ptr(), ix.as_ptr());
        let wf = w.as_ptr();
        let (op, on, ot) = (out.positions.as_mut_ptr(), out.normals.as_mut_ptr(), out.tangents.as_mut_ptr());
        let id = [[1.0f32, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0]];
        for v in start..end {
            // SAFETY: `lbs_vertices` checked every input and output against `vertices`; `run` checked or clamped
            // the joint indices.
            unsafe {
                let w = load(wf.add((v - start) * 4));
                let bits = positive(w);
                let c = if bits & 1 != 0 {
                    let w = if bits == 15 { w } else { and_mask(w, PREFIX.as_ptr().add(bits as usize) as *const u32) };
                    let (w0, w1, w2, w3) = (lane0(w), lane1(w), lane2(w), lane3(w));
                    let x = ix.add((v - start) * 4);
                    let j = |k: usize| m.add(*x.add(k) as usize * LBS_MATRIX_STRIDE);
                    let (j0, j1, j2, j3) = (j(0), j(1), j(2), j(3));
                    let col = |o: usize| add(add(add(mul(w0, load_m(j0.add(o))), mul(w1, load_m(j1.add(o)))), mul(w2, load_m(j2.add(o)))), mul(w3, load_m(j3.add(o))));
                    [col(0), col(4), col(8), col(12)]
                } else {
                    [load(id[0].as_ptr()), load(id[1].as_ptr()), load(id[2].as_ptr()), load(id[3].as_ptr())]
                };
                let p = ip.add(v * 3);
                let pos = add(add(add(mul(c[0], load_splat(p)), mul(c[1], load_splat(p.add(1)))), mul(c[2], load_splat(p.add(2)))), c[3]);
                let room = v + 1 < vertices;
                put3(op.add(v * 3), pos, room);
                if CASE == POSITIONS || !with_normals && !with_tangents {
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
        // every loop of the SIMD form: indices in range (no clamp) or not (clamped, in some blocks only), float or
        // byte weights, positions alone or with normals and/or tangents, one block and several
        for &(v, stray) in &[(37usize, 0usize), (37, 9), (700, 0), (700, 301)] {
            for byte in [false, true] {
                for (with_n, with_t) in [(false, false), (true, true), (true, false), (false, true)] {
                    let mut s = 7u32;
                    let joints = 5usize;
                    let matrices: Vec<f32> = (0..joints * 16).map(|_| random(&mut s)).collect();
                    let positions: Vec<f32> = (0..v * 3).map(|_| random(&mut s) * 10.0).collect();
                    let normals: Vec<f32> = if with_n { (0..v * 3).map(|_| random(&mut s)).collect() } else { vec![] };
                    let tangents: Vec<f32> = if with_t { (0..v * 4).map(|_| random(&mut s)).collect() } else { vec![] };
                    // `stray` > 0: every stray-th index past the joints (clamped)
                    let indices: Vec<u8> = (0..v * 4).map(|k| if stray > 0 && k % stray == 0 { 5 + (k % 200) as u8 } else { (k * 7 % 5) as u8 }).collect();
                    let wb: Vec<u8> = (0..v * 4).map(|k| ((k * 53) % 256) as u8).collect();
                    let wf: Vec<f32> = (0..v * 4).map(|k| random(&mut s) + if k % 4 == 0 { 0.5 } else { 0.0 }).collect();
                    let (weights_u8, weights_f32): (&[u8], &[f32]) = if byte { (&wb, &[]) } else { (&[], &wf) };
                    let inp = LbsInput { matrices: &matrices, positions: &positions, normals: &normals, tangents: &tangents, indices: &indices, weights_u8, weights_f32 };
                    let (n_len, t_len) = (normals.len(), tangents.len());
                    let (mut p1, mut n1, mut t1) = (vec![0.0; v * 3], vec![0.0; n_len], vec![0.0; t_len]);
                    let (mut p2, mut n2, mut t2) = (vec![0.0; v * 3], vec![0.0; n_len], vec![0.0; t_len]);
                    assert!(lbs_skin(&inp, &mut LbsOutput { positions: &mut p1, normals: &mut n1, tangents: &mut t1 }));
                    lbs_scalar(&inp, &mut LbsOutput { positions: &mut p2, normals: &mut n2, tangents: &mut t2 }, v);
                    let case = format!("{v} vertices, stray {stray}, byte {byte}, normals {with_n}, tangents {with_t}");
                    assert_eq!(p1, p2, "{case}");
                    assert_eq!(n1, n2, "{case}");
                    assert_eq!(t1, t2, "{case}");
                }
            }
        }
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

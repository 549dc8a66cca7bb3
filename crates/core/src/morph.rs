//! Vertex animation for MD2 and MD3: two quantised frames of a model → float positions and normals of
//! their blend (`t` = 0 gives frame a, 1 gives frame b). Frames stay quantised in memory (MD2 bytes with
//! a per-frame scale and translate, MD3 int16 ×1/64 with a packed normal) and are decoded only here.
//!
//! Positions are lerped, as both engines do. Normals are decoded, lerped and renormalised (Quake 3's
//! `LerpMeshVertexes` renormalises; Quake 2 lights with the current frame's normal, which is the t = 0 case
//! of the same rule). When two opposite normals cancel, the nearer frame's normal is used.
//!
//! The decode tables are inputs, not constants here: they live once, in TS (`ts/src/kernels/tables.ts`, built
//! from the 162 MD2 normals of `ts/src/formats/md2/normals.ts` and, at run time, from the 256 MD3 angle steps), and
//! are copied into the module's memory once (the 1 MiB MD3 table once per backend). Their layouts
//! (`MD2_NORMAL_TABLE_STRIDE`, `MD3_DECODED_NORMALS_LEN`) give the SIMD kernels one vector load per normal instead
//! of a scalar load per component. Every index a kernel follows is bounded first (frames by the checks below, a normal
//! index by clamping into the table, or by the table having an entry for every byte), so no input can make a
//! kernel read or write outside its slices.

pub use crate::layout::{MD2_NORMAL_TABLE_ENTRIES, MD2_NORMAL_TABLE_STRIDE, MD2_VERTEX_BYTES, MD3_DECODED_NORMALS_LEN, MD3_NORMAL_TABLE_LEN, MD3_VERTEX_SHORTS};
use crate::layout::{MD3_XYZ_SCALE, PLACEMENT_FLOATS};

/// Floats per decoded vertex in the outputs (x, y, z).
const OUT_STRIDE: usize = 3;

/// Lerp two unit normals and renormalise; if they cancel, keep the nearer one.
#[inline(always)]
fn blend_normal(a: [f32; 3], b: [f32; 3], t: f32, out: &mut [f32]) {
    let s = 1.0 - t;
    let x = a[0] * s + b[0] * t;
    let y = a[1] * s + b[1] * t;
    let z = a[2] * s + b[2] * t;
    let len2 = x * x + y * y + z * z;
    if len2 > 1e-12 {
        let inv = 1.0 / len2.sqrt();
        out[0] = x * inv;
        out[1] = y * inv;
        out[2] = z * inv;
    } else {
        let n = if t < 0.5 { a } else { b };
        out.copy_from_slice(&n);
    }
}

/// MD2 blend. `frames` holds `frame_count × vertex_count` 4-byte records frame-major; `scales` and
/// `translates` 3 floats per frame; `normals` the normal table, `MD2_NORMAL_TABLE_STRIDE` floats per entry
/// (an index past its end clamps to the last entry). Writes `vertex_count × 3` floats to each output.
/// Returns false (writing nothing) when a frame index or a length is out of range.
#[allow(clippy::too_many_arguments)]
pub fn md2_blend(
    frames: &[u8], scales: &[f32], translates: &[f32], vertex_count: usize, frame_a: usize, frame_b: usize, t: f32,
    normals: &[f32], out_positions: &mut [f32], out_normals: &mut [f32],
) -> bool {
    let frame_bytes = vertex_count * MD2_VERTEX_BYTES;
    let frame_count = if frame_bytes == 0 { 0 } else { frames.len() / frame_bytes };
    let n = vertex_count * OUT_STRIDE;
    if frame_a >= frame_count || frame_b >= frame_count || scales.len() < frame_count * 3 || translates.len() < frame_count * 3
        || normals.len() < MD2_NORMAL_TABLE_STRIDE || out_positions.len() < n || out_normals.len() < n
    {
        return false;
    }
    let normal_max = normals.len() / MD2_NORMAL_TABLE_STRIDE - 1;
    let s = 1.0 - t;
    // p = (va·sa + ta)·(1 − t) + (vb·sb + tb)·t, folded into one multiply-add per frame and axis.
    let (sa, sb, ta, tb) = (&scales[frame_a * 3..][..3], &scales[frame_b * 3..][..3], &translates[frame_a * 3..][..3], &translates[frame_b * 3..][..3]);
    let ka = [sa[0] * s, sa[1] * s, sa[2] * s];
    let kb = [sb[0] * t, sb[1] * t, sb[2] * t];
    let c = [ta[0] * s + tb[0] * t, ta[1] * s + tb[1] * t, ta[2] * s + tb[2] * t];
    let va = &frames[frame_a * frame_bytes..][..frame_bytes];
    let vb = &frames[frame_b * frame_bytes..][..frame_bytes];
    let normal = |i: u8| {
        let k = (i as usize).min(normal_max) * MD2_NORMAL_TABLE_STRIDE;
        [normals[k], normals[k + 1], normals[k + 2]]
    };
    // SIMD128: four vertices per step, the last ones as one more step overlapping the one before (models of fewer
    // than four vertices, builds without SIMD and tables short of one entry per byte take the scalar loop below). Both compute the same f32 operations in the
    // same order, so their results are identical.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let done = {
        let k = [ka[0], ka[1], ka[2], kb[0], kb[1], kb[2], c[0], c[1], c[2]];
        let done = simd::md2_vertices(va, vb, k, t, normals, &mut out_positions[..n], &mut out_normals[..n]);
        // The last vertices as one more overlapping step (the vertices it repeats get the same values again).
        let last = vertex_count.saturating_sub(4);
        if done != 0 && done < vertex_count {
            let (r, o) = (last * MD2_VERTEX_BYTES, last * OUT_STRIDE);
            done + simd::md2_vertices(&va[r..], &vb[r..], k, t, normals, &mut out_positions[o..n], &mut out_normals[o..n]) - (done - last)
        } else {
            done
        }
    };
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    let done = 0;
    for (((a, b), p), nm) in va[done * MD2_VERTEX_BYTES..]
        .chunks_exact(MD2_VERTEX_BYTES)
        .zip(vb[done * MD2_VERTEX_BYTES..].chunks_exact(MD2_VERTEX_BYTES))
        .zip(out_positions[done * OUT_STRIDE..n].chunks_exact_mut(OUT_STRIDE))
        .zip(out_normals[done * OUT_STRIDE..n].chunks_exact_mut(OUT_STRIDE))
    {
        p[0] = a[0] as f32 * ka[0] + b[0] as f32 * kb[0] + c[0];
        p[1] = a[1] as f32 * ka[1] + b[1] as f32 * kb[1] + c[1];
        p[2] = a[2] as f32 * ka[2] + b[2] as f32 * kb[2] + c[2];
        blend_normal(normal(a[3]), normal(b[3]), t, nm);
    }
    true
}

/// Decode an MD3 packed normal (lat = high byte, lng = low byte, angles k·2π/256): entry `packed` of the decoded
/// table, n = (cos lat · sin lng, sin lat · sin lng, cos lng).
#[inline(always)]
fn md3_normal(packed: i16, table: &[f32; MD3_DECODED_NORMALS_LEN]) -> [f32; 3] {
    let k = packed as u16 as usize * 4;
    [table[k], table[k + 1], table[k + 2]]
}

/// MD3 blend of one surface. `xyz_normals` holds `frame_count × vertex_count` records of 4 int16
/// frame-major; `table` the `MD3_DECODED_NORMALS_LEN`-float decoded normal table. Writes `vertex_count × 3` floats to each
/// output. Returns false (writing nothing) when a frame index or a length is out of range.
#[allow(clippy::too_many_arguments)]
pub fn md3_blend(
    xyz_normals: &[i16], vertex_count: usize, frame_a: usize, frame_b: usize, t: f32, table: &[f32],
    out_positions: &mut [f32], out_normals: &mut [f32],
) -> bool {
    let frame_len = vertex_count * MD3_VERTEX_SHORTS;
    let frame_count = if frame_len == 0 { 0 } else { xyz_normals.len() / frame_len };
    let n = vertex_count * OUT_STRIDE;
    let table: &[f32; MD3_DECODED_NORMALS_LEN] = match table.get(..MD3_DECODED_NORMALS_LEN).and_then(|a| a.try_into().ok()) {
        Some(a) => a,
        None => return false,
    };
    if frame_a >= frame_count || frame_b >= frame_count || out_positions.len() < n || out_normals.len() < n {
        return false;
    }
    let ka = (1.0 - t) * MD3_XYZ_SCALE;
    let kb = t * MD3_XYZ_SCALE;
    let va = &xyz_normals[frame_a * frame_len..][..frame_len];
    let vb = &xyz_normals[frame_b * frame_len..][..frame_len];
    // SIMD128: four vertices per step, the last ones overlapping, as MD2's.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let done = {
        let done = simd::md3_vertices(va, vb, ka, kb, t, table, &mut out_positions[..n], &mut out_normals[..n]);
        // The last vertices as one more overlapping step, as MD2's.
        let last = vertex_count.saturating_sub(4);
        if done != 0 && done < vertex_count {
            let (r, o) = (last * MD3_VERTEX_SHORTS, last * OUT_STRIDE);
            done + simd::md3_vertices(&va[r..], &vb[r..], ka, kb, t, table, &mut out_positions[o..n], &mut out_normals[o..n]) - (done - last)
        } else {
            done
        }
    };
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    let done = 0;
    for (((a, b), p), nm) in va[done * MD3_VERTEX_SHORTS..]
        .chunks_exact(MD3_VERTEX_SHORTS)
        .zip(vb[done * MD3_VERTEX_SHORTS..].chunks_exact(MD3_VERTEX_SHORTS))
        .zip(out_positions[done * OUT_STRIDE..n].chunks_exact_mut(OUT_STRIDE))
        .zip(out_normals[done * OUT_STRIDE..n].chunks_exact_mut(OUT_STRIDE))
    {
        p[0] = a[0] as f32 * ka + b[0] as f32 * kb;
        p[1] = a[1] as f32 * ka + b[1] as f32 * kb;
        p[2] = a[2] as f32 * ka + b[2] as f32 * kb;
        blend_normal(md3_normal(a[3], table), md3_normal(b[3], table), t, nm);
    }
    true
}

/// The SIMD128 blends, four vertices per step. Positions: MD2's quantised x y z bytes of four vertices are moved by
/// byte swizzles straight into 32-bit lanes in the output order x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3 (normals
/// dropped), converted and lerped as three full vectors and stored as they are; MD3's int16 records are loaded
/// sign-extended, one `x y z n` vector per vertex, converted, lerped and stored like the normals. Normals: one vector
/// per vertex (`x y z 0`, one table load addressed by the index read with a scalar load, SIMD128 having no gather),
/// lerped in that form; the squared lengths of the four are transposed into x², y², z², w² vectors, so the sqrt and
/// the divide run four-wide, and each vertex's vector is scaled by its lane and stored (the fourth lane of each store
/// is overwritten by the next vertex's). Every lane computes the scalar kernel's f32 expression in the same order
/// (SIMD128 has no fused multiply-add), so the results equal the scalar loop's bit for bit (the parity tests check it).
/// What V8 makes of it matters as much as the instruction count: `node --print-wasm-code` shows the TurboFan code
/// (see `pinned` and the notes at each shuffle).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use super::{MD2_NORMAL_TABLE_ENTRIES, MD2_NORMAL_TABLE_STRIDE, MD2_VERTEX_BYTES, MD3_DECODED_NORMALS_LEN, MD3_VERTEX_SHORTS};
    use core::arch::wasm32::*;

    /// A table entry is one 16-byte vector: entry address = table + index · 16.
    const _: () = assert!(MD2_NORMAL_TABLE_STRIDE == 4 && MD3_DECODED_NORMALS_LEN == 65536 * 4);

    /// i32 lanes → f32. The lanes come out of a swizzle or shuffle (opaque to LLVM), never out of an integer widen:
    /// LLVM 14 (the wasm toolchain here) merges widen-then-convert into a convert from i16 or i8 lanes and
    /// scalarises it (measured: slower than the scalar kernel).
    #[inline(always)]
    fn to_f32(v: v128) -> v128 {
        f32x4_convert_i32x4(v)
    }

    /// Per-component constants (x, y, z) laid out like the packed positions: xyzx, yzxy, zxyz.
    #[inline(always)]
    fn packed_constant(k: [f32; 3]) -> [v128; 3] {
        [f32x4(k[0], k[1], k[2], k[0]), f32x4(k[1], k[2], k[0], k[1]), f32x4(k[2], k[0], k[1], k[2])]
    }

    /// SAFETY: `out` has room for 12 floats.
    #[inline(always)]
    unsafe fn store12(out: *mut f32, r: [v128; 3]) {
        let p = out as *mut v128;
        v128_store(p, r[0]);
        v128_store(p.add(1), r[1]);
        v128_store(p.add(2), r[2]);
    }

    /// Four `x y z ·` vectors → x y z of each, 12 floats. SAFETY: `out` has room for 12 floats.
    #[inline(always)]
    unsafe fn store_xyz4(out: *mut f32, n: [v128; 4]) {
        v128_store(out as *mut v128, n[0]);
        v128_store(out.add(3) as *mut v128, n[1]);
        v128_store(out.add(6) as *mut v128, n[2]);
        v128_store64_lane::<0>(n[3], out.add(9) as *mut u64);
        v128_store32_lane::<2>(n[3], out.add(11) as *mut u32);
    }

    /// Loop constants, read from memory with a volatile load at each use. Neither LLVM nor V8 keeps a vector built
    /// from scalars (a splat, a per-lane constant, a shuffle mask) out of the loop: in the TurboFan code of the
    /// first SIMD kernels every constant was rebuilt on every step (three to four instructions each: ~30 per MD2 step
    /// for the packed position constants alone). A volatile load cannot be re-materialised, so it stays one
    /// `movdqu` (often folded into the instruction that uses it).
    #[inline(always)]
    fn pinned<const N: usize>(k: &[v128; N], i: usize) -> v128 {
        // SAFETY: `i` indexes the array (bounds-checked); v128 reads of an aligned v128 are valid.
        unsafe { core::ptr::read_volatile(&k[i]) }
    }

    /// The constants of `blend_normals`: 1 − t, t, 1.0 and the cancel threshold 1e-12, each in four lanes.
    #[inline(always)]
    fn normal_constants(t: f32) -> [v128; 4] {
        [f32x4_splat(1.0 - t), f32x4_splat(t), f32x4_splat(1.0), f32x4_splat(1e-12)]
    }

    /// Lerp four pairs of unit normals (`x y z 0` vectors: every table entry's fourth float is 0) by t and
    /// renormalise; a vertex whose blend cancels (|n|² ≤ 1e-12) keeps the nearer frame's normal, as `blend_normal`
    /// does. `k` from `normal_constants`.
    #[inline(always)]
    fn blend_normals(a: [v128; 4], b: [v128; 4], k: &[v128; 4], t: f32) -> [v128; 4] {
        let (sv, tv) = (pinned(k, 0), pinned(k, 1));
        let n = [0, 1, 2, 3].map(|i| f32x4_add(f32x4_mul(a[i], sv), f32x4_mul(b[i], tv)));
        let q = n.map(|v| f32x4_mul(v, v));
        // The 4×4 transpose of the squares (unpack low/high of 32- then 64-bit lanes: one instruction each in V8):
        // x², y², z², w² of the four vertices. |n|² = ((x² + y²) + z²) + w², with w² = +0 exactly: the scalar
        // (x² + y²) + z² bit for bit. (Leaving w out let LLVM drop the lanes it does not read, and V8 compiled the
        // resulting masks as byte shuffles with their masks built on every step.)
        let xy01 = i32x4_shuffle::<0, 4, 1, 5>(q[0], q[1]); // x0 x1 y0 y1
        let xy23 = i32x4_shuffle::<0, 4, 1, 5>(q[2], q[3]);
        let zw01 = i32x4_shuffle::<2, 6, 3, 7>(q[0], q[1]); // z0 z1 w0 w1
        let zw23 = i32x4_shuffle::<2, 6, 3, 7>(q[2], q[3]);
        let x = i64x2_shuffle::<0, 2>(xy01, xy23);
        let y = i64x2_shuffle::<1, 3>(xy01, xy23);
        let z = i64x2_shuffle::<0, 2>(zw01, zw23);
        let w = i64x2_shuffle::<1, 3>(zw01, zw23);
        let len2 = f32x4_add(f32x4_add(f32x4_add(x, y), z), w);
        let inv = f32x4_div(pinned(k, 2), f32x4_sqrt(len2));
        let mut out = [
            f32x4_mul(n[0], i32x4_shuffle::<0, 0, 0, 0>(inv, inv)),
            f32x4_mul(n[1], i32x4_shuffle::<1, 1, 1, 1>(inv, inv)),
            f32x4_mul(n[2], i32x4_shuffle::<2, 2, 2, 2>(inv, inv)),
            f32x4_mul(n[3], i32x4_shuffle::<3, 3, 3, 3>(inv, inv)),
        ];
        // (The bitmask test is one `movmskps`; `all_true` compiled to six instructions.)
        let mask = i32x4_bitmask(f32x4_gt(len2, pinned(k, 3)));
        if mask != 15 {
            let near = if t < 0.5 { a } else { b };
            for (i, o) in out.iter_mut().enumerate() {
                if mask & (1 << i) == 0 {
                    *o = near[i];
                }
            }
        }
        out
    }

    /// MD2 vertices [0, 4·⌊V/4⌋); returns how many were done (none when the table lacks an entry per byte).
    /// `k` = ka xyz, kb xyz, c xyz (see `md2_blend`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn md2_vertices(va: &[u8], vb: &[u8], k: [f32; 9], t: f32, normals: &[f32], out_p: &mut [f32], out_n: &mut [f32]) -> usize {
        if normals.len() < MD2_NORMAL_TABLE_ENTRIES * MD2_NORMAL_TABLE_STRIDE {
            return 0;
        }
        let table = normals.as_ptr();
        let quads = (va.len().min(vb.len()) / (4 * MD2_VERTEX_BYTES)).min(out_p.len().min(out_n.len()) / 12);
        let [ka0, ka1, ka2] = packed_constant([k[0], k[1], k[2]]);
        let [kb0, kb1, kb2] = packed_constant([k[3], k[4], k[5]]);
        let [c0, c1, c2] = packed_constant([k[6], k[7], k[8]]);
        // ka ×3, kb ×3, c ×3 (see `pinned`).
        let kp = [ka0, ka1, ka2, kb0, kb1, kb2, c0, c1, c2];
        let kn = normal_constants(t);
        // Four 4-byte records → x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3 as floats (normal bytes dropped): each
        // coordinate byte swizzled into the low byte of a zeroed 32-bit lane (indices past 15 give 0), converted.
        #[inline(always)]
        fn positions(bytes: v128) -> [v128; 3] {
            const Z: u8 = 0x80;
            let lanes = |i: [u8; 4]| i8x16_swizzle(bytes, u8x16(i[0], Z, Z, Z, i[1], Z, Z, Z, i[2], Z, Z, Z, i[3], Z, Z, Z));
            [to_f32(lanes([0, 1, 2, 4])), to_f32(lanes([5, 6, 8, 9])), to_f32(lanes([10, 12, 13, 14]))]
        }
        // One frame's four table normals, one vector load each, addressed by the index byte read with a scalar load
        // (volatile, and off the vector ports: see `md3_vertices`). SAFETY (of the loads): `p` points at four whole
        // records; an index byte is below MD2_NORMAL_TABLE_ENTRIES, and the table holds that many entries (checked
        // above).
        let tp = table as *const v128;
        let gather = |p: *const u8| -> [v128; 4] {
            let n = |i: usize| unsafe { v128_load(tp.add(core::ptr::read_volatile(p.add(4 * i + 3)) as usize)) };
            [n(0), n(1), n(2), n(3)]
        };
        // Raw pointers: `quads` is bounded by every slice's length above (checked slicing cost a compare and branch
        // per slice and step, and kept the frame offsets' multiplies in the loop).
        let (va, vb, out_p, out_n) = (va.as_ptr(), vb.as_ptr(), out_p.as_mut_ptr(), out_n.as_mut_ptr());
        for q in 0..quads {
            let r = q * 4 * MD2_VERTEX_BYTES;
            // SAFETY: records [4q, 4q + 4) lie in va and vb (16 bytes each); unaligned loads are allowed.
            let (ba, bb) = unsafe { (v128_load(va.add(r) as *const v128), v128_load(vb.add(r) as *const v128)) };
            let (a, b) = (positions(ba), positions(bb));
            // p = a·ka + b·kb + c, as the scalar kernel groups it.
            let p = |i: usize| f32x4_add(f32x4_add(f32x4_mul(a[i], pinned(&kp, i)), f32x4_mul(b[i], pinned(&kp, 3 + i))), pinned(&kp, 6 + i));
            // SAFETY: floats [12q, 12q + 12) lie in both outputs.
            unsafe {
                store12(out_p.add(q * 12), [p(0), p(1), p(2)]);
                store_xyz4(out_n.add(q * 12), blend_normals(gather(va.add(r)), gather(vb.add(r)), &kn, t));
            }
        }
        quads * 4
    }

    /// MD3 vertices [0, 4·⌊V/4⌋); returns how many were done. `ka`, `kb` as in `md3_blend`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn md3_vertices(va: &[i16], vb: &[i16], ka: f32, kb: f32, t: f32, table: &[f32; MD3_DECODED_NORMALS_LEN], out_p: &mut [f32], out_n: &mut [f32]) -> usize {
        let quads = (va.len().min(vb.len()) / (4 * MD3_VERTEX_SHORTS)).min(out_p.len().min(out_n.len()) / 12);
        // ka, kb, and an integer 0 the compiler cannot see (see `records`).
        let kp = [f32x4_splat(ka), f32x4_splat(kb), i32x4_splat(0)];
        let kn = normal_constants(t);
        // One frame's four records as `x y z n` i32 vectors: sign-extending loads (one instruction each). Plain v128
        // loads of the same bytes would let LLVM turn the loads of records 1 and 3 into byte shuffles of those. The
        // opaque 0 added keeps LLVM 14 from merging extend-then-convert into a convert from i16 lanes, which it
        // scalarises (see `to_f32`). SAFETY: `p` points at four whole records (16 int16).
        #[inline(always)]
        unsafe fn records(p: *const i16, zero: v128) -> [v128; 4] {
            [0, 1, 2, 3].map(|i| i32x4_add(i32x4_load_extend_i16x4(p.add(4 * i)), zero))
        }
        // One frame's four decoded normals, one vector load each, addressed by the packed normal read with a scalar
        // 16-bit load (volatile: otherwise LLVM derives it from the extending loads above, by a lane extract). Four
        // scalar loads beat computing the four addresses four-wide and extracting them (`pextrd`: 228 → 268 Mvert/s on
        // lower.md3): the address arithmetic moves off the vector ports, which everything else here uses.
        // SAFETY: `p` points at four whole records; a packed normal is below 65536, and the table holds 65536 entries
        // (its type fixes the length).
        let tp = table.as_ptr() as *const v128;
        let normals = |p: *const i16| -> [v128; 4] {
            let n = |i: usize| unsafe { v128_load(tp.add(core::ptr::read_volatile(p.add(4 * i + 3) as *const u16) as usize)) };
            [n(0), n(1), n(2), n(3)]
        };
        // Raw pointers, as in `md2_vertices`.
        let (va, vb, out_p, out_n) = (va.as_ptr(), vb.as_ptr(), out_p.as_mut_ptr(), out_n.as_mut_ptr());
        for q in 0..quads {
            let r = q * 4 * MD3_VERTEX_SHORTS;
            let zero = pinned(&kp, 2);
            // SAFETY: records [4q, 4q + 4) lie in va and vb.
            let (ra, rb) = unsafe { (va.add(r), vb.add(r)) };
            let (ia, ib) = unsafe { (records(ra, zero), records(rb, zero)) };
            let (kav, kbv) = (pinned(&kp, 0), pinned(&kp, 1));
            // p = a·ka + b·kb, as the scalar kernel groups it, one `x y z n` vector per vertex (n is never stored).
            let p = |i: usize| f32x4_add(f32x4_mul(to_f32(ia[i]), kav), f32x4_mul(to_f32(ib[i]), kbv));
            // SAFETY: floats [12q, 12q + 12) lie in both outputs.
            unsafe {
                store_xyz4(out_p.add(q * 12), [p(0), p(1), p(2), p(3)]);
                store_xyz4(out_n.add(q * 12), blend_normals(normals(ra), normals(rb), &kn, t));
            }
        }
        quads * 4
    }
}

/// Places decoded vertices in the world: positions p → M·(p, 1), normals n → M₃·n renormalised (left as they are
/// when that is zero), for vertices `[first, first + count)` of both outputs, in place. `matrix` is a row-major
/// 3×4 (`m·0 m·1 m·2 t·` per row). Returns false (writing nothing) when the range or the matrix is short.
pub fn transform_vertices(matrix: &[f32], positions: &mut [f32], normals: &mut [f32], first: usize, count: usize) -> bool {
    let end = match first.checked_add(count).and_then(|e| e.checked_mul(OUT_STRIDE)) {
        Some(e) => e,
        None => return false,
    };
    if matrix.len() < PLACEMENT_FLOATS || positions.len() < end || normals.len() < end {
        return false;
    }
    let m = &matrix[..PLACEMENT_FLOATS];
    let start = first * OUT_STRIDE;
    for (p, n) in positions[start..end].chunks_exact_mut(OUT_STRIDE).zip(normals[start..end].chunks_exact_mut(OUT_STRIDE)) {
        let (x, y, z) = (p[0], p[1], p[2]);
        p[0] = m[0] * x + m[1] * y + m[2] * z + m[3];
        p[1] = m[4] * x + m[5] * y + m[6] * z + m[7];
        p[2] = m[8] * x + m[9] * y + m[10] * z + m[11];
        let (x, y, z) = (n[0], n[1], n[2]);
        let (wx, wy, wz) = (m[0] * x + m[1] * y + m[2] * z, m[4] * x + m[5] * y + m[6] * z, m[8] * x + m[9] * y + m[10] * z);
        let len2 = wx * wx + wy * wy + wz * wz;
        if len2 > 0.0 {
            let inv = 1.0 / len2.sqrt();
            n[0] = wx * inv;
            n[1] = wy * inv;
            n[2] = wz * inv;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    /// As `md3DecodedNormals()` in ts/src/kernels/tables.ts: the product of the angle table's latitude and longitude
    /// entries (`MD3_NORMAL_TABLE`), in f32.
    fn md3_table() -> Vec<f32> {
        let mut angles = vec![0.0; MD3_NORMAL_TABLE_LEN];
        for k in 0..256 {
            let a = k as f64 * 2.0 * PI / 256.0;
            let (c, s) = (a.cos() as f32, a.sin() as f32);
            angles[k * 4..][..4].copy_from_slice(&[c, s, 1.0, 0.0]);
            angles[1024 + k * 4..][..4].copy_from_slice(&[s, s, c, 0.0]);
        }
        let mut t = vec![0.0; MD3_DECODED_NORMALS_LEN];
        for p in 0..65536 {
            let (lat, lng) = ((p >> 8) * 4, 1024 + (p & 255) * 4);
            t[p * 4..][..4].copy_from_slice(&[angles[lat] * angles[lng], angles[lat + 1] * angles[lng + 1], angles[lng + 2], 0.0]);
        }
        t
    }

    #[test]
    fn md2_frame_decodes_scale_and_translate_and_picks_table_normals() {
        // Two vertices, two frames; normals table of three unit axes.
        let frames = [1u8, 2, 3, 0, 255, 0, 10, 2, /* frame 1 */ 3, 2, 1, 1, 0, 0, 0, 2];
        let scales = [0.5, 1.0, 2.0, 1.0, 1.0, 1.0];
        let translates = [10.0, 20.0, 30.0, -1.0, -2.0, -3.0];
        let normals = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        let (mut p, mut n) = ([0.0f32; 6], [0.0f32; 6]);
        assert!(md2_blend(&frames, &scales, &translates, 2, 0, 1, 0.0, &normals, &mut p, &mut n));
        assert_eq!(p, [10.5, 22.0, 36.0, 137.5, 20.0, 50.0]);
        assert_eq!(n, [1.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        assert!(md2_blend(&frames, &scales, &translates, 2, 0, 1, 1.0, &normals, &mut p, &mut n));
        assert_eq!(p, [2.0, 0.0, -2.0, -1.0, -2.0, -3.0]);
        assert_eq!(n, [0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
        // Halfway: positions halfway, normal between x and y renormalised.
        assert!(md2_blend(&frames, &scales, &translates, 2, 0, 1, 0.5, &normals, &mut p, &mut n));
        assert_eq!(&p[..3], &[6.25, 11.0, 17.0]);
        let h = 0.5f32.sqrt();
        assert!((n[0] - h).abs() < 1e-6 && (n[1] - h).abs() < 1e-6 && n[2] == 0.0);
    }

    #[test]
    fn md2_rejects_frames_past_the_end_and_clamps_normal_indices() {
        let frames = [1u8, 2, 3, 200];
        let normals = [0.0, 0.0, 1.0, 0.0];
        let (mut p, mut n) = ([0.0f32; 3], [9.0f32; 3]);
        assert!(!md2_blend(&frames, &[1.0; 3], &[0.0; 3], 1, 1, 0, 0.0, &normals, &mut p, &mut n));
        assert_eq!(n, [9.0; 3]);
        assert!(md2_blend(&frames, &[1.0; 3], &[0.0; 3], 1, 0, 0, 0.0, &normals, &mut p, &mut n));
        assert_eq!(n, [0.0, 0.0, 1.0]);
        assert!(!md2_blend(&frames, &[1.0; 3], &[0.0; 3], 1, 0, 0, 0.0, &normals, &mut [0.0; 2], &mut n));
    }

    #[test]
    fn md3_positions_are_sixty_fourths_and_normals_follow_lat_lng() {
        let angles = md3_table();
        // lat 0, lng 64 (90°) → +x; lat 64, lng 64 → +y; lng 0 → +z.
        let xyzn = [64i16, -128, 32, 64, 0, 0, 0, (64 << 8) | 64, /* frame 1 */ 0, 0, 64, 0, 6400, 0, 0, 0];
        let (mut p, mut n) = ([0.0f32; 6], [0.0f32; 6]);
        assert!(md3_blend(&xyzn, 2, 0, 1, 0.0, &angles, &mut p, &mut n));
        assert_eq!(p, [1.0, -2.0, 0.5, 0.0, 0.0, 0.0]);
        let close = |a: &[f32], b: &[f32]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-6);
        assert!(close(&n, &[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]), "{n:?}");
        assert!(md3_blend(&xyzn, 2, 0, 1, 0.25, &angles, &mut p, &mut n));
        assert!(close(&p, &[0.75, -1.5, 0.625, 25.0, 0.0, 0.0]), "{p:?}");
        assert!(md3_blend(&xyzn, 2, 1, 1, 0.0, &angles, &mut p, &mut n));
        assert!(close(&n, &[0.0, 0.0, 1.0, 0.0, 0.0, 1.0]), "{n:?}");
        assert!(!md3_blend(&xyzn, 2, 0, 2, 0.0, &angles, &mut p, &mut n));
        assert!(!md3_blend(&xyzn, 2, 0, 1, 0.0, &angles[..100], &mut p, &mut n));
    }

    #[test]
    fn transform_moves_a_vertex_range_and_rotates_its_normals() {
        // 90° about z (x → y), then translate by (1, 2, 3); vertex 0 is left alone.
        let m = [0.0, -1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 1.0, 3.0];
        let mut p = [5.0f32, 5.0, 5.0, 1.0, 0.0, 0.0];
        let mut n = [0.0f32, 0.0, 1.0, 2.0, 0.0, 0.0];
        assert!(transform_vertices(&m, &mut p, &mut n, 1, 1));
        assert_eq!(p, [5.0, 5.0, 5.0, 1.0, 3.0, 3.0]);
        assert_eq!(n, [0.0, 0.0, 1.0, 0.0, 1.0, 0.0]);
        assert!(!transform_vertices(&m, &mut p, &mut n, 1, 2));
        assert!(!transform_vertices(&m[..11], &mut p, &mut n, 0, 1));
    }

    #[test]
    fn opposite_normals_that_cancel_keep_the_nearer_frame() {
        let normals = [1.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0];
        let frames = [0u8, 0, 0, 0, 0, 0, 0, 1];
        let (mut p, mut n) = ([0.0f32; 3], [0.0f32; 3]);
        assert!(md2_blend(&frames, &[1.0; 6], &[0.0; 6], 1, 0, 1, 0.5, &normals, &mut p, &mut n));
        assert_eq!(n, [-1.0, 0.0, 0.0]);
        assert!(md2_blend(&frames, &[1.0; 6], &[0.0; 6], 1, 0, 1, 0.49, &normals, &mut p, &mut n));
        assert_eq!(n, [1.0, 0.0, 0.0]);
    }
}

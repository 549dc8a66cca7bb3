//! Vertex animation for MD2 and MD3: two quantised frames of a model → float positions and normals of
//! their blend (`t` = 0 gives frame a, 1 gives frame b). Frames stay quantised in memory (MD2 bytes with
//! a per-frame scale and translate, MD3 int16 ×1/64 with a packed normal) and are decoded only here.
//!
//! Positions are lerped, as both engines do. Normals are decoded, lerped and renormalised (Quake 3's
//! `LerpMeshVertexes` renormalises; Quake 2 lights with the current frame's normal, which is the t = 0 case
//! of the same rule). When two opposite normals cancel, the nearer frame's normal is used.
//!
//! The decode tables are inputs, not constants here: the 162 MD2 normals and MD3's 256-step cos/sin table
//! live once, in TS (`ts/src/formats/md2/normals.ts`, `ts/src/kernels/tables.ts`), and are copied into the
//! module's memory once. Every index a kernel follows is bounded first (frames by the checks below, a
//! normal index by clamping into the table), so no input can make a kernel read or write outside its slices.

pub use crate::layout::{MD2_VERTEX_BYTES, MD3_ANGLE_TABLE_LEN, MD3_VERTEX_SHORTS};
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
/// `translates` 3 floats per frame; `normals` the 162 × 3 table. Writes `vertex_count × 3` floats to each
/// output. Returns false (writing nothing) when a frame index or a length is out of range.
#[allow(clippy::too_many_arguments)]
pub fn md2_blend(
    frames: &[u8], scales: &[f32], translates: &[f32], vertex_count: usize, frame_a: usize, frame_b: usize, t: f32,
    normals: &[f32], out_positions: &mut [f32], out_normals: &mut [f32],
) -> bool {
    let frame_bytes = vertex_count * MD2_VERTEX_BYTES;
    let frame_count = if frame_bytes == 0 { 0 } else { frames.len() / frame_bytes };
    let n = vertex_count * OUT_STRIDE;
    if frame_a >= frame_count || frame_b >= frame_count || scales.len() < frame_count * 3 || translates.len() < frame_count * 3
        || normals.len() < 3 || out_positions.len() < n || out_normals.len() < n
    {
        return false;
    }
    let normal_max = normals.len() / 3 - 1;
    let s = 1.0 - t;
    // p = (va·sa + ta)·(1 − t) + (vb·sb + tb)·t, folded into one multiply-add per frame and axis.
    let (sa, sb, ta, tb) = (&scales[frame_a * 3..][..3], &scales[frame_b * 3..][..3], &translates[frame_a * 3..][..3], &translates[frame_b * 3..][..3]);
    let ka = [sa[0] * s, sa[1] * s, sa[2] * s];
    let kb = [sb[0] * t, sb[1] * t, sb[2] * t];
    let c = [ta[0] * s + tb[0] * t, ta[1] * s + tb[1] * t, ta[2] * s + tb[2] * t];
    let va = &frames[frame_a * frame_bytes..][..frame_bytes];
    let vb = &frames[frame_b * frame_bytes..][..frame_bytes];
    let normal = |i: u8| {
        let k = (i as usize).min(normal_max) * 3;
        [normals[k], normals[k + 1], normals[k + 2]]
    };
    // SIMD128: four vertices per step; the scalar loop below finishes the remainder (and is the whole kernel
    // without SIMD). Both compute the same f32 operations in the same order, so their results are identical.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let done = simd::md2_vertices(va, vb, [ka[0], ka[1], ka[2], kb[0], kb[1], kb[2], c[0], c[1], c[2]], t, normals, normal_max, out_positions, out_normals);
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

/// Decode an MD3 packed normal: lat = high byte, lng = low byte, angles k·2π/256;
/// n = (cos lat · sin lng, sin lat · sin lng, cos lng).
#[inline(always)]
fn md3_normal(packed: i16, angles: &[f32; MD3_ANGLE_TABLE_LEN]) -> [f32; 3] {
    let lat = ((packed as u16 >> 8) & 255) as usize;
    let lng = (packed as u16 & 255) as usize;
    let (cos_lat, sin_lat, cos_lng, sin_lng) = (angles[lat], angles[256 + lat], angles[lng], angles[256 + lng]);
    [cos_lat * sin_lng, sin_lat * sin_lng, cos_lng]
}

/// MD3 blend of one surface. `xyz_normals` holds `frame_count × vertex_count` records of 4 int16
/// frame-major; `angles` the 512-float cos/sin table. Writes `vertex_count × 3` floats to each output.
/// Returns false (writing nothing) when a frame index or a length is out of range.
#[allow(clippy::too_many_arguments)]
pub fn md3_blend(
    xyz_normals: &[i16], vertex_count: usize, frame_a: usize, frame_b: usize, t: f32, angles: &[f32],
    out_positions: &mut [f32], out_normals: &mut [f32],
) -> bool {
    let frame_len = vertex_count * MD3_VERTEX_SHORTS;
    let frame_count = if frame_len == 0 { 0 } else { xyz_normals.len() / frame_len };
    let n = vertex_count * OUT_STRIDE;
    let angles: &[f32; MD3_ANGLE_TABLE_LEN] = match angles.get(..MD3_ANGLE_TABLE_LEN).and_then(|a| a.try_into().ok()) {
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
    // No SIMD128 form: one written like MD2's (packed int16 positions, lat/lng normals gathered four lanes at a
    // time) measured 0.93–0.98× this loop in V8 — sixteen scalar table loads per four vertices and frame
    // dominate, SIMD128 having no gather (positions alone ran 2.3× faster). See docs/benchmarks.md.
    for (((a, b), p), nm) in va
        .chunks_exact(MD3_VERTEX_SHORTS)
        .zip(vb.chunks_exact(MD3_VERTEX_SHORTS))
        .zip(out_positions[..n].chunks_exact_mut(OUT_STRIDE))
        .zip(out_normals[..n].chunks_exact_mut(OUT_STRIDE))
    {
        p[0] = a[0] as f32 * ka + b[0] as f32 * kb;
        p[1] = a[1] as f32 * ka + b[1] as f32 * kb;
        p[2] = a[2] as f32 * ka + b[2] as f32 * kb;
        blend_normal(md3_normal(a[3], angles), md3_normal(b[3], angles), t, nm);
    }
    true
}

/// The SIMD128 MD2 blend: four vertices per step. Positions: the quantised x y z of four vertices are first packed
/// (one byte shuffle, dropping the normal indices) into the output order x0 y0 z0 x1 | y1 z1 x2 y2 |
/// z2 x3 y3 z3, then widened, converted and lerped as three full vectors and stored as they are. Normals: gathered
/// from the tables per lane (SIMD128 has no gather), then lerped and renormalised "across vertices" (x, y, z of
/// four vertices in three vectors, so the sqrt and the divide run four-wide). Every lane computes the scalar
/// kernel's f32 expression in the same order (SIMD128 has no fused multiply-add), so the results equal the
/// scalar loop's bit for bit (the parity tests check it).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd {
    use super::MD2_VERTEX_BYTES;
    use core::arch::wasm32::*;

    /// u32 lanes below 2²³ → the same values as f32, exactly: the integer as the mantissa of 2²³, then 2²³ taken
    /// off. LLVM 14 (the wasm toolchain here) turns extend-then-convert into per-lane scalar conversions (measured:
    /// slower than the scalar kernel); these bit operations stay four-wide. Every lane must be a real value: a lane
    /// the compiler deems unused gets its constants folded to 0 and becomes a denormal (measured 7× slower on x86).
    #[inline(always)]
    fn exact_f32(u: v128) -> v128 {
        f32x4_sub(v128_or(u, u32x4_splat(0x4B00_0000)), f32x4_splat(8_388_608.0))
    }

    /// The twelve floats x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3 from x, y and z vectors of four vertices.
    #[inline(always)]
    fn pack_components(x: v128, y: v128, z: v128) -> [v128; 3] {
        let xy01 = i32x4_shuffle::<0, 4, 1, 5>(x, y); // x0 y0 x1 y1
        let xy23 = i32x4_shuffle::<2, 6, 3, 7>(x, y); // x2 y2 x3 y3
        let r0 = i32x4_shuffle::<0, 1, 4, 2>(xy01, z); // x0 y0 z0 x1
        let y1z1 = i32x4_shuffle::<3, 5, 3, 5>(xy01, z); // y1 z1 · ·
        let r1 = i32x4_shuffle::<0, 1, 4, 5>(y1z1, xy23); // y1 z1 x2 y2
        let r2 = i32x4_shuffle::<2, 6, 7, 3>(z, xy23); // z2 x3 y3 z3
        [r0, r1, r2]
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

    /// Lerp two sets of four unit normals (component vectors) by t and renormalise; lanes whose blend
    /// cancels (|n|² ≤ 1e-12) keep the nearer frame's normal, as `blend_normal` does.
    #[inline(always)]
    fn blend_normals(a: [v128; 3], b: [v128; 3], t: f32) -> [v128; 3] {
        let (sv, tv) = (f32x4_splat(1.0 - t), f32x4_splat(t));
        let x = f32x4_add(f32x4_mul(a[0], sv), f32x4_mul(b[0], tv));
        let y = f32x4_add(f32x4_mul(a[1], sv), f32x4_mul(b[1], tv));
        let z = f32x4_add(f32x4_mul(a[2], sv), f32x4_mul(b[2], tv));
        let len2 = f32x4_add(f32x4_add(f32x4_mul(x, x), f32x4_mul(y, y)), f32x4_mul(z, z));
        let inv = f32x4_div(f32x4_splat(1.0), f32x4_sqrt(len2));
        let keep = f32x4_gt(len2, f32x4_splat(1e-12));
        let near = if t < 0.5 { a } else { b };
        [
            v128_bitselect(f32x4_mul(x, inv), near[0], keep),
            v128_bitselect(f32x4_mul(y, inv), near[1], keep),
            v128_bitselect(f32x4_mul(z, inv), near[2], keep),
        ]
    }

    /// MD2 vertices [0, 4·⌊V/4⌋); returns how many were done. `k` = ka xyz, kb xyz, c xyz (see `md2_blend`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn md2_vertices(va: &[u8], vb: &[u8], k: [f32; 9], t: f32, normals: &[f32], normal_max: usize, out_p: &mut [f32], out_n: &mut [f32]) -> usize {
        let quads = (va.len().min(vb.len()) / (4 * MD2_VERTEX_BYTES)).min(out_p.len().min(out_n.len()) / 12);
        let ka = packed_constant([k[0], k[1], k[2]]);
        let kb = packed_constant([k[3], k[4], k[5]]);
        let c = packed_constant([k[6], k[7], k[8]]);
        // Four 4-byte records → x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3 as floats (normal bytes dropped).
        #[inline(always)]
        fn positions(bytes: v128) -> [v128; 3] {
            let xyz = i8x16_shuffle::<0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 1, 2, 4>(bytes, bytes);
            let (lo, hi) = (u16x8_extend_low_u8x16(xyz), u16x8_extend_high_u8x16(xyz));
            [exact_f32(u32x4_extend_low_u16x8(lo)), exact_f32(u32x4_extend_high_u16x8(lo)), exact_f32(u32x4_extend_low_u16x8(hi))]
        }
        // One frame's four table normals as component vectors (indices clamped into the table).
        let gather = |rec: &[u8]| -> [v128; 3] {
            let i = |v: usize| (rec[v * MD2_VERTEX_BYTES + 3] as usize).min(normal_max) * 3;
            let (i0, i1, i2, i3) = (i(0), i(1), i(2), i(3));
            let n = |k: usize| normals[k];
            [f32x4(n(i0), n(i1), n(i2), n(i3)), f32x4(n(i0 + 1), n(i1 + 1), n(i2 + 1), n(i3 + 1)), f32x4(n(i0 + 2), n(i1 + 2), n(i2 + 2), n(i3 + 2))]
        };
        for q in 0..quads {
            let r = q * 4 * MD2_VERTEX_BYTES;
            let (ra, rb) = (&va[r..r + 16], &vb[r..r + 16]);
            // SAFETY: ra and rb hold 16 bytes; unaligned loads are allowed.
            let (a, b) = unsafe { (positions(v128_load(ra.as_ptr() as *const v128)), positions(v128_load(rb.as_ptr() as *const v128))) };
            // p = a·ka + b·kb + c, as the scalar kernel groups it.
            let p = |i: usize| f32x4_add(f32x4_add(f32x4_mul(a[i], ka[i]), f32x4_mul(b[i], kb[i])), c[i]);
            let o = q * 12;
            let (op, on) = (&mut out_p[o..o + 12], &mut out_n[o..o + 12]);
            // SAFETY: op and on hold 12 floats.
            unsafe {
                store12(op.as_mut_ptr(), [p(0), p(1), p(2)]);
                let [x, y, z] = blend_normals(gather(ra), gather(rb), t);
                store12(on.as_mut_ptr(), pack_components(x, y, z));
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

    fn angle_table() -> Vec<f32> {
        let mut t = vec![0.0; MD3_ANGLE_TABLE_LEN];
        for k in 0..256 {
            let a = k as f64 * 2.0 * PI / 256.0;
            t[k] = a.cos() as f32;
            t[256 + k] = a.sin() as f32;
        }
        t
    }

    #[test]
    fn md2_frame_decodes_scale_and_translate_and_picks_table_normals() {
        // Two vertices, two frames; normals table of three unit axes.
        let frames = [1u8, 2, 3, 0, 255, 0, 10, 2, /* frame 1 */ 3, 2, 1, 1, 0, 0, 0, 2];
        let scales = [0.5, 1.0, 2.0, 1.0, 1.0, 1.0];
        let translates = [10.0, 20.0, 30.0, -1.0, -2.0, -3.0];
        let normals = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
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
        let normals = [0.0, 0.0, 1.0];
        let (mut p, mut n) = ([0.0f32; 3], [9.0f32; 3]);
        assert!(!md2_blend(&frames, &[1.0; 3], &[0.0; 3], 1, 1, 0, 0.0, &normals, &mut p, &mut n));
        assert_eq!(n, [9.0; 3]);
        assert!(md2_blend(&frames, &[1.0; 3], &[0.0; 3], 1, 0, 0, 0.0, &normals, &mut p, &mut n));
        assert_eq!(n, [0.0, 0.0, 1.0]);
        assert!(!md2_blend(&frames, &[1.0; 3], &[0.0; 3], 1, 0, 0, 0.0, &normals, &mut [0.0; 2], &mut n));
    }

    #[test]
    fn md3_positions_are_sixty_fourths_and_normals_follow_lat_lng() {
        let angles = angle_table();
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
        let normals = [1.0, 0.0, 0.0, -1.0, 0.0, 0.0];
        let frames = [0u8, 0, 0, 0, 0, 0, 0, 1];
        let (mut p, mut n) = ([0.0f32; 3], [0.0f32; 3]);
        assert!(md2_blend(&frames, &[1.0; 6], &[0.0; 6], 1, 0, 1, 0.5, &normals, &mut p, &mut n));
        assert_eq!(n, [-1.0, 0.0, 0.0]);
        assert!(md2_blend(&frames, &[1.0; 6], &[0.0; 6], 1, 0, 1, 0.49, &normals, &mut p, &mut n));
        assert_eq!(n, [1.0, 0.0, 0.0]);
    }
}

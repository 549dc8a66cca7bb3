//! Linear blend skinning over a weight stream **grouped by weight count**: all 1-weight vertices first, then
//! all 2-weight vertices, and so on (`group_sizes[c − 1]` vertices with c weights). Inside a group the trip
//! count is a constant, so the loop is unrolled per count with no data-dependent loop exit (measured: grouping
//! alone is worth ~2.5×). Weights are pre-scaled `x·b y·b z·b b`, so a vertex is Σ M_j · w; for normals the last
//! lane is 0 and the same sum applies only the rotation columns.
//!
//! Output order: with `dest` empty, vertices are written in this grouped ("fast") order; otherwise vertex i
//! of the stream is written to slot `dest[i]` (its index in the file), so callers get file order for free. The
//! SIMD kernels (SIMD128, x86-64) store four vertices whose slots are consecutive (runs of the file order inside a
//! group, most quads in real models) as three whole vectors, as in the grouped order, when `dest` rises inside
//! every group.
//!
//! Safety without per-weight bounds checks: every length is checked once at entry (the kernel returns
//! `false` and writes nothing if the shapes disagree), and every joint and destination index either once at
//! entry too (the SIMD128 build: one vectorised max over each index array, then the loops follow them
//! unchecked; an index out of range makes the kernel return `false` and write nothing) or as it is used, clamped
//! into range (the other builds: a compare and a conditional move, which on x86-64 and in the scalar wasm cost
//! less than the extra pass — measured). Either way an unvalidated stream cannot read or write outside its
//! slices. Validation (`validate::skin`) reports such indices as errors before the kernel ever runs.

use crate::layout::{MATRIX_STRIDE, WEIGHT_STRIDE};

/// Total vertices and weights a grouping describes, or None when they (or the float counts the kernels derive
/// from them, vertices · 3 and weights · 4) overflow `usize` — possible on wasm32 for a hostile direct caller, and
/// a wrapped total would let a short buffer pass every length check.
pub fn group_totals(group_sizes: &[u32]) -> Option<(usize, usize)> {
    let mut vertices = 0usize;
    let mut weights = 0usize;
    for (g, &n) in group_sizes.iter().enumerate() {
        vertices = vertices.checked_add(n as usize)?;
        weights = weights.checked_add((n as usize).checked_mul(g + 1)?)?;
    }
    vertices.checked_mul(3)?;
    weights.checked_mul(WEIGHT_STRIDE)?;
    Some((vertices, weights))
}

/// Positions; returns false (and writes nothing) when the buffer shapes disagree.
#[inline(never)] // one copy for its callers (the wasm surface, normals, skin_positions_poses): module size
pub fn skin_positions(matrices: &[f32], group_sizes: &[u32], joints: &[u32], weights: &[f32], dest: &[u32], out: &mut [f32]) -> bool {
    let (vertices, total) = match group_totals(group_sizes) {
        Some(t) => t,
        None => return false,
    };
    let joint_count = matrices.len() / MATRIX_STRIDE;
    if !stream_fits(joint_count, total, vertices, joints, weights, dest) || out.len() < vertices * 3 {
        return false;
    }
    let dest = if dest.is_empty() { dest } else { &dest[..vertices] };
    let mut runs = false;
    if INDICES_CHECKED_AT_ENTRY {
        let (last_slot, rising) = scan_dest(group_sizes, dest);
        if !below(&joints[..total], joint_count) || !dest.is_empty() && last_slot as usize >= out.len() / 3 {
            return false;
        }
        runs = rising;
    } else if cfg!(target_arch = "x86_64") && !dest.is_empty() {
        runs = scan_dest(group_sizes, dest).1; // the native kernel tries whole quads too (the same formulation)
    }
    let ctx = Ctx { matrices, joints, weights, dest, last_joint: joint_count.saturating_sub(1), slots: out.len() / 3, runs };
    let mut v = 0usize;
    let mut k = 0usize;
    for (g, &n) in group_sizes.iter().enumerate() {
        let n = n as usize;
        run_group(&ctx, g + 1, v, k, n, out);
        v += n;
        k += n * (g + 1);
    }
    true
}

/// Whether a stream of `vertices` vertices and `total` weights fits its buffers and `joint_count` joints: the shape
/// checks every skinning entry makes before its loops index unchecked.
#[inline(always)]
fn stream_fits(joint_count: usize, total: usize, vertices: usize, joints: &[u32], weights: &[f32], dest: &[u32]) -> bool {
    !(joint_count == 0 && total > 0) && joints.len() >= total && weights.len() >= total * WEIGHT_STRIDE && (dest.is_empty() || dest.len() >= vertices)
}

/// Vertices `v0..v0 + n` of a c-weight group (first weight `k0`), with the group's constant trip count unrolled.
/// Not inlined: the whole-stream and the block walk share this one copy of the unrolled loops (inlined into
/// each, the SIMD module grew by half; one call per group costs nothing measurable).
#[inline(never)]
fn run_group(ctx: &Ctx, c: usize, v0: usize, k0: usize, n: usize, out: &mut [f32]) {
    match c {
        1 => group::<1>(ctx, v0, k0, n, out),
        2 => group::<2>(ctx, v0, k0, n, out),
        3 => group::<3>(ctx, v0, k0, n, out),
        4 => group::<4>(ctx, v0, k0, n, out),
        5 => group::<5>(ctx, v0, k0, n, out),
        6 => group::<6>(ctx, v0, k0, n, out),
        c => group_any(ctx, c, v0, k0, n, out),
    }
}

/// Vertices per block in `skin_positions_poses`: a block's stream (~20 bytes per weight, 2–3 weights a vertex) and
/// one pose's output (12 bytes a vertex) stay in a 2 MiB L2 while every pose is skinned over it.
pub const POSE_BLOCK: usize = 8192;

/// Groupings with more weight counts than this are skinned pose after pose by `skin_positions_poses`: its block walk
/// keeps two words per group on the stack (no allocation), and real meshes stay far below it.
const MAX_BLOCKED_GROUPS: usize = 32;

/// `poses` poses of one stream: pose p's `joint_count` matrices at `matrices[p · joint_count · 16 ..]`, its
/// vertices written at `out[p · V · 3 ..]` exactly as `skin_positions` writes them (the same floats). Skinned
/// block by block — one block of vertices for every pose, then the next block — so a block's weights come from
/// memory once for all the poses instead of once per pose (a 1M-vertex stream is ~40 MB, far past any cache).
/// In file order (`dest`) the blocks are runs of file slots, so each pose's output block is one contiguous range;
/// that needs `dest` to rise inside every group (as `buildSkinStream` writes it) with every slot inside the output:
/// otherwise, for groupings with many weight counts, and for one pose or one block, the poses are skinned one after
/// another. Returns false (and writes nothing) when the buffer shapes disagree, as `skin_positions`.
#[allow(clippy::too_many_arguments)]
pub fn skin_positions_poses(matrices: &[f32], joint_count: usize, poses: usize, group_sizes: &[u32], joints: &[u32], weights: &[f32], dest: &[u32], out: &mut [f32]) -> bool {
    let (vertices, total) = match group_totals(group_sizes) {
        Some(t) => t,
        None => return false,
    };
    let per_pose = match joint_count.checked_mul(MATRIX_STRIDE) {
        Some(n) => n,
        None => return false,
    };
    let span = vertices * 3; // group_totals checked that it fits
    if poses.checked_mul(per_pose).map_or(true, |n| matrices.len() < n) || poses.checked_mul(span).map_or(true, |n| out.len() < n) {
        return false;
    }
    let one_by_one = |out: &mut [f32]| (0..poses).all(|p| skin_positions(&matrices[p * per_pose..(p + 1) * per_pose], group_sizes, joints, weights, dest, &mut out[p * span..(p + 1) * span]));
    let groups = group_sizes.len();
    if poses < 2 || vertices <= POSE_BLOCK || groups > MAX_BLOCKED_GROUPS {
        return one_by_one(out);
    }
    // The shape checks of skin_positions, once for every pose (one_by_one makes them itself, and refuses).
    if !stream_fits(joint_count, total, vertices, joints, weights, dest) {
        return false;
    }
    let dest = if dest.is_empty() { dest } else { &dest[..vertices] };
    let (last_slot, rising) = scan_dest(group_sizes, dest);
    // A slot past the output is clamped by skin_positions (or refused): only streams whose every slot is inside one
    // pose's output are walked by file-slot blocks, so both ways write the same floats.
    if !dest.is_empty() && !(rising && (last_slot as usize) < vertices) {
        return one_by_one(out);
    }
    if INDICES_CHECKED_AT_ENTRY && !below(&joints[..total], joint_count) {
        return false;
    }
    let runs = rising && (INDICES_CHECKED_AT_ENTRY || cfg!(target_arch = "x86_64"));
    // Where each group starts in the stream (vertex first_v[g], weight first_k[g]); this block's part of each group is
    // stream vertices [lo[g], hi[g]).
    let (mut first_v, mut first_k) = ([0usize; MAX_BLOCKED_GROUPS + 1], [0usize; MAX_BLOCKED_GROUPS + 1]);
    for (g, &n) in group_sizes.iter().enumerate() {
        first_v[g + 1] = first_v[g] + n as usize;
        first_k[g + 1] = first_k[g] + n as usize * (g + 1);
    }
    let mut lo = [0usize; MAX_BLOCKED_GROUPS];
    lo[..groups].copy_from_slice(&first_v[..groups]);
    let mut hi = lo;
    let mut block_start = 0usize;
    while block_start < vertices {
        let block_end = (block_start + POSE_BLOCK).min(vertices);
        // Grouped order: the block is a range of stream vertices; file order: a range of file slots, which inside a
        // group (dest rising) is a range of stream vertices too.
        for g in 0..groups {
            let end = first_v[g + 1];
            hi[g] = if dest.is_empty() {
                block_end.clamp(first_v[g], end)
            } else {
                let mut e = lo[g];
                while e < end && (dest[e] as usize) < block_end {
                    e += 1;
                }
                e
            };
        }
        for p in 0..poses {
            let ctx = Ctx { matrices: &matrices[p * per_pose..(p + 1) * per_pose], joints, weights, dest, last_joint: joint_count.saturating_sub(1), slots: vertices, runs };
            let o = &mut out[p * span..(p + 1) * span];
            for g in 0..groups {
                if hi[g] > lo[g] {
                    run_group(&ctx, g + 1, lo[g], first_k[g] + (lo[g] - first_v[g]) * (g + 1), hi[g] - lo[g], o);
                }
            }
        }
        lo = hi;
        block_start = block_end;
    }
    true
}

/// Normals: the same sum over normal weights (`nx·b ny·b nz·b 0`), then renormalised.
pub fn skin_normals(matrices: &[f32], group_sizes: &[u32], joints: &[u32], normal_weights: &[f32], dest: &[u32], out: &mut [f32]) -> bool {
    if !skin_positions(matrices, group_sizes, joints, normal_weights, dest, out) {
        return false;
    }
    let vertices = group_totals(group_sizes).map_or(0, |t| t.0); // Some: skin_positions succeeded
    for n in out[..vertices * 3].chunks_exact_mut(3) {
        let len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
        if len2 > 0.0 {
            let inv = 1.0 / len2.sqrt();
            n[0] *= inv;
            n[1] *= inv;
            n[2] *= inv;
        }
    }
    true
}

/// Whether `skin_positions` checks every joint and destination index before the loops run (see the module
/// notes): the SIMD128 loops then index unchecked (`Ctx::matrix_checked`, `Ctx::slot_checked`).
const INDICES_CHECKED_AT_ENTRY: bool = cfg!(all(target_arch = "wasm32", target_feature = "simd128"));

/// Whether every index in `xs` is below `n`: one pass over a max (u32x4.max_u on SIMD128, 32 indices a step).
#[inline(never)] // one copy for skin_positions and skin_positions_poses (module size)
fn below(xs: &[u32], n: usize) -> bool {
    if xs.is_empty() {
        return true;
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    let (done, max) = (0, 0u32);
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let (done, max) = {
        use core::arch::wasm32::*;
        let done = xs.len() / 32 * 32;
        let mut m = u32x4_splat(0);
        for c in xs[..done].chunks_exact(32) {
            let p = c.as_ptr() as *const v128;
            // SAFETY: `c` holds 32 u32 = 8 vectors; v128 loads have no alignment requirement.
            let l = |i: usize| unsafe { v128_load(p.add(i)) };
            let a = u32x4_max(u32x4_max(l(0), l(1)), u32x4_max(l(2), l(3)));
            let b = u32x4_max(u32x4_max(l(4), l(5)), u32x4_max(l(6), l(7)));
            m = u32x4_max(m, u32x4_max(a, b));
        }
        let m = u32x4_max(m, i32x4_shuffle::<2, 3, 0, 1>(m, m));
        let m = u32x4_max(m, i32x4_shuffle::<1, 0, 3, 2>(m, m));
        (done, u32x4_extract_lane::<0>(m))
    };
    (xs[done..].iter().fold(max, |m, &x| m.max(x)) as usize) < n
}

/// One pass over `dest` (which holds the grouping's vertices, entry check): its largest slot, and whether it rises
/// strictly inside every group (as `buildSkinStream` writes it: each group in file order), so that four stream
/// vertices whose first and last slots are 3 apart fill four consecutive slots. Descents are counted over the
/// whole array (LLVM vectorises the pass elsewhere; on SIMD128 `scan_pairs_simd128` does it 16 pairs a step), then
/// the ones where a group starts are taken back out. (Also counting +1 steps, to skip the test per quad on streams with few runs,
/// cost more in this pass than it saved.)
#[inline(never)] // one copy for skin_positions and skin_positions_poses (module size)
fn scan_dest(group_sizes: &[u32], dest: &[u32]) -> (u32, bool) {
    let last = match dest.last() {
        Some(&last) => last,
        None => return (0, false),
    };
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    let (max, descents) = dest.iter().zip(&dest[1..]).fold((last, 0u32), |(m, d), (&x, &y)| (m.max(x), d.wrapping_add((x >= y) as u32)));
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    let (max, descents) = scan_pairs_simd128(dest, last);
    let mut v = 0usize;
    let mut at_starts = 0u32;
    for &n in group_sizes {
        if v > 0 && n > 0 {
            at_starts += (dest[v - 1] >= dest[v]) as u32;
        }
        v += n as usize;
    }
    (max, descents == at_starts)
}

/// `scan_dest`'s pass on SIMD128, 16 pairs a step (LLVM's own vectorisation does 8, and under V8 each step also pays
/// a stack check): the largest slot (unsigned max) and the descents `dest[i] >= dest[i + 1]`, counted as pairs minus
/// *signed* rises (one `pcmpgtd`, where an unsigned compare is two instructions on x86). The count is exact when every
/// slot is below 2^31, and otherwise irrelevant: the max is then ≥ 2^31 ≥ out.len() / 3 and the entry check refuses
/// the job before `runs` is used.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn scan_pairs_simd128(dest: &[u32], last: u32) -> (u32, u32) {
    use core::arch::wasm32::*;
    let pairs = dest.len() - 1; // dest is not empty
    let done = pairs / 16 * 16;
    let p = dest.as_ptr();
    let mut m = u32x4_splat(last);
    let mut rises = i32x4_splat(0);
    let mut i = 0;
    while i < done {
        // SAFETY: i + 16 ≤ done ≤ pairs = dest.len() − 1, so every load (up to dest[i + 16]) is inside `dest`.
        let l = |k: usize| unsafe { v128_load(p.add(i + k) as *const v128) };
        let (a0, a1, a2, a3) = (l(0), l(4), l(8), l(12));
        let (b0, b1, b2, b3) = (l(1), l(5), l(9), l(13));
        m = u32x4_max(m, u32x4_max(u32x4_max(a0, a1), u32x4_max(a2, a3)));
        let r = i32x4_add(i32x4_add(i32x4_gt(b0, a0), i32x4_gt(b1, a1)), i32x4_add(i32x4_gt(b2, a2), i32x4_gt(b3, a3)));
        rises = i32x4_sub(rises, r); // a true lane is −1
        i += 16;
    }
    let m = u32x4_max(m, i32x4_shuffle::<2, 3, 0, 1>(m, m));
    let m = u32x4_max(m, i32x4_shuffle::<1, 0, 3, 2>(m, m));
    let r = i32x4_add(rises, i32x4_shuffle::<2, 3, 0, 1>(rises, rises));
    let r = i32x4_add(r, i32x4_shuffle::<1, 0, 3, 2>(r, r));
    let mut max = u32x4_extract_lane::<0>(m);
    let mut descents = (done as u32).wrapping_sub(i32x4_extract_lane::<0>(r) as u32);
    for k in done..pairs {
        let (x, y) = (dest[k], dest[k + 1]);
        max = max.max(x);
        descents = descents.wrapping_add((x >= y) as u32);
    }
    (max, descents)
}

struct Ctx<'a> {
    matrices: &'a [f32],
    joints: &'a [u32],
    weights: &'a [f32],
    dest: &'a [u32],
    last_joint: usize,
    /// xyz slots in `out`.
    slots: usize,
    /// `scan_dest(…).1` (SIMD128 and x86-64 builds): a quad of consecutive slots is stored whole.
    #[cfg_attr(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")), allow(dead_code))]
    runs: bool,
}

impl Ctx<'_> {
    #[inline(always)]
    fn slot(&self, v: usize) -> usize {
        if self.dest.is_empty() {
            v
        } else {
            // SAFETY: entry checked dest.len() ≥ vertices > v.
            (unsafe { *self.dest.get_unchecked(v) } as usize).min(self.slots - 1)
        }
    }
    #[inline(always)]
    fn matrix(&self, k: usize) -> usize {
        // SAFETY: entry checked joints.len() ≥ total weights > k; the joint is clamped into range.
        (unsafe { *self.joints.get_unchecked(k) } as usize).min(self.last_joint) * MATRIX_STRIDE
    }
    /// `slot` where the destinations were checked at entry (INDICES_CHECKED_AT_ENTRY): no clamp.
    #[inline(always)]
    #[allow(dead_code)]
    fn slot_checked(&self, v: usize) -> usize {
        debug_assert!(INDICES_CHECKED_AT_ENTRY);
        if self.dest.is_empty() {
            v
        } else {
            // SAFETY: entry checked dest.len() ≥ vertices > v, and every slot below out.len() / 3.
            unsafe { *self.dest.get_unchecked(v) as usize }
        }
    }
    /// `matrix` where the joints were checked at entry (INDICES_CHECKED_AT_ENTRY): no clamp.
    #[inline(always)]
    #[allow(dead_code)]
    fn matrix_checked(&self, k: usize) -> usize {
        debug_assert!(INDICES_CHECKED_AT_ENTRY);
        // SAFETY: entry checked joints.len() ≥ total weights > k, and every joint below the joint count.
        unsafe { *self.joints.get_unchecked(k) as usize * MATRIX_STRIDE }
    }
}

#[inline(always)]
fn group<const C: usize>(ctx: &Ctx, v0: usize, k0: usize, n: usize, out: &mut [f32]) {
    group_impl(ctx, C, v0, k0, n, out)
}

#[inline(never)]
fn group_any(ctx: &Ctx, c: usize, v0: usize, k0: usize, n: usize, out: &mut [f32]) {
    group_impl(ctx, c, v0, k0, n, out)
}

#[cfg(not(any(all(target_arch = "wasm32", target_feature = "simd128"), target_arch = "x86_64")))]
#[inline(always)]
fn group_impl(ctx: &Ctx, c: usize, v0: usize, k0: usize, n: usize, out: &mut [f32]) {
    group_scalar(ctx, c, v0, k0, n, out)
}

/// The scalar form of the kernel (wasm without SIMD128, and the reference the SIMD forms are tested against).
#[inline(always)]
#[allow(dead_code)]
fn group_scalar(ctx: &Ctx, c: usize, v0: usize, k0: usize, n: usize, out: &mut [f32]) {
    let m = ctx.matrices;
    let w = ctx.weights;
    let mut k = k0;
    for v in v0..v0 + n {
        let (mut x, mut y, mut z) = (0.0f32, 0.0f32, 0.0f32);
        for _ in 0..c {
            let j = ctx.matrix(k);
            let o = k * WEIGHT_STRIDE;
            // SAFETY: j + 16 ≤ matrices.len() (clamped joint), o + 4 ≤ weights.len() (entry check).
            unsafe {
                let (wx, wy, wz, wb) = (*w.get_unchecked(o), *w.get_unchecked(o + 1), *w.get_unchecked(o + 2), *w.get_unchecked(o + 3));
                let mm = |i: usize| *m.get_unchecked(j + i);
                x += mm(0) * wx + mm(1) * wy + mm(2) * wz + mm(3) * wb;
                y += mm(4) * wx + mm(5) * wy + mm(6) * wz + mm(7) * wb;
                z += mm(8) * wx + mm(9) * wy + mm(10) * wz + mm(11) * wb;
            }
            k += 1;
        }
        let s = ctx.slot(v) * 3;
        out[s] = x;
        out[s + 1] = y;
        out[s + 2] = z;
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn group_impl(ctx: &Ctx, c: usize, v0: usize, k0: usize, n: usize, out: &mut [f32]) {
    let quads = n / 4 * 4;
    // One loop of four vertices per output order, so the order is not tested every four vertices; the last
    // (n mod 4) vertices share one loop that tests it (their code is not worth a second copy in the module).
    if ctx.dest.is_empty() {
        simd128::quads::<false>(ctx, c, v0, k0, quads, out)
    } else {
        simd128::quads::<true>(ctx, c, v0, k0, quads, out)
    }
    simd128::singles(ctx, c, v0 + quads, k0 + quads * c, n - quads, out)
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128 {
    use super::Ctx;
    use crate::layout::WEIGHT_STRIDE;
    use core::arch::wasm32::*;

    /// One accumulator per matrix row of vertex weights k..k+c: acc_r = Σ row_r · w, lane-wise.
    #[inline(always)]
    fn rows(ctx: &Ctx, m: *const f32, w: *const f32, k: usize, c: usize) -> [v128; 3] {
        // SAFETY: every joint was checked below the joint count at entry, so j + 16 ≤ matrices.len();
        // (k + 1) · 4 ≤ weights.len() (entry check); v128 loads have no alignment requirement.
        let product = |k: usize| unsafe {
            let p = m.add(ctx.matrix_checked(k)) as *const v128;
            let wv = v128_load(w.add(k * WEIGHT_STRIDE) as *const v128);
            [f32x4_mul(v128_load(p), wv), f32x4_mul(v128_load(p.add(1)), wv), f32x4_mul(v128_load(p.add(2)), wv)]
        };
        // Start from the first weight's products (every vertex has ≥ 1): 0 + x cannot be folded away in
        // floating point (−0), so starting from zero would cost three adds per vertex.
        let [mut a0, mut a1, mut a2] = product(k);
        for k in k + 1..k + c {
            let [p0, p1, p2] = product(k);
            a0 = f32x4_add(a0, p0);
            a1 = f32x4_add(a1, p1);
            a2 = f32x4_add(a2, p2);
        }
        [a0, a1, a2]
    }

    /// (Σp, Σq, Σr, Σs): four horizontal sums in six shuffles and three adds.
    #[inline(always)]
    fn hsum4(p: v128, q: v128, r: v128, s: v128) -> v128 {
        let pq = f32x4_add(i32x4_shuffle::<0, 4, 1, 5>(p, q), i32x4_shuffle::<2, 6, 3, 7>(p, q));
        let rs = f32x4_add(i32x4_shuffle::<0, 4, 1, 5>(r, s), i32x4_shuffle::<2, 6, 3, 7>(r, s));
        f32x4_add(i32x4_shuffle::<0, 1, 4, 5>(pq, rs), i32x4_shuffle::<2, 3, 6, 7>(pq, rs))
    }

    /// `n` (a multiple of 4) vertices from v0, four at a time: their twelve row sums pack into three vectors
    /// that are exactly the 12 floats x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3, so no lane is wasted on a
    /// padding zero.
    #[inline(always)]
    pub(super) fn quads<const SCATTER: bool>(ctx: &Ctx, c: usize, v0: usize, k0: usize, n: usize, out: &mut [f32]) {
        let m = ctx.matrices.as_ptr();
        let w = ctx.weights.as_ptr();
        let mut k = k0;
        let mut v = v0;
        while v < v0 + n {
            let [a0, a1, a2] = rows(ctx, m, w, k, c);
            let [b0, b1, b2] = rows(ctx, m, w, k + c, c);
            let [c0, c1, c2] = rows(ctx, m, w, k + 2 * c, c);
            let [d0, d1, d2] = rows(ctx, m, w, k + 3 * c, c);
            let r0 = hsum4(a0, a1, a2, b0);
            let r1 = hsum4(b1, b2, c0, c1);
            let r2 = hsum4(c2, d0, d1, d2);
            let run = SCATTER && ctx.runs && ctx.slot_checked(v + 3) == ctx.slot_checked(v) + 3;
            if SCATTER && !run {
                // Scatter to file slots: each vertex's x y z straddles the three vectors at a fixed place.
                let (s0, s1, s2, s3) = (ctx.slot_checked(v) * 3, ctx.slot_checked(v + 1) * 3, ctx.slot_checked(v + 2) * 3, ctx.slot_checked(v + 3) * 3);
                // SAFETY: every slot was checked below out.len() / 3 at entry, so each s + 3 ≤ out.len();
                // lane stores write 4 or 8 bytes.
                unsafe {
                    let o = out.as_mut_ptr();
                    v128_store64_lane::<0>(r0, o.add(s0) as *mut u64);
                    v128_store32_lane::<2>(r0, o.add(s0 + 2) as *mut u32);
                    v128_store32_lane::<3>(r0, o.add(s1) as *mut u32);
                    v128_store64_lane::<0>(r1, o.add(s1 + 1) as *mut u64);
                    v128_store64_lane::<1>(r1, o.add(s2) as *mut u64);
                    v128_store32_lane::<0>(r2, o.add(s2 + 2) as *mut u32);
                    v128_store32_lane::<1>(r2, o.add(s3) as *mut u32);
                    v128_store64_lane::<1>(r2, o.add(s3 + 1) as *mut u64);
                }
            } else {
                // Four consecutive slots (a run of the file order inside this group, the common case in real
                // models), or the grouped order: the three vectors are the twelve floats as they are.
                // SAFETY: entry checked out.len() ≥ vertices · 3 ≥ (v + 4) · 3, and each slot below out.len() / 3
                // (so the last of four consecutive ones ends inside `out`); unaligned v128 stores are allowed.
                unsafe {
                    let first = if SCATTER { ctx.slot_checked(v) } else { v };
                    let p = out.as_mut_ptr().add(first * 3) as *mut v128;
                    v128_store(p, r0);
                    v128_store(p.add(1), r1);
                    v128_store(p.add(2), r2);
                }
            }
            k += 4 * c;
            v += 4;
        }
    }

    /// `n` vertices from v0 one at a time (the last n mod 4 of a group), either output order.
    #[inline(always)]
    pub(super) fn singles(ctx: &Ctx, c: usize, v0: usize, k0: usize, n: usize, out: &mut [f32]) {
        let (m, w) = (ctx.matrices.as_ptr(), ctx.weights.as_ptr());
        let mut k = k0;
        for v in v0..v0 + n {
            let [a0, a1, a2] = rows(ctx, m, w, k, c);
            let acc = hsum4(a0, a1, a2, f32x4_splat(0.0));
            let s = ctx.slot_checked(v) * 3;
            let o = &mut out[s..s + 3];
            // SAFETY: `o` has 3 floats: x and y as one 64-bit lane store, then z.
            unsafe { v128_store64_lane::<0>(acc, o.as_mut_ptr() as *mut u64) };
            o[2] = f32x4_extract_lane::<2>(acc);
            k += c;
        }
    }
}

/// Native x86-64 (SSE2 is part of the baseline): the same formulation as the SIMD128 kernel (rows, four
/// vertices per transpose), so the native benchmark measures the machine's ceiling for this very kernel.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn group_impl(ctx: &Ctx, c: usize, v0: usize, k0: usize, n: usize, out: &mut [f32]) {
    use core::arch::x86_64::*;
    let m = ctx.matrices.as_ptr();
    let w = ctx.weights.as_ptr();
    #[inline(always)]
    fn rows(ctx: &Ctx, m: *const f32, w: *const f32, k: usize, c: usize) -> [__m128; 3] {
        // SAFETY: as in the SIMD128 kernel: clamped joints, lengths checked at entry, unaligned loads.
        let product = |k: usize| unsafe {
            let p = m.add(ctx.matrix(k));
            let wv = _mm_loadu_ps(w.add(k * WEIGHT_STRIDE));
            [_mm_mul_ps(_mm_loadu_ps(p), wv), _mm_mul_ps(_mm_loadu_ps(p.add(4)), wv), _mm_mul_ps(_mm_loadu_ps(p.add(8)), wv)]
        };
        let [mut a0, mut a1, mut a2] = product(k); // from the first weight, as in the SIMD128 kernel
        for k in k + 1..k + c {
            let [p0, p1, p2] = product(k);
            // SAFETY: SSE2 baseline.
            unsafe {
                a0 = _mm_add_ps(a0, p0);
                a1 = _mm_add_ps(a1, p1);
                a2 = _mm_add_ps(a2, p2);
            }
        }
        [a0, a1, a2]
    }
    #[inline(always)]
    fn hsum4(p: __m128, q: __m128, r: __m128, s: __m128) -> __m128 {
        // SAFETY: SSE2 is always present on x86-64.
        unsafe {
            let pq = _mm_add_ps(_mm_unpacklo_ps(p, q), _mm_unpackhi_ps(p, q));
            let rs = _mm_add_ps(_mm_unpacklo_ps(r, s), _mm_unpackhi_ps(r, s));
            _mm_add_ps(_mm_movelh_ps(pq, rs), _mm_movehl_ps(rs, pq))
        }
    }
    let mut k = k0;
    let mut v = v0;
    let end = v0 + n;
    while v + 4 <= end {
        let [a0, a1, a2] = rows(ctx, m, w, k, c);
        let [b0, b1, b2] = rows(ctx, m, w, k + c, c);
        let [c0, c1, c2] = rows(ctx, m, w, k + 2 * c, c);
        let [d0, d1, d2] = rows(ctx, m, w, k + 3 * c, c);
        let r = [hsum4(a0, a1, a2, b0), hsum4(b1, b2, c0, c1), hsum4(c2, d0, d1, d2)];
        let mut lanes = [0.0f32; 12];
        // SAFETY: `lanes` holds 12 floats.
        unsafe {
            _mm_storeu_ps(lanes.as_mut_ptr(), r[0]);
            _mm_storeu_ps(lanes.as_mut_ptr().add(4), r[1]);
            _mm_storeu_ps(lanes.as_mut_ptr().add(8), r[2]);
        }
        let first = if ctx.dest.is_empty() { v } else { ctx.slot(v) };
        if ctx.dest.is_empty() || ctx.runs && ctx.slot(v + 3) == first + 3 {
            out[first * 3..first * 3 + 12].copy_from_slice(&lanes);
        } else {
            for i in 0..4 {
                let s = ctx.slot(v + i) * 3;
                out[s..s + 3].copy_from_slice(&lanes[i * 3..i * 3 + 3]);
            }
        }
        k += 4 * c;
        v += 4;
    }
    while v < end {
        let [a0, a1, a2] = rows(ctx, m, w, k, c);
        // SAFETY: SSE2 baseline.
        let acc = hsum4(a0, a1, a2, unsafe { _mm_setzero_ps() });
        let mut lanes = [0.0f32; 4];
        // SAFETY: `lanes` holds 4 floats.
        unsafe { _mm_storeu_ps(lanes.as_mut_ptr(), acc) };
        let s = ctx.slot(v) * 3;
        out[s..s + 3].copy_from_slice(&lanes[..3]);
        k += c;
        v += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_native_simd_kernel_equals_the_scalar_one() {
        // 3 joints, vertices with 1..=8 weights, pseudo-random values; every output order.
        let mut seed = 12345u32;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed as f32 / u32::MAX as f32) * 2.0 - 1.0
        };
        let matrices: Vec<f32> = (0..48).map(|_| rnd()).collect();
        let groups = [7u32, 5, 2, 0, 4, 0, 1, 9]; // batches of four and remainders
        let (vertices, total) = group_totals(&groups).unwrap();
        let joints: Vec<u32> = (0..total).map(|k| (k % 3) as u32).collect();
        let weights: Vec<f32> = (0..total * 4).map(|_| rnd()).collect();
        let dest: Vec<u32> = (0..vertices as u32).rev().collect();
        // Rising inside every group, in runs of consecutive slots (whole quads), one slot skipped part way.
        let mut runs: Vec<u32> = (0..vertices as u32).collect();
        runs[vertices / 2 + 1..].iter_mut().for_each(|s| *s += 1); // inside the quad of 4-weight vertices
        let runs_out = vertices + 1;
        for d in [&dest[..], &[][..], &runs[..]] {
            let slots = if d.len() == runs.len() && d[0] == 0 { runs_out } else { vertices };
            let ctx = Ctx { matrices: &matrices, joints: &joints, weights: &weights, dest: d, last_joint: 2, slots, runs: false };
            let (mut a, mut b) = (vec![0.0f32; slots * 3], vec![0.0f32; slots * 3]);
            assert!(skin_positions(&matrices, &groups, &joints, &weights, d, &mut a));
            let (mut v, mut k) = (0, 0);
            for (g, &n) in groups.iter().enumerate() {
                group_scalar(&ctx, g + 1, v, k, n as usize, &mut b);
                v += n as usize;
                k += n as usize * (g + 1);
            }
            for (x, y) in a.iter().zip(&b) {
                assert!((x - y).abs() < 1e-5, "{} vs {}", x, y);
            }
        }
    }

    fn identity_at(t: [f32; 3]) -> [f32; 16] {
        let mut m = [0.0f32; 16];
        m[0] = 1.0;
        m[5] = 1.0;
        m[10] = 1.0;
        m[3] = t[0];
        m[7] = t[1];
        m[11] = t[2];
        m
    }

    #[test]
    fn identity_joint_places_a_full_weight_at_its_offset_plus_translation() {
        let m = identity_at([10.0, 20.0, 30.0]);
        let mut out = [0.0f32; 3];
        assert!(skin_positions(&m, &[1], &[0], &[1.0, 2.0, 3.0, 1.0], &[], &mut out));
        assert_eq!(out, [11.0, 22.0, 33.0]);
    }

    #[test]
    fn groups_are_walked_in_order_and_scattered_to_file_slots() {
        let mut m = [0.0f32; 32];
        m[..16].copy_from_slice(&identity_at([2.0, 0.0, 0.0]));
        m[16..].copy_from_slice(&identity_at([0.0, 0.0, 0.0]));
        // One 1-weight vertex (file slot 1), one 2-weight vertex (file slot 0).
        let joints = [1, 0, 1];
        let w = [5.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.5];
        let mut out = [0.0f32; 6];
        assert!(skin_positions(&m, &[1, 1], &joints, &w, &[1, 0], &mut out));
        assert_eq!(out, [1.0, 0.0, 0.0, 5.0, 0.0, 0.0]);
        assert!(skin_positions(&m, &[1, 1], &joints, &w, &[], &mut out));
        assert_eq!(out, [5.0, 0.0, 0.0, 1.0, 0.0, 0.0]);
        let mut n = [0.0f32; 3];
        assert!(skin_normals(&m, &[0, 1], &[0, 1], &[0.0, 0.0, 0.5, 0.0, 0.0, 0.0, 0.5, 0.0], &[], &mut n));
        assert_eq!(n, [0.0, 0.0, 1.0]);
    }

    #[test]
    fn more_than_six_weights_use_the_general_loop() {
        let m = identity_at([0.0, 0.0, 0.0]);
        let mut groups = [0u32; 8];
        groups[7] = 1; // one vertex with 8 weights of 1/8 at x = 8
        let w: Vec<f32> = (0..8).flat_map(|_| [1.0, 0.0, 0.0, 0.125]).collect();
        let mut out = [0.0f32; 3];
        assert!(skin_positions(&m, &groups, &[0; 8], &w, &[], &mut out));
        assert_eq!(out, [8.0, 0.0, 0.0]);
    }

    #[test]
    fn group_totals_that_overflow_are_refused() {
        assert_eq!(group_totals(&[3, 2]), Some((5, 7)));
        assert_eq!(group_totals(&[u32::MAX; 3]).map(|_| ()), if usize::BITS > 32 { Some(()) } else { None });
        // Sizes whose sums wrap a 32-bit usize to 0 (the wasm32 case) must not pass as an empty stream.
        let huge = [1u32 << 31, 0, 1 << 31];
        if usize::BITS == 32 {
            assert_eq!(group_totals(&huge), None);
        }
        let mut out = [0.0f32; 3];
        assert!(!skin_positions(&[0.0; 16], &huge, &[], &[], &[], &mut out));
    }

    #[test]
    fn bad_shapes_write_nothing_and_bad_indices_stay_inside() {
        let m = identity_at([1.0, 1.0, 1.0]);
        let mut out = [7.0f32; 3];
        assert!(!skin_positions(&m, &[2], &[0], &[0.0; 8], &[], &mut out)); // joints too short
        assert_eq!(out, [7.0; 3]);
        // Joint 99 and destination 42 are never followed out of the buffers: refused where indices are checked
        // at entry (nothing written), clamped elsewhere.
        let ok = skin_positions(&m, &[1], &[99], &[0.0, 0.0, 0.0, 1.0], &[42], &mut out);
        assert_eq!((ok, out), if INDICES_CHECKED_AT_ENTRY { (false, [7.0; 3]) } else { (true, [1.0; 3]) });
        // Indices past the stream's weights and vertices are not looked at; an empty stream needs no joints.
        assert!(skin_positions(&m, &[1], &[0, 99], &[0.0, 0.0, 0.0, 1.0], &[0, 42], &mut out));
        assert_eq!(out, [1.0, 1.0, 1.0]);
        assert!(skin_positions(&[], &[], &[], &[], &[], &mut out));
    }

    #[test]
    fn whole_quads_are_tried_only_where_dest_rises_inside_every_group() {
        assert_eq!(scan_dest(&[], &[]), (0, false));
        assert_eq!(scan_dest(&[3, 2], &[0, 2, 5, 1, 4]), (5, true)); // the second group starts lower: allowed
        assert_eq!(scan_dest(&[3, 2], &[0, 5, 2, 1, 4]), (5, false)); // a descent inside the first group
        assert_eq!(scan_dest(&[2, 0, 3], &[3, 4, 0, 1, 1]), (4, false)); // a repeat inside the last group
        assert_eq!(scan_dest(&[2, 0, 3], &[3, 4, 0, 1, 2]), (4, true)); // empty groups in between
    }

    /// A stream of `vertices` file vertices with 1..=7 weights each (pseudo-random: 1–3 in the first third of the file,
    /// 5–7 in the last, so some groups end blocks before others begin), grouped as `buildSkinStream` groups it:
    /// (group sizes, joints, weights, dest rising inside every group).
    fn random_stream(vertices: usize, joint_count: u32, seed: u32) -> (Vec<u32>, Vec<u32>, Vec<f32>, Vec<u32>) {
        let mut s = seed;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        let counts: Vec<usize> = (0..vertices)
            .map(|v| match 3 * v / vertices {
                0 => 1 + (next() % 3) as usize,
                1 => 1 + (next() % 7) as usize,
                _ => 5 + (next() % 3) as usize,
            })
            .collect();
        let mut group_sizes = vec![0u32; 7];
        let (mut joints, mut weights, mut dest) = (vec![], vec![], vec![]);
        for c in 1..=7 {
            for (v, _) in counts.iter().enumerate().filter(|(_, &n)| n == c) {
                group_sizes[c - 1] += 1;
                dest.push(v as u32);
                for _ in 0..c {
                    joints.push(next() % joint_count);
                    weights.extend((0..4).map(|_| (next() % 2001) as f32 / 1000.0 - 1.0));
                }
            }
        }
        (group_sizes, joints, weights, dest)
    }

    #[test]
    fn poses_skinned_block_by_block_equal_each_pose_skinned_whole() {
        let (vertices, joint_count, poses) = (3 * POSE_BLOCK + 777, 9usize, 3usize);
        let (groups, joints, weights, dest) = random_stream(vertices, joint_count as u32, 99);
        let mut seed = 7u32;
        let matrices: Vec<f32> = (0..poses * joint_count * MATRIX_STRIDE)
            .map(|_| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (seed >> 8) as f32 / (1 << 24) as f32 - 0.5
            })
            .collect();
        let per_pose = joint_count * MATRIX_STRIDE;
        // File order (dest rises in every group: walked by file-slot blocks), grouped order (stream blocks), and a
        // dest that does not rise (reversed: skinned pose after pose).
        let reversed: Vec<u32> = dest.iter().map(|&s| vertices as u32 - 1 - s).collect();
        for d in [&dest[..], &[][..], &reversed[..]] {
            let mut blocked = vec![f32::NAN; poses * vertices * 3];
            assert!(skin_positions_poses(&matrices, joint_count, poses, &groups, &joints, &weights, d, &mut blocked));
            for p in 0..poses {
                let mut whole = vec![f32::NAN; vertices * 3];
                assert!(skin_positions(&matrices[p * per_pose..(p + 1) * per_pose], &groups, &joints, &weights, d, &mut whole));
                let got = &blocked[p * vertices * 3..(p + 1) * vertices * 3];
                for (i, (x, y)) in got.iter().zip(&whole).enumerate() {
                    assert_eq!(x.to_bits(), y.to_bits(), "pose {} float {} (dest len {})", p, i, d.len());
                }
            }
        }
    }

    #[test]
    fn poses_with_bad_shapes_write_nothing() {
        let vertices = POSE_BLOCK + 5;
        let (groups, joints, weights, dest) = random_stream(vertices, 4, 5);
        let m = vec![0.5f32; 2 * 4 * MATRIX_STRIDE];
        let mut out = vec![7.0f32; 2 * vertices * 3];
        // Matrices for one pose, not two; an output one float short; weights short; a joint count overflowing.
        assert!(!skin_positions_poses(&m[..4 * MATRIX_STRIDE], 4, 2, &groups, &joints, &weights, &dest, &mut out));
        assert!(!skin_positions_poses(&m, 4, 2, &groups, &joints, &weights, &dest, &mut out[1..]));
        assert!(!skin_positions_poses(&m, 4, 2, &groups, &joints, &weights[1..], &dest, &mut out));
        assert!(!skin_positions_poses(&m, usize::MAX, 2, &groups, &joints, &weights, &dest, &mut out));
        assert!(out.iter().all(|&x| x == 7.0));
    }

    #[test]
    fn the_entry_check_finds_any_index_out_of_range() {
        assert!(below(&[], 0));
        assert!(below(&[0, 4, 2], 5));
        assert!(!below(&[0, 5, 2], 5));
        assert!(!below(&[u32::MAX], 5));
        assert!(!below(&[0], 0));
    }
}

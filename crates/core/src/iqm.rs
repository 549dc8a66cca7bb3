//! IQM skeletal composition, in ioquake3's arithmetic (`code/renderergl2/tr_model_iqm.c`): the bind matrices
//! R_LoadIQM builds once (`JointToMatrix`, `Matrix34Invert`, chained parent first), the channel decoding it does per
//! frame (offset + stored uint16 × scale where the mask bit is set, then `QuatNormalize2`), and `ComputePoseMats`:
//! two decoded frames interpolated (translate and scale lerped with `backlerp`/`lerp`, rotations by `QuatSlerp`),
//! each joint's local matrix taken through its parent's bind matrix and its own inverse bind, and multiplied by its
//! parent's pose matrix. The result is the skinning matrix of each joint (identity in the bind pose), written
//! column-major (`LBS_MATRIX_STRIDE`) for `lbs::lbs_skin`. Matrices internally are ioquake3's row-major 3×4.
//!
//! No allocation; every index is checked or clamped: a parent must be below its joint (`validate::parents`), and an
//! unvalidated one only reads a matrix already written (never outside the slices).

use crate::layout::{IQM_BIND_STRIDE, IQM_CHANNELS, LBS_MATRIX_STRIDE};

/// ioquake3 `Matrix34Multiply`: a · b for 3×4 row-major matrices with an implied last row 0 0 0 1.
#[inline(never)] // one copy in the module (its callers run once per joint, not per vertex)
pub fn matrix34_multiply(a: &[f32; 12], b: &[f32; 12]) -> [f32; 12] {
    [
        a[0] * b[0] + a[1] * b[4] + a[2] * b[8],
        a[0] * b[1] + a[1] * b[5] + a[2] * b[9],
        a[0] * b[2] + a[1] * b[6] + a[2] * b[10],
        a[0] * b[3] + a[1] * b[7] + a[2] * b[11] + a[3],
        a[4] * b[0] + a[5] * b[4] + a[6] * b[8],
        a[4] * b[1] + a[5] * b[5] + a[6] * b[9],
        a[4] * b[2] + a[5] * b[6] + a[6] * b[10],
        a[4] * b[3] + a[5] * b[7] + a[6] * b[11] + a[7],
        a[8] * b[0] + a[9] * b[4] + a[10] * b[8],
        a[8] * b[1] + a[9] * b[5] + a[10] * b[9],
        a[8] * b[2] + a[9] * b[6] + a[10] * b[10],
        a[8] * b[3] + a[9] * b[7] + a[10] * b[11] + a[11],
    ]
}

/// ioquake3 `JointToMatrix`: rotation rows scaled by scale (row r by scale[r]), translation in the last column.
#[inline(never)] // one copy in the module (its callers run once per joint, not per vertex)
pub fn joint_to_matrix(q: &[f32; 4], s: &[f32; 3], t: &[f32; 3]) -> [f32; 12] {
    let xx = 2.0 * q[0] * q[0];
    let yy = 2.0 * q[1] * q[1];
    let zz = 2.0 * q[2] * q[2];
    let xy = 2.0 * q[0] * q[1];
    let xz = 2.0 * q[0] * q[2];
    let yz = 2.0 * q[1] * q[2];
    let wx = 2.0 * q[3] * q[0];
    let wy = 2.0 * q[3] * q[1];
    let wz = 2.0 * q[3] * q[2];
    [
        s[0] * (1.0 - (yy + zz)),
        s[0] * (xy - wz),
        s[0] * (xz + wy),
        t[0],
        s[1] * (xy + wz),
        s[1] * (1.0 - (xx + zz)),
        s[1] * (yz - wx),
        t[1],
        s[2] * (xz - wy),
        s[2] * (yz + wx),
        s[2] * (1.0 - (xx + yy)),
        t[2],
    ]
}

/// ioquake3 `Matrix34Invert`: transpose the 3×3, divide each row by its squared length, translation −R⁻¹·t.
#[inline(never)] // one copy in the module (its callers run once per joint, not per vertex)
pub fn matrix34_invert(m: &[f32; 12]) -> [f32; 12] {
    let mut o = [0.0f32; 12];
    o[0] = m[0];
    o[1] = m[4];
    o[2] = m[8];
    o[4] = m[1];
    o[5] = m[5];
    o[6] = m[9];
    o[8] = m[2];
    o[9] = m[6];
    o[10] = m[10];
    for r in 0..3 {
        let v = r * 4;
        let inv = 1.0 / (o[v] * o[v] + o[v + 1] * o[v + 1] + o[v + 2] * o[v + 2]);
        o[v] *= inv;
        o[v + 1] *= inv;
        o[v + 2] *= inv;
    }
    let t = [m[3], m[7], m[11]];
    for r in 0..3 {
        let v = r * 4;
        o[v + 3] = -(o[v] * t[0] + o[v + 1] * t[1] + o[v + 2] * t[2]);
    }
    o
}

/// ioquake3 `QuatNormalize2`: q / |q| (rsqrt form), or (0, 0, 0, −1) for a zero quaternion.
#[inline(never)] // one copy in the module (its callers run once per joint, not per vertex)
pub fn quat_normalize2(q: &[f32; 4]) -> [f32; 4] {
    let len = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
    if len != 0.0 {
        let il = 1.0 / len.sqrt();
        [q[0] * il, q[1] * il, q[2] * il, q[3] * il]
    } else {
        [0.0, 0.0, 0.0, -1.0]
    }
}

/// ioquake3 `QuatSlerp(from, to, fraction)`: shortest path (negate `to` on a negative dot), plain lerp when
/// cos ≥ 0.999999.
#[inline(never)] // one copy in the module (its callers run once per joint, not per vertex)
pub fn quat_slerp(from: &[f32; 4], to_in: &[f32; 4], fraction: f32) -> [f32; 4] {
    let mut cos = from[0] * to_in[0] + from[1] * to_in[1] + from[2] * to_in[2] + from[3] * to_in[3];
    let to = if cos < 0.0 {
        cos = -cos;
        [-to_in[0], -to_in[1], -to_in[2], -to_in[3]]
    } else {
        *to_in
    };
    let (back, lerp) = if cos < 0.999999 {
        let angle = cos.acos();
        let sin = angle.sin();
        (((1.0 - fraction) * angle).sin() / sin, (fraction * angle).sin() / sin)
    } else {
        (1.0 - fraction, fraction)
    };
    [from[0] * back + to[0] * lerp, from[1] * back + to[1] * lerp, from[2] * back + to[2] * lerp, from[3] * back + to[3] * lerp]
}

#[inline(always)]
fn read12(s: &[f32], at: usize) -> [f32; 12] {
    let mut o = [0.0f32; 12];
    o.copy_from_slice(&s[at..at + 12]);
    o
}

/// Bind and inverse bind matrices of `parents.len()` joints (R_LoadIQM): each joint's rotation normalised, its
/// local matrix and inverse, chained with its parent's (bind = parent · local, inverse = local⁻¹ · parent⁻¹).
/// False (nothing written) when the shapes disagree.
pub fn iqm_bind_matrices(parents: &[i32], translate: &[f32], rotate: &[f32], scale: &[f32], bind: &mut [f32], inv_bind: &mut [f32]) -> bool {
    let n = parents.len();
    if translate.len() < n * 3 || rotate.len() < n * 4 || scale.len() < n * 3 || bind.len() < n * IQM_BIND_STRIDE || inv_bind.len() < n * IQM_BIND_STRIDE {
        return false;
    }
    for i in 0..n {
        let q = quat_normalize2(&[rotate[i * 4], rotate[i * 4 + 1], rotate[i * 4 + 2], rotate[i * 4 + 3]]);
        let base = joint_to_matrix(&q, &[scale[i * 3], scale[i * 3 + 1], scale[i * 3 + 2]], &[translate[i * 3], translate[i * 3 + 1], translate[i * 3 + 2]]);
        let inv = matrix34_invert(&base);
        let p = parents[i];
        let (b, ib) = if p >= 0 && (p as usize) < i {
            let pb = read12(bind, p as usize * IQM_BIND_STRIDE);
            let pib = read12(inv_bind, p as usize * IQM_BIND_STRIDE);
            (matrix34_multiply(&pb, &base), matrix34_multiply(&inv, &pib))
        } else {
            (base, inv)
        };
        bind[i * IQM_BIND_STRIDE..(i + 1) * IQM_BIND_STRIDE].copy_from_slice(&b);
        inv_bind[i * IQM_BIND_STRIDE..(i + 1) * IQM_BIND_STRIDE].copy_from_slice(&ib);
    }
    true
}

/// Total channels the masks take per frame (bits 0…9 of each).
pub fn iqm_channels_used(masks: &[u32]) -> usize {
    masks.iter().map(|m| (m & 0x3ff).count_ones() as usize).sum()
}

/// One frame's channels → per pose `tx ty tz qx qy qz qw sx sy sz` (the rotation through `QuatNormalize2`), as
/// R_LoadIQM computes its pose transforms. `frame` holds at least the channels the masks take (checked by the caller).
pub fn iqm_decode_frame(masks: &[u32], offsets: &[f32], scales: &[f32], frame: &[u16], out: &mut [f32]) {
    let mut k = 0usize;
    for (p, &mask) in masks.iter().enumerate() {
        let o = p * IQM_CHANNELS;
        let mut ch = [0.0f32; IQM_CHANNELS];
        for c in 0..IQM_CHANNELS {
            let mut v = offsets[o + c];
            if mask & (1 << c) != 0 {
                v += frame[k] as f32 * scales[o + c];
                k += 1;
            }
            ch[c] = v;
        }
        let q = quat_normalize2(&[ch[3], ch[4], ch[5], ch[6]]);
        out[o..o + 3].copy_from_slice(&ch[0..3]);
        out[o + 3..o + 7].copy_from_slice(&q);
        out[o + 7..o + 10].copy_from_slice(&ch[7..10]);
    }
}

/// The inputs of `iqm_pose_matrices`: the poses' channels and frames, the skeleton's parents and bind matrices.
pub struct IqmPoseInput<'a> {
    pub parents: &'a [i32],
    pub masks: &'a [u32],
    pub offsets: &'a [f32],
    pub scales: &'a [f32],
    pub frames: &'a [u16],
    pub frame_count: usize,
    pub frame_channels: usize,
    pub bind: &'a [f32],
    pub inv_bind: &'a [f32],
}

/// `ComputePoseMats(frame = b, oldframe = a, backlerp = 1 − t)`: skinning matrices of every joint, column-major
/// into `out` (`LBS_MATRIX_STRIDE` each). `scratch` holds two decoded frames (2 · poses · 10 floats). False (nothing
/// written) when a frame index is past the frames or a shape disagrees.
pub fn iqm_pose_matrices(inp: &IqmPoseInput, frame_a: usize, frame_b: usize, t: f32, scratch: &mut [f32], out: &mut [f32]) -> bool {
    let n = inp.parents.len();
    let fc = inp.frame_channels;
    let frame_count = inp.frame_count;
    if frame_count.checked_mul(fc).map_or(true, |len| inp.frames.len() < len) {
        return false;
    }
    if inp.masks.len() != n || inp.offsets.len() < n * IQM_CHANNELS || inp.scales.len() < n * IQM_CHANNELS || inp.bind.len() < n * IQM_BIND_STRIDE || inp.inv_bind.len() < n * IQM_BIND_STRIDE {
        return false;
    }
    if scratch.len() < 2 * n * IQM_CHANNELS || out.len() < n * LBS_MATRIX_STRIDE || iqm_channels_used(inp.masks) > fc || frame_a >= frame_count || frame_b >= frame_count {
        return false;
    }
    let (a, b) = scratch.split_at_mut(n * IQM_CHANNELS);
    iqm_decode_frame(inp.masks, inp.offsets, inp.scales, &inp.frames[frame_a * fc..], a);
    let same = frame_a == frame_b;
    if !same {
        iqm_decode_frame(inp.masks, inp.offsets, inp.scales, &inp.frames[frame_b * fc..], b);
    }
    let lerp = t;
    let backlerp = 1.0 - t;
    for i in 0..n {
        let o = i * IQM_CHANNELS;
        let (tr, q, s) = if same {
            ([a[o], a[o + 1], a[o + 2]], [a[o + 3], a[o + 4], a[o + 5], a[o + 6]], [a[o + 7], a[o + 8], a[o + 9]])
        } else {
            let l = |c: usize| a[o + c] * backlerp + b[o + c] * lerp;
            let q = quat_slerp(&[a[o + 3], a[o + 4], a[o + 5], a[o + 6]], &[b[o + 3], b[o + 4], b[o + 5], b[o + 6]], lerp);
            ([l(0), l(1), l(2)], q, [l(7), l(8), l(9)])
        };
        let mat1 = joint_to_matrix(&q, &s, &tr);
        let inv = read12(inp.inv_bind, i * IQM_BIND_STRIDE);
        let p = inp.parents[i];
        let pose = if p >= 0 && (p as usize) < i {
            let pb = read12(inp.bind, p as usize * IQM_BIND_STRIDE);
            let mat2 = matrix34_multiply(&pb, &mat1);
            let m = matrix34_multiply(&mat2, &inv);
            matrix34_multiply(&read_columns(out, p as usize), &m)
        } else {
            matrix34_multiply(&mat1, &inv)
        };
        write_columns(out, i, &pose);
    }
    true
}

/// Joint `j`'s matrix in `out` (column-major) as row-major 3×4.
#[inline(always)]
fn read_columns(out: &[f32], j: usize) -> [f32; 12] {
    let m = &out[j * LBS_MATRIX_STRIDE..(j + 1) * LBS_MATRIX_STRIDE];
    [m[0], m[4], m[8], m[12], m[1], m[5], m[9], m[13], m[2], m[6], m[10], m[14]]
}

/// A row-major 3×4 into `out` as joint `j`'s column-major 4×4 (last row 0 0 0 1).
#[inline(always)]
fn write_columns(out: &mut [f32], j: usize, r: &[f32; 12]) {
    let m = &mut out[j * LBS_MATRIX_STRIDE..(j + 1) * LBS_MATRIX_STRIDE];
    m.copy_from_slice(&[r[0], r[4], r[8], 0.0, r[1], r[5], r[9], 0.0, r[2], r[6], r[10], 0.0, r[3], r[7], r[11], 1.0]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bind_matrix_times_its_inverse_is_the_identity() {
        let parents = [-1, 0];
        let t = [1.0, 2.0, 3.0, 0.5, -1.0, 0.25];
        let r = [0.1, 0.2, 0.3, 0.9, -0.3, 0.1, 0.2, 0.8];
        let s = [1.0, 1.0, 1.0, 2.0, 2.0, 2.0];
        let (mut b, mut ib) = ([0.0; 24], [0.0; 24]);
        assert!(iqm_bind_matrices(&parents, &t, &r, &s, &mut b, &mut ib));
        for j in 0..2 {
            let m = matrix34_multiply(&read12(&b, j * 12), &read12(&ib, j * 12));
            let id = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
            for k in 0..12 {
                assert!((m[k] - id[k]).abs() < 1e-5, "joint {j} element {k}: {}", m[k]);
            }
        }
    }

    #[test]
    fn the_bind_pose_as_a_frame_gives_identity_skinning_matrices() {
        // One frame whose channels (all constant: masks 0) are the joints' own local transforms.
        let parents = [-1, 0];
        let t = [1.0f32, 2.0, 3.0, 0.5, -1.0, 0.25];
        let r = [0.0f32, 0.0, 0.38268343, 0.9238795, 0.0, 0.6, 0.0, 0.8];
        let s = [1.0f32; 6];
        let (mut b, mut ib) = ([0.0; 24], [0.0; 24]);
        assert!(iqm_bind_matrices(&parents, &t, &r, &s, &mut b, &mut ib));
        let mut offsets = [0.0f32; 20];
        for j in 0..2 {
            offsets[j * 10..j * 10 + 3].copy_from_slice(&t[j * 3..j * 3 + 3]);
            offsets[j * 10 + 3..j * 10 + 7].copy_from_slice(&r[j * 4..j * 4 + 4]);
            offsets[j * 10 + 7..j * 10 + 10].copy_from_slice(&s[j * 3..j * 3 + 3]);
        }
        let inp = IqmPoseInput { parents: &parents, masks: &[0, 0], offsets: &offsets, scales: &[0.0; 20], frames: &[], frame_count: 1, frame_channels: 0, bind: &b, inv_bind: &ib };
        let (mut scratch, mut out) = ([0.0; 40], [0.0; 32]);
        assert!(iqm_pose_matrices(&inp, 0, 0, 0.0, &mut scratch, &mut out));
        for j in 0..2 {
            for c in 0..4 {
                for r in 0..4 {
                    let want = if c == r { 1.0 } else { 0.0 };
                    assert!((out[j * 16 + c * 4 + r] - want).abs() < 1e-5);
                }
            }
        }
        assert!(!iqm_pose_matrices(&inp, 0, 0, 0.0, &mut [0.0; 39], &mut out));
    }
}

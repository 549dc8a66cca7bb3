//! Skeleton kernels: md5anim frame composition, interpolation, local → object space, matrices.
//! Inputs are validated by `validate.rs` before these run; every index is still a checked slice
//! index, so a bad one can only stop the kernel, never reach outside its buffers.

use crate::layout::{BASEFRAME_STRIDE, MATRIX_STRIDE, POSE_STRIDE};
use crate::quat;

/// md5anim flag bits, in the order components are read from `start_index`.
pub const FLAG_TX: u8 = 1;
pub const FLAG_TY: u8 = 2;
pub const FLAG_TZ: u8 = 4;
pub const FLAG_QX: u8 = 8;
pub const FLAG_QY: u8 = 16;
pub const FLAG_QZ: u8 = 32;

#[inline]
fn read_pose(p: &[f32], j: usize) -> ([f32; 3], quat::Quat) {
    let s = &p[j * POSE_STRIDE..j * POSE_STRIDE + POSE_STRIDE];
    ([s[0], s[1], s[2]], [s[4], s[5], s[6], s[7]])
}

#[inline]
fn write_pose(p: &mut [f32], j: usize, t: [f32; 3], q: quat::Quat) {
    let s = &mut p[j * POSE_STRIDE..j * POSE_STRIDE + POSE_STRIDE];
    s[0] = t[0];
    s[1] = t[1];
    s[2] = t[2];
    s[3] = 0.0;
    s[4] = q[0];
    s[5] = q[1];
    s[6] = q[2];
    s[7] = q[3];
}

/// One md5anim frame → local pose. Flagged components come from `frame` starting at
/// `start_index[j]` (tx ty tz qx qy qz order), the rest from `baseframe`; w is recovered after.
pub fn compose_frame(flags: &[u8], start_index: &[u32], baseframe: &[f32], frame: &[f32], out_local: &mut [f32]) {
    for j in 0..flags.len() {
        let b = &baseframe[j * BASEFRAME_STRIDE..j * BASEFRAME_STRIDE + BASEFRAME_STRIDE];
        let mut c = [b[0], b[1], b[2], b[3], b[4], b[5]];
        let f = flags[j];
        let mut k = start_index[j] as usize;
        for (bit, slot) in c.iter_mut().enumerate() {
            if f & (1 << bit) != 0 {
                *slot = frame[k];
                k += 1;
            }
        }
        let w = quat::recover_w(c[3], c[4], c[5]);
        write_pose(out_local, j, [c[0], c[1], c[2]], [c[3], c[4], c[5], w]);
    }
}

/// Blend two local poses as the engine does: lerp translations, shortest-path slerp rotations.
pub fn interpolate_local(a: &[f32], b: &[f32], t: f32, out_local: &mut [f32]) {
    let joints = out_local.len() / POSE_STRIDE;
    for j in 0..joints {
        let (ta, qa) = read_pose(a, j);
        let (tb, qb) = read_pose(b, j);
        let tr = [ta[0] + (tb[0] - ta[0]) * t, ta[1] + (tb[1] - ta[1]) * t, ta[2] + (tb[2] - ta[2]) * t];
        write_pose(out_local, j, tr, quat::slerp(qa, qb, t));
    }
}

/// Local → object space, parents first (`parents[j] < j`, or negative for a root).
/// Orientation = parent · local (renormalised); position = parent position + parent rotates local position.
pub fn local_to_object(parents: &[i32], local: &[f32], out_object: &mut [f32]) {
    for j in 0..parents.len() {
        let (t, q) = read_pose(local, j);
        let p = parents[j];
        if p < 0 {
            write_pose(out_object, j, t, q);
        } else {
            let (pt, pq) = read_pose(out_object, p as usize);
            let r = quat::rotate(pq, t);
            let tq = quat::normalize(quat::mul(pq, q));
            write_pose(out_object, j, [pt[0] + r[0], pt[1] + r[1], pt[2] + r[2]], tq);
        }
    }
}

/// Object poses → 3×4 matrices, row-major, padded to 16 floats: rows `r0 r1 r2` each `m·0 m·1 m·2 t·`, then
/// `0 0 0 0`. Row form lets skinning dot each row with a pre-scaled weight `x·b y·b z·b b` (one SIMD multiply
/// per row, no broadcasts).
pub fn pose_matrices(object: &[f32], out_matrices: &mut [f32]) {
    let joints = object.len() / POSE_STRIDE;
    for j in 0..joints {
        let (t, q) = read_pose(object, j);
        let c = quat::to_columns(q);
        let m = &mut out_matrices[j * MATRIX_STRIDE..j * MATRIX_STRIDE + MATRIX_STRIDE];
        for row in 0..3 {
            m[row * 4] = c[0][row];
            m[row * 4 + 1] = c[1][row];
            m[row * 4 + 2] = c[2][row];
            m[row * 4 + 3] = t[row];
        }
        m[12] = 0.0;
        m[13] = 0.0;
        m[14] = 0.0;
        m[15] = 0.0;
    }
}

/// Joint matrices with each joint's 3×3 part times `scales[j]` into `out` (translations copied): q2pro's per-joint,
/// per-frame scale of the weights' offsets (`calc_skel_vert`: `joint.pos + joint.scale · R · weight.pos`), for the
/// positions only (its normals take the unscaled axes). A scale of 0 collapses the joint's weights onto its origin;
/// its children are not scaled (the scale is not composed down the hierarchy).
pub fn scale_matrices(matrices: &[f32], scales: &[f32], out: &mut [f32]) {
    let joints = scales.len();
    for j in 0..joints {
        let m = &matrices[j * MATRIX_STRIDE..j * MATRIX_STRIDE + MATRIX_STRIDE];
        let o = &mut out[j * MATRIX_STRIDE..j * MATRIX_STRIDE + MATRIX_STRIDE];
        let s = scales[j];
        for row in 0..3 {
            o[row * 4] = m[row * 4] * s;
            o[row * 4 + 1] = m[row * 4 + 1] * s;
            o[row * 4 + 2] = m[row * 4 + 2] * s;
            o[row * 4 + 3] = m[row * 4 + 3];
        }
        o[12] = 0.0;
        o[13] = 0.0;
        o[14] = 0.0;
        o[15] = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_matrices_scales_the_axes_and_keeps_the_translation() {
        let mut m = [0.0f32; 32];
        for (i, v) in m.iter_mut().enumerate() {
            *v = i as f32 + 1.0;
        }
        let mut out = [9.0f32; 32];
        scale_matrices(&m, &[0.0, 2.0], &mut out);
        assert_eq!(&out[0..4], &[0.0, 0.0, 0.0, 4.0]);
        assert_eq!(&out[12..16], &[0.0, 0.0, 0.0, 0.0]);
        assert_eq!(&out[16..20], &[34.0, 36.0, 38.0, 20.0]);
    }

    #[test]
    fn compose_takes_flagged_components_from_the_frame_in_order() {
        // Two joints; joint 1 animates ty and qz only.
        let flags = [0u8, FLAG_TY | FLAG_QZ];
        let start = [0u32, 0];
        let base = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0];
        let frame = [20.0, 0.6];
        let mut out = [0.0f32; 16];
        compose_frame(&flags, &start, &base, &frame, &mut out);
        assert_eq!(&out[8..11], &[1.0, 20.0, 3.0]);
        assert_eq!(&out[12..15], &[0.0, 0.0, 0.6]);
        assert!((out[15] + 0.8).abs() < 1e-6, "w recovered negative: {}", out[15]);
        assert_eq!(out[7], -1.0);
    }

    #[test]
    fn child_position_is_rotated_by_its_parent() {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        // Root at (1,0,0) rotated 90° about z; child 2 units along local x.
        let local = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, h, h, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        let mut object = [0.0f32; 16];
        local_to_object(&[-1, 0], &local, &mut object);
        assert!((object[8] - 1.0).abs() < 1e-6 && (object[9] - 2.0).abs() < 1e-6);
        let mut m = [0.0f32; 32];
        pose_matrices(&object, &mut m);
        // Child inherits the rotation: its x axis (first column) is world +y.
        assert!((m[16] - 0.0).abs() < 1e-6 && (m[20] - 1.0).abs() < 1e-6 && m[24].abs() < 1e-6);
        assert_eq!([m[19], m[23], m[27]], [object[8], object[9], object[10]]);
    }

    #[test]
    fn interpolation_lerps_translation_and_ends_exactly() {
        let a = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        let b = [2.0, 4.0, -6.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        let mut out = [0.0f32; 8];
        interpolate_local(&a, &b, 0.25, &mut out);
        assert_eq!(&out[0..3], &[0.5, 1.0, -1.5]);
        interpolate_local(&a, &b, 1.0, &mut out);
        assert_eq!(out, b);
    }
}

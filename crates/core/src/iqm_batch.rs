//! Many IQM frames in one call: for each requested frame, `iqm::iqm_pose_matrices` (the frame alone, as
//! `IqmPoser.poseFrame` asks it) then `lbs::lbs_skin` of the positions, writing the frames' positions one after
//! another — the IQM counterpart of `batch::skin_frames` (a bake, or a crowd of instances on different frames, in
//! one boundary crossing; the bake pool's workers each run it on their own run of frames). Positions only, as the
//! MD5 bake: a bake's consumers (vertex animation textures, crowds) read positions.

use crate::iqm::{iqm_pose_matrices, IqmPoseInput};
use crate::layout::LBS_MATRIX_STRIDE;
use crate::lbs::{lbs_skin, LbsInput, LbsOutput};

/// The bind-pose vertices a bake skins (`LbsInput` without normals and tangents: a bake writes positions).
pub struct IqmBakeSkin<'a> {
    pub positions: &'a [f32],
    /// 4 joint indices per vertex.
    pub indices: &'a [u8],
    /// 4 byte weights per vertex (÷ 255), or empty when `weights_f32` is given.
    pub weights_u8: &'a [u8],
    pub weights_f32: &'a [f32],
}

/// Pose and skin `frame_indices` into `out` (frame i's positions at `out[i · V · 3 ..]`, V = positions / 3).
/// `scratch` is `iqm_pose_matrices`' (2 · poses · 10 floats), `matrices` one pose's (joints · 16). Returns false,
/// writing nothing into `out`, when a frame index is past the frames or a shape disagrees.
pub fn iqm_skin_frames(pose: &IqmPoseInput, skin: &IqmBakeSkin, frame_indices: &[u32], scratch: &mut [f32], matrices: &mut [f32], out: &mut [f32]) -> bool {
    let vertices = skin.positions.len() / 3;
    let span = vertices * 3;
    let joints = pose.parents.len();
    if matrices.len() < joints.max(1) * LBS_MATRIX_STRIDE
        || frame_indices.len().checked_mul(span).map_or(true, |n| out.len() < n)
        || frame_indices.iter().any(|&f| f as usize >= pose.frame_count)
    {
        return false;
    }
    for (i, &f) in frame_indices.iter().enumerate() {
        if !iqm_pose_matrices(pose, f as usize, f as usize, 0.0, scratch, matrices) {
            return false; // only the first frame can fail: the shapes are the same for every frame
        }
        let inp = LbsInput { matrices, positions: skin.positions, normals: &[], tangents: &[], indices: skin.indices, weights_u8: skin.weights_u8, weights_f32: skin.weights_f32 };
        let mut o = LbsOutput { positions: &mut out[i * span..(i + 1) * span], normals: &mut [], tangents: &mut [] };
        if !lbs_skin(&inp, &mut o) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::iqm::iqm_bind_matrices;

    #[test]
    fn a_batch_equals_frames_posed_and_skinned_one_by_one() {
        // Two joints (the second under the first), three frames moving and turning them; three vertices weighted
        // across both.
        let parents = [-1, 0];
        let (t, r, s) = ([0.0f32, 0.0, 0.0, 0.0, 1.0, 0.0], [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0], [1.0f32; 6]);
        let (mut bind, mut inv_bind) = ([0.0f32; 24], [0.0f32; 24]);
        assert!(iqm_bind_matrices(&parents, &t, &r, &s, &mut bind, &mut inv_bind));
        // Masks: joint 0 animates tx and qz; joint 1 animates ty.
        let masks = [0b1001u32, 0b10];
        let mut offsets = [0.0f32; 20];
        offsets[6] = 1.0; // qw of joint 0
        offsets[16] = 1.0; // qw of joint 1
        offsets[7..10].copy_from_slice(&[1.0; 3]);
        offsets[17..20].copy_from_slice(&[1.0; 3]);
        let mut scales = [0.0f32; 20];
        scales[0] = 0.01;
        scales[5] = 0.0001;
        scales[11] = 0.02;
        let frames: [u16; 9] = [0, 0, 50, 100, 3000, 60, 250, 7000, 90];
        let pose = IqmPoseInput { parents: &parents, masks: &masks, offsets: &offsets, scales: &scales, frames: &frames, frame_count: 3, frame_channels: 3, bind: &bind, inv_bind: &inv_bind };
        let positions = [0.0f32, 2.0, 0.0, 1.0, 0.5, -1.0, 0.3, 1.5, 0.2];
        let indices = [0u8, 1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0];
        let weights = [128u8, 127, 0, 0, 255, 0, 0, 0, 200, 55, 0, 0];
        let skin = IqmBakeSkin { positions: &positions, indices: &indices, weights_u8: &weights, weights_f32: &[] };
        let (mut scratch, mut matrices) = ([0.0f32; 40], [0.0f32; 32]);
        let order = [2u32, 0, 1, 2];
        let mut out = [0.0f32; 36];
        assert!(iqm_skin_frames(&pose, &skin, &order, &mut scratch, &mut matrices, &mut out));
        for (i, &f) in order.iter().enumerate() {
            let mut m = [0.0f32; 32];
            assert!(iqm_pose_matrices(&pose, f as usize, f as usize, 0.0, &mut scratch, &mut m));
            let inp = LbsInput { matrices: &m, positions: &positions, normals: &[], tangents: &[], indices: &indices, weights_u8: &weights, weights_f32: &[] };
            let mut one = [0.0f32; 9];
            assert!(lbs_skin(&inp, &mut LbsOutput { positions: &mut one, normals: &mut [], tangents: &mut [] }));
            assert_eq!(&out[i * 9..(i + 1) * 9], &one[..], "frame {f}");
        }
        assert_ne!(&out[0..9], &out[9..18], "frames 2 and 0 differ");
        let before = out;
        assert!(!iqm_skin_frames(&pose, &skin, &[3], &mut scratch, &mut matrices, &mut out));
        assert!(!iqm_skin_frames(&pose, &skin, &[0; 5], &mut scratch, &mut matrices, &mut out));
        assert_eq!(out, before);
    }
}

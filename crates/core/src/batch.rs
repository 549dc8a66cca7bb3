//! Many frames in one call: for each requested frame, compose → object space → matrices → skin, writing the
//! frames' positions one after another. One boundary crossing from JS for a whole batch (baking, exports,
//! crowds of instances on different frames).

use crate::layout::{MATRIX_STRIDE, POSE_STRIDE};
use crate::{pose, skin};

/// An md5anim in kernel form (see `pose::compose_frame`).
pub struct Anim<'a> {
    pub parents: &'a [i32],
    pub flags: &'a [u8],
    pub start_index: &'a [u32],
    pub baseframe: &'a [f32],
    /// frame_count × component_count floats.
    pub frames: &'a [f32],
    pub component_count: usize,
}

/// A grouped skin stream (see `skin`).
pub struct Skin<'a> {
    pub group_sizes: &'a [u32],
    pub joints: &'a [u32],
    pub weights: &'a [f32],
    pub dest: &'a [u32],
}

/// Scratch the caller owns (no allocation here): local and object poses, joint matrices.
pub struct Scratch<'a> {
    pub local: &'a mut [f32],
    pub object: &'a mut [f32],
    pub matrices: &'a mut [f32],
}

/// Skin `frame_indices` into `out` (frame i at `out[i · V · 3 ..]`). Returns false, writing nothing, when a frame
/// index is past the anim or a buffer is too short.
///
/// `scratch.matrices` decides how many frames are skinned together: with room for P poses' matrices (P · joints ·
/// 16 floats), P frames are posed first and then skinned block by block (`skin::skin_positions_poses`), so the
/// stream is read from memory once per P frames; with room for one, frame after frame. The floats are the same
/// either way.
pub fn skin_frames(anim: &Anim, skin_stream: &Skin, frame_indices: &[u32], scratch: &mut Scratch, out: &mut [f32]) -> bool {
    let joints = anim.parents.len();
    let vertices = match skin::group_totals(skin_stream.group_sizes) {
        Some((v, _)) => v,
        None => return false,
    };
    let cc = anim.component_count;
    let frame_count = if cc == 0 { usize::MAX } else { anim.frames.len() / cc };
    let per_pose = joints * MATRIX_STRIDE;
    if scratch.local.len() < joints * POSE_STRIDE
        || scratch.object.len() < joints * POSE_STRIDE
        || scratch.matrices.len() < per_pose
        || frame_indices.len().checked_mul(vertices * 3).map_or(true, |n| out.len() < n)
        || frame_indices.iter().any(|&f| f as usize >= frame_count)
    {
        return false;
    }
    let together = if per_pose == 0 { frame_indices.len().max(1) } else { scratch.matrices.len() / per_pose };
    let object = &mut scratch.object[..joints * POSE_STRIDE];
    for (c, chunk) in frame_indices.chunks(together).enumerate() {
        // Pose the chunk: frame i's joint matrices at matrices[i · per_pose ..].
        for (i, &f) in chunk.iter().enumerate() {
            let f = f as usize;
            pose::compose_frame(anim.flags, anim.start_index, anim.baseframe, &anim.frames[f * cc..f * cc + cc], scratch.local);
            pose::local_to_object(anim.parents, scratch.local, object);
            pose::pose_matrices(object, &mut scratch.matrices[i * per_pose..(i + 1) * per_pose]);
        }
        let first = c * together * vertices * 3;
        let o = &mut out[first..first + chunk.len() * vertices * 3];
        let s = skin_stream;
        if !skin::skin_positions_poses(&scratch.matrices[..chunk.len() * per_pose], joints, chunk.len(), s.group_sizes, s.joints, s.weights, s.dest, o) {
            return false; // only the first chunk can fail: the shapes are the same for every chunk
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_equals_frames_one_by_one() {
        // One joint translated by the frame's tx; one vertex fully weighted at the joint's origin.
        let anim = Anim { parents: &[-1], flags: &[1], start_index: &[0], baseframe: &[0.0; 6], frames: &[1.0, 2.0, 3.0], component_count: 1 };
        let stream = Skin { group_sizes: &[1], joints: &[0], weights: &[0.0, 0.0, 0.0, 1.0], dest: &[] };
        let (mut l, mut o, mut m) = ([0.0f32; 8], [0.0f32; 8], [0.0f32; 16]);
        let mut scratch = Scratch { local: &mut l, object: &mut o, matrices: &mut m };
        let mut out = [0.0f32; 9];
        assert!(skin_frames(&anim, &stream, &[2, 0, 1], &mut scratch, &mut out));
        assert_eq!(out, [3.0, 0.0, 0.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0]);
        assert!(!skin_frames(&anim, &stream, &[3], &mut scratch, &mut out));
    }
}

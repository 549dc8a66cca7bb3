//! Many frames in one call: for each requested frame, compose → object space → matrices → skin, writing the
//! frames' positions one after another. One boundary crossing from JS for a whole batch (baking, exports,
//! crowds of instances on different frames).

use crate::layout::POSE_STRIDE;
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

/// Skin `frame_indices` into `out` (frame i at `out[i · V · 3 ..]`). Returns false, writing nothing more, at the
/// first frame index past the anim or when a buffer is too short.
pub fn skin_frames(anim: &Anim, skin_stream: &Skin, frame_indices: &[u32], scratch: &mut Scratch, out: &mut [f32]) -> bool {
    let joints = anim.parents.len();
    let vertices = match skin::group_totals(skin_stream.group_sizes) {
        Some((v, _)) => v,
        None => return false,
    };
    let cc = anim.component_count;
    let frame_count = if cc == 0 { usize::MAX } else { anim.frames.len() / cc };
    if scratch.local.len() < joints * POSE_STRIDE || scratch.object.len() < joints * POSE_STRIDE || frame_indices.len().checked_mul(vertices * 3).map_or(true, |n| out.len() < n) {
        return false;
    }
    for (i, &f) in frame_indices.iter().enumerate() {
        let f = f as usize;
        if f >= frame_count {
            return false;
        }
        pose::compose_frame(anim.flags, anim.start_index, anim.baseframe, &anim.frames[f * cc..f * cc + cc], scratch.local);
        pose::local_to_object(anim.parents, scratch.local, scratch.object);
        pose::pose_matrices(scratch.object, scratch.matrices);
        let o = &mut out[i * vertices * 3..(i + 1) * vertices * 3];
        if !skin::skin_positions(scratch.matrices, skin_stream.group_sizes, skin_stream.joints, skin_stream.weights, skin_stream.dest, o) {
            return false;
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

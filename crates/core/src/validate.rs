//! Every index a kernel will follow, checked once before it runs. Each check returns the position of
//! the first offending element so the caller can say exactly what is wrong.

use crate::layout::{BASEFRAME_STRIDE, WEIGHT_STRIDE};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Invalid {
    /// `parents[j]` is not −1 and not below `j`.
    Parent(usize),
    /// Joint `j`'s flagged components run past the frame's component count, or a flag bit above 32.
    AnimComponents(usize),
    /// A baseframe shorter than 6 floats per joint, or start indices not one per joint.
    AnimShape,
    /// Weight `k` names a joint ≥ the joint count.
    WeightJoint(usize),
    /// The vertex counts sum to more weights than supplied, or the output is too short.
    SkinShape,
    /// Blend index `k` (vertex k / 4, lane k % 4) has a weight above 0 and names a joint ≥ the joint count.
    BlendIndex(usize),
}

pub fn parents(parents: &[i32]) -> Result<(), Invalid> {
    for (j, &p) in parents.iter().enumerate() {
        if p >= j as i32 || p < -1 {
            return Err(Invalid::Parent(j));
        }
    }
    Ok(())
}

pub fn anim(flags: &[u8], start_index: &[u32], baseframe_len: usize, component_count: usize) -> Result<(), Invalid> {
    if start_index.len() != flags.len() || baseframe_len < flags.len() * BASEFRAME_STRIDE {
        return Err(Invalid::AnimShape);
    }
    for (j, (&f, &s)) in flags.iter().zip(start_index).enumerate() {
        if f > 63 || s as usize + (f.count_ones() as usize) > component_count {
            return Err(Invalid::AnimComponents(j));
        }
    }
    Ok(())
}

/// A grouped skin stream (see `skin.rs`): lengths agree, every weight names a joint below `joint_count`, and
/// `dest` (when not empty) is a permutation of the vertices.
pub fn skin(joint_count: usize, group_sizes: &[u32], joints: &[u32], weights_len: usize, dest: &[u32], out_len: usize) -> Result<(), Invalid> {
    let (vertices, total) = crate::skin::group_totals(group_sizes).ok_or(Invalid::SkinShape)?;
    if joints.len() < total || weights_len < total * WEIGHT_STRIDE || out_len < vertices * 3 || !(dest.is_empty() || dest.len() == vertices) {
        return Err(Invalid::SkinShape);
    }
    for (k, &j) in joints[..total].iter().enumerate() {
        if j as usize >= joint_count {
            return Err(Invalid::WeightJoint(k));
        }
    }
    if !dest.is_empty() {
        let mut seen = vec![false; vertices];
        for &d in dest {
            let d = d as usize;
            if d >= vertices || seen[d] {
                return Err(Invalid::SkinShape);
            }
            seen[d] = true;
        }
    }
    Ok(())
}

/// Linear-blend-skinning indices (`lbs.rs`): every index whose weight is above 0 names a joint below `joint_count`
/// (an unweighted index is read by no engine and only clamped by the kernel). Byte weights when `weights_f32` is
/// empty; the weights must hold one per index.
pub fn lbs(joint_count: usize, indices: &[u8], weights_u8: &[u8], weights_f32: &[f32]) -> Result<(), Invalid> {
    let n = indices.len();
    if (weights_f32.is_empty() && weights_u8.len() < n) || (!weights_f32.is_empty() && weights_f32.len() < n) {
        return Err(Invalid::SkinShape);
    }
    for (k, &j) in indices.iter().enumerate() {
        let weighted = if weights_f32.is_empty() { weights_u8[k] > 0 } else { weights_f32[k] > 0.0 };
        if weighted && j as usize >= joint_count {
            return Err(Invalid::BlendIndex(k));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parent_at_or_after_its_child_is_named() {
        assert_eq!(parents(&[-1, 0, 1]), Ok(()));
        assert_eq!(parents(&[-1, 2, 0]), Err(Invalid::Parent(1)));
        assert_eq!(parents(&[-2]), Err(Invalid::Parent(0)));
    }

    #[test]
    fn components_past_the_frame_are_named() {
        assert_eq!(anim(&[63, 7], &[0, 6], 12, 9), Ok(()));
        assert_eq!(anim(&[63, 7], &[0, 7], 12, 9), Err(Invalid::AnimComponents(1)));
        assert_eq!(anim(&[64], &[0], 6, 6), Err(Invalid::AnimComponents(0)));
    }

    #[test]
    fn weighted_blend_indices_past_the_joints_are_named() {
        assert_eq!(lbs(2, &[0, 1, 5, 0], &[200, 55, 0, 0], &[]), Ok(()));
        assert_eq!(lbs(2, &[0, 1, 5, 0], &[200, 50, 5, 0], &[]), Err(Invalid::BlendIndex(2)));
        assert_eq!(lbs(2, &[2, 0, 0, 0], &[], &[0.5, 0.5, 0.0, 0.0]), Err(Invalid::BlendIndex(0)));
        assert_eq!(lbs(2, &[0, 0, 0, 0], &[1, 2], &[]), Err(Invalid::SkinShape));
    }

    #[test]
    fn weight_joints_out_of_range_are_named() {
        // one 1-weight vertex, one 2-weight vertex: 3 weights
        assert_eq!(skin(2, &[1, 1], &[0, 1, 1], 12, &[1, 0], 6), Ok(()));
        assert_eq!(skin(2, &[1, 1], &[0, 2, 1], 12, &[], 6), Err(Invalid::WeightJoint(1)));
        assert_eq!(skin(2, &[1, 2], &[0, 1, 1], 12, &[], 9), Err(Invalid::SkinShape));
        assert_eq!(skin(2, &[1, 1], &[0, 1, 1], 12, &[0, 0], 6), Err(Invalid::SkinShape));
    }
}

//! Fuzzing the Rust core's validated entry points: arbitrary bytes are decoded into kernel inputs (small
//! skeletons, anims, grouped skin streams, MD2/MD3 frames — biased towards the edges: indices one past the end,
//! -1 and below, huge counts), then:
//!
//! 1. each `validate::*` check is compared with a plain restatement of its rule (it must reject exactly the
//!    inputs that break the rule, and name the first offending element);
//! 2. whatever validation accepts is run through the kernels it guards (`compose_frame`, `local_to_object`,
//!    `pose_matrices`, `skin_positions` / `skin_normals`, `batch::skin_frames`) with buffers of the documented
//!    sizes: they must not panic, and skinning must write only its `vertices × 3` output floats;
//! 3. the kernels that check their own inputs (`skin_positions` on unvalidated streams, `md2_blend`, `md3_blend`)
//!    run on anything: they return false or stay inside their slices, never panic.
//!
//! Under `cargo fuzz` AddressSanitizer also catches any read past a slice by the kernels' unchecked loads.

use idtech_core::layout::{BASEFRAME_STRIDE, MATRIX_STRIDE, POSE_STRIDE, WEIGHT_STRIDE};
use idtech_core::{batch, morph, pose, skin, validate};

/// Reads the fuzz input front to back; past the end every read is 0, so any input decodes.
pub struct Cursor<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Cursor { data, at: 0 }
    }
    fn u8(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }
    /// A count in 0..=max, mostly small.
    fn count(&mut self, max: usize) -> usize {
        let b = self.u8() as usize;
        if b < 200 { b % (max.min(24) + 1) } else { self.u32() as usize % (max + 1) }
    }
    /// An index meant to be below `n`: usually is, sometimes exactly n, n + 1, u32::MAX or anything.
    fn index(&mut self, n: usize) -> u32 {
        match self.u8() {
            0..=219 => (self.u8() as usize % n.max(1)) as u32,
            220..=229 => n as u32,
            230..=235 => n as u32 + 1,
            236..=239 => u32::MAX,
            _ => self.u32(),
        }
    }
    /// A parent for joint `j`: usually −1 or below j, sometimes j itself, later joints, −2 or anything.
    fn parent(&mut self, j: usize) -> i32 {
        match self.u8() {
            0..=39 => -1,
            40..=219 => (self.u8() as usize % j.max(1)) as i32 - i32::from(j == 0),
            220..=229 => j as i32,
            230..=235 => -2,
            _ => self.u32() as i32,
        }
    }
    /// A float: mostly modest values, sometimes 0, ±1, huge, NaN or infinite (the kernels must survive them).
    fn f32(&mut self) -> f32 {
        match self.u8() {
            0..=199 => (self.u8() as f32 - 128.0) / 64.0,
            200..=209 => 0.0,
            210..=219 => 1.0,
            220..=229 => -1.0,
            230..=239 => 1e30,
            240..=244 => f32::NAN,
            245..=249 => f32::INFINITY,
            _ => f32::from_bits(self.u32()),
        }
    }
    fn f32s(&mut self, n: usize) -> Vec<f32> {
        (0..n).map(|_| self.f32()).collect()
    }
}

/// The rule `validate::parents` states: every parent is −1 or below its joint.
fn first_bad_parent(parents: &[i32]) -> Option<usize> {
    parents.iter().enumerate().position(|(j, &p)| p < -1 || p >= j as i32)
}

/// The rule of `validate::anim`, for well-shaped inputs: flags fit 6 bits and a joint's flagged components lie
/// inside the frame.
fn first_bad_anim_joint(flags: &[u8], start: &[u32], component_count: usize) -> Option<usize> {
    (0..flags.len()).find(|&j| flags[j] > 63 || start[j] as u64 + u64::from(flags[j].count_ones()) > component_count as u64)
}

/// The rule of `validate::skin` for a stream whose shapes agree (counts sum without overflow to a small stream,
/// enough weights and output): every used weight names a joint below `joint_count`, and `dest` is empty or a
/// permutation of the vertices.
fn skin_rule_holds(joint_count: usize, used_joints: &[u32], dest: &[u32], vertices: usize) -> bool {
    let permutation = |dest: &[u32]| {
        let mut seen = vec![false; vertices];
        dest.len() == vertices && dest.iter().all(|&d| (d as usize) < vertices && !std::mem::replace(&mut seen[d as usize], true))
    };
    used_joints.iter().all(|&j| (j as usize) < joint_count) && (dest.is_empty() || permutation(dest))
}

const SENTINEL: f32 = -7.5e-39;

/// Which guarded paths an input reached (for the stable harness's coverage summary).
#[derive(Default, Clone, Copy)]
pub struct Reached {
    pub parents_ok: bool,
    pub anim_ok: bool,
    pub skin_ok: bool,
    pub batch: bool,
}

/// Run every check on one decoded input. Panics (a fuzz failure) when a property breaks.
pub fn check(data: &[u8]) -> Reached {
    let mut reached = Reached::default();
    let mut c = Cursor::new(data);
    let joints = c.count(64);

    // 1. parents: validate agrees with the rule; accepted skeletons go through local → object → matrices.
    let parents: Vec<i32> = (0..joints).map(|j| c.parent(j)).collect();
    let parents_ok = match validate::parents(&parents) {
        Ok(()) => {
            assert_eq!(first_bad_parent(&parents), None, "validate::parents accepted {parents:?}");
            true
        }
        Err(validate::Invalid::Parent(j)) => {
            assert_eq!(first_bad_parent(&parents), Some(j), "validate::parents named joint {j} of {parents:?}");
            false
        }
        Err(e) => panic!("validate::parents returned {e:?}"),
    };

    // 2. anim: validate agrees with the rule (shape errors included); accepted anims compose without panicking.
    let component_count = c.count(6 * 64 + 2);
    let flags: Vec<u8> = (0..joints).map(|_| if c.u8() < 240 { c.u8() & 63 } else { c.u8() }).collect();
    let start: Vec<u32> = (0..joints).map(|_| c.index(component_count)).collect();
    let short_baseframe = c.u8() >= 250;
    let baseframe_len = joints * BASEFRAME_STRIDE - usize::from(short_baseframe && joints > 0);
    let baseframe = c.f32s(baseframe_len);
    let frame_count = c.count(4);
    let frames = c.f32s(frame_count * component_count);
    let anim_ok = match validate::anim(&flags, &start, baseframe_len, component_count) {
        Ok(()) => {
            assert!(!(short_baseframe && joints > 0), "validate::anim accepted a short baseframe");
            assert_eq!(first_bad_anim_joint(&flags, &start, component_count), None, "validate::anim accepted flags {flags:?} start {start:?} / {component_count}");
            true
        }
        Err(validate::Invalid::AnimShape) => {
            assert!(short_baseframe && joints > 0, "validate::anim: AnimShape for a well-shaped anim");
            false
        }
        Err(validate::Invalid::AnimComponents(j)) => {
            assert!(!(short_baseframe && joints > 0), "validate::anim: components error before the shape error");
            assert_eq!(first_bad_anim_joint(&flags, &start, component_count), Some(j), "validate::anim named joint {j}");
            false
        }
        Err(e) => panic!("validate::anim returned {e:?}"),
    };
    let mut local = vec![0.0f32; joints * POSE_STRIDE];
    let mut object = vec![0.0f32; joints * POSE_STRIDE];
    let mut matrices = vec![0.0f32; joints * MATRIX_STRIDE];
    if anim_ok {
        for f in 0..frame_count {
            pose::compose_frame(&flags, &start, &baseframe, &frames[f * component_count..(f + 1) * component_count], &mut local);
        }
    } else {
        for (j, l) in local.chunks_exact_mut(POSE_STRIDE).enumerate() {
            l.copy_from_slice(&[j as f32, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
        }
    }
    if parents_ok {
        pose::local_to_object(&parents, &local, &mut object);
        let other = object.clone();
        pose::interpolate_local(&object, &other, c.f32(), &mut local);
    }
    pose::pose_matrices(&object, &mut matrices);

    // 3. skin: validate agrees with its rule; accepted streams skin without panicking, writing only V × 3 floats.
    let groups = c.count(10);
    let group_sizes: Vec<u32> = (0..groups).map(|_| if c.u8() < 250 { c.u8() as u32 % 9 } else { c.u32() }).collect();
    let (vertices, total) = skin::group_totals(&group_sizes).unwrap_or((usize::MAX, usize::MAX));
    let small = vertices <= 4096 && total <= 1 << 16;
    let (v, t) = if small { (vertices, total) } else { (c.count(32), c.count(64)) };
    let weight_joints: Vec<u32> = (0..t + usize::from(c.u8() >= 250)).map(|_| c.index(joints)).collect();
    let weights = c.f32s(t * WEIGHT_STRIDE);
    let dest: Vec<u32> = match c.u8() {
        0..=99 => Vec::new(),
        100..=219 => {
            // A permutation of the vertices (rotated), sometimes with one slot broken.
            let shift = c.u8() as usize;
            let mut d: Vec<u32> = (0..v).map(|i| ((i + shift) % v.max(1)) as u32).collect();
            if c.u8() >= 200 && v > 0 {
                let k = c.u8() as usize % v;
                d[k] = c.index(v);
            }
            d
        }
        _ => (0..c.count(v + 1)).map(|_| c.index(v)).collect(),
    };
    let out_len = v * 3 + usize::from(c.u8() >= 240) * 3;
    let accepted = validate::skin(joints, &group_sizes, &weight_joints, weights.len(), &dest, out_len);
    let shapes_agree = small && weight_joints.len() >= total && weights.len() >= total * WEIGHT_STRIDE && out_len >= vertices * 3;
    reached.parents_ok = parents_ok;
    reached.anim_ok = anim_ok;
    if let Ok(()) = accepted {
        reached.skin_ok = true;
        assert!(shapes_agree, "validate::skin accepted mismatched shapes");
        assert!(skin_rule_holds(joints, &weight_joints[..total], &dest, vertices), "validate::skin accepted joints {weight_joints:?} / {joints}, dest {dest:?}");
        let mut out = vec![SENTINEL; out_len + 3];
        let written = skin::skin_positions(&matrices, &group_sizes, &weight_joints, &weights, &dest, &mut out[..out_len]);
        assert!(written || (joints == 0 && total > 0), "skin_positions refused a validated stream");
        assert!(out[vertices * 3..].iter().all(|&x| x.to_bits() == SENTINEL.to_bits()) || out_len > vertices * 3, "skinning wrote past V × 3");
        skin::skin_normals(&matrices, &group_sizes, &weight_joints, &weights, &dest, &mut out[..out_len]);

        // 4. batch: a validated anim + skeleton + stream, frame indices in and out of range.
        if anim_ok && parents_ok {
            let anim = batch::Anim { parents: &parents, flags: &flags, start_index: &start, baseframe: &baseframe, frames: &frames, component_count };
            let stream = batch::Skin { group_sizes: &group_sizes, joints: &weight_joints, weights: &weights, dest: &dest };
            let indices: Vec<u32> = (0..c.count(4)).map(|_| c.index(frame_count)).collect();
            let mut scratch = batch::Scratch { local: &mut local, object: &mut object, matrices: &mut matrices };
            let mut batch_out = vec![0.0f32; indices.len() * vertices * 3];
            reached.batch = true;
            let ok = batch::skin_frames(&anim, &stream, &indices, &mut scratch, &mut batch_out);
            let in_range = indices.iter().all(|&f| (f as usize) < frame_count || component_count == 0);
            assert!(ok || !in_range || (joints == 0 && total > 0), "skin_frames refused in-range frames");
        }
    } else if shapes_agree {
        // Rejected although the shapes agree: a weight must name a missing joint, or dest must not be a permutation.
        assert!(!skin_rule_holds(joints, &weight_joints[..total], &dest, vertices), "validate::skin rejected a good stream: {accepted:?}");
    }

    // 5. self-checking kernels on unvalidated input: false or in bounds, never a panic.
    if small {
        let mut out = vec![0.0f32; c.count(v * 3 + 6)];
        skin::skin_positions(&matrices, &group_sizes, &weight_joints, &weights, &dest, &mut out);
    }
    let vc = c.count(64);
    let n = c.count(4) * vc * morph::MD2_VERTEX_BYTES + c.count(3);
    let md2_frames: Vec<u8> = (0..n).map(|_| c.u8()).collect();
    let n = c.count(12);
    let scales = c.f32s(n);
    let n = c.count(12);
    let translates = c.f32s(n);
    let n = c.count(morph::MD2_NORMAL_TABLE_ENTRIES * morph::MD2_NORMAL_TABLE_STRIDE + 4);
    let normals = c.f32s(n);
    let (fa, fb) = (c.index(4) as usize, c.index(4) as usize);
    let t = c.f32();
    let n = c.count(vc * 3 + 3);
    let mut pos = vec![0.0f32; n];
    let n = c.count(vc * 3 + 3);
    let mut nrm = vec![0.0f32; n];
    morph::md2_blend(&md2_frames, &scales, &translates, vc, fa, fb, t, &normals, &mut pos, &mut nrm);
    let n = c.count(4) * vc * morph::MD3_VERTEX_SHORTS + c.count(3);
    let md3: Vec<i16> = (0..n).map(|_| c.u32() as i16).collect();
    let n = c.count(morph::MD3_DECODED_NORMALS_LEN + 2);
    let angles = c.f32s(n);
    morph::md3_blend(&md3, vc, fa, fb, t, &angles, &mut pos, &mut nrm);
    reached
}

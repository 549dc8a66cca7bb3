//! The wasm-bindgen surface: an allocator for buffers in linear memory, and one entry point per kernel, each
//! taking the address of a job descriptor (`jobs.rs`) that JavaScript wrote into linear memory. Nothing per vertex
//! crosses the boundary, only one pointer per call (see `ts/src/kernels/wasm-backend.ts`).
//!
//! `scripts/gen-jobs.mjs` makes the TS side of every entry point here that takes a job (`fn name(job_ptr: usize)`
//! returning `bool` or `i32`, its first line `let j: &SomeJob = …`): the kernel `name` in camelCase, which writes the
//! job and calls the entry. A `/// Refused: …` doc line is the RangeError's words when a run kernel returns false
//! (`{field}`: that field of the job).
//!
//! Validation and running stay separate: `validate_*` check every index a kernel will follow and report the first
//! bad one; the run kernels only check shapes (lengths that agree) and return false when they do not, writing
//! nothing. Kernels index through checked slices and clamp indices into range (SIMD128 skinning checks every index
//! once at entry instead and returns false on a bad one), so even an unvalidated bad index cannot touch memory
//! outside its buffers.

mod jobs;

use idtech_core::{iqm, layout, lbs, morph, pose, skin, validate};
use jobs::*;
use wasm_bindgen::prelude::*;

/// Allocate `bytes` zeroed bytes aligned to 16; returns 0 on failure.
#[wasm_bindgen]
pub fn alloc(bytes: usize) -> usize {
    alloc_block(bytes)
}

/// Release a block from `alloc` (same `bytes`).
#[wasm_bindgen]
pub fn dealloc(ptr: usize, bytes: usize) {
    free_block(ptr, bytes)
}

/// Whether this build's skinning kernel uses SIMD128.
#[wasm_bindgen]
pub fn simd_enabled() -> bool {
    cfg!(target_feature = "simd128")
}

/// The job at `ptr`. SAFETY: `ptr` is a 16-aligned block from `alloc` holding a `T` written by the backend.
unsafe fn job<'a, T>(ptr: usize) -> &'a T {
    &*(ptr as *const T)
}

/// −1 when valid, else the first joint whose parent is not −1 and not below it.
#[wasm_bindgen]
pub fn validate_parents(job_ptr: usize) -> i32 {
    // SAFETY (every entry point): the job and its buffers come from `alloc` (see `jobs.rs`).
    let j: &ValidateParentsJob = unsafe { job(job_ptr) };
    match validate::parents(unsafe { j.parents.slice() }) {
        Ok(()) => -1,
        Err(validate::Invalid::Parent(k)) => k as i32,
        Err(_) => 0,
    }
}

/// −1 when valid, −2 on inconsistent shapes, else the first joint whose components run past the frame.
#[wasm_bindgen]
pub fn validate_anim(job_ptr: usize) -> i32 {
    let j: &ValidateAnimJob = unsafe { job(job_ptr) };
    match validate::anim(unsafe { j.flags.slice() }, unsafe { j.start_index.slice() }, j.baseframe.len(), j.component_count as usize) {
        Ok(()) => -1,
        Err(validate::Invalid::AnimComponents(k)) => k as i32,
        Err(_) => -2,
    }
}

/// −1 when valid, −2 when the shape is inconsistent (or `dest` is not a permutation), else the first weight
/// naming a missing joint.
#[wasm_bindgen]
pub fn validate_skin(job_ptr: usize) -> i32 {
    let j: &ValidateSkinJob = unsafe { job(job_ptr) };
    let groups: &[u32] = unsafe { j.group_sizes.slice() };
    let vertices = match skin::group_totals(groups) {
        Some((v, _)) => v,
        None => return -2,
    };
    match validate::skin(j.joint_count as usize, groups, unsafe { j.joints.slice() }, j.weights.len(), unsafe { j.dest.slice() }, vertices * 3) {
        Ok(()) => -1,
        Err(validate::Invalid::WeightJoint(k)) => k as i32,
        Err(_) => -2,
    }
}

/// Frame `frame` of the anim composed into a local pose (see `idtech_core::pose::compose_frame`).
/// Refused: no frame {frame}, or a buffer is too short
#[wasm_bindgen]
pub fn compose_frame(job_ptr: usize) -> bool {
    let j: &ComposeJob = unsafe { job(job_ptr) };
    let n = j.flags.len();
    let cc = j.component_count as usize;
    let start = (j.frame as usize).checked_mul(cc);
    let end = start.and_then(|s| s.checked_add(cc));
    match (start, end) {
        (Some(s), Some(e)) if e <= j.frames.len() && j.start_index.len() >= n && j.baseframe.len() >= n * layout::BASEFRAME_STRIDE && j.out.len() >= n * layout::POSE_STRIDE => {
            let frames: &[f32] = unsafe { j.frames.slice() };
            pose::compose_frame(unsafe { j.flags.slice() }, unsafe { j.start_index.slice() }, unsafe { j.baseframe.slice() }, &frames[s..e], unsafe { j.out.slice_mut() });
            true
        }
        _ => false,
    }
}

#[wasm_bindgen]
pub fn interpolate_local(job_ptr: usize) -> bool {
    let j: &InterpolateJob = unsafe { job(job_ptr) };
    let n = j.out.len() / layout::POSE_STRIDE * layout::POSE_STRIDE;
    if j.a.len() < n || j.b.len() < n {
        return false;
    }
    let out: &mut [f32] = unsafe { j.out.slice_mut() };
    pose::interpolate_local(unsafe { j.a.slice() }, unsafe { j.b.slice() }, j.t, &mut out[..n]);
    true
}

#[wasm_bindgen]
pub fn local_to_object(job_ptr: usize) -> bool {
    let j: &LocalToObjectJob = unsafe { job(job_ptr) };
    let n = j.parents.len() * layout::POSE_STRIDE;
    if j.local.len() < n || j.out.len() < n {
        return false;
    }
    // Parents are validated (`validate_parents`) before this runs; an unvalidated parent ≥ j would read a pose
    // not yet written, never outside the buffer (the slice is checked).
    pose::local_to_object(unsafe { j.parents.slice() }, unsafe { j.local.slice() }, unsafe { j.out.slice_mut() });
    true
}

#[wasm_bindgen]
pub fn pose_matrices(job_ptr: usize) -> bool {
    let j: &MatricesJob = unsafe { job(job_ptr) };
    let joints = j.object.len() / layout::POSE_STRIDE;
    if j.out.len() < joints * layout::MATRIX_STRIDE {
        return false;
    }
    let object: &[f32] = unsafe { j.object.slice() };
    pose::pose_matrices(&object[..joints * layout::POSE_STRIDE], unsafe { j.out.slice_mut() });
    true
}

/// Joint matrices scaled per joint (see `idtech_core::pose::scale_matrices`); false when a buffer is short.
#[wasm_bindgen]
pub fn scale_matrices(job_ptr: usize) -> bool {
    let j: &ScaleMatricesJob = unsafe { job(job_ptr) };
    let joints = j.scales.len();
    if j.matrices.len() < joints * layout::MATRIX_STRIDE || j.out.len() < joints * layout::MATRIX_STRIDE {
        return false;
    }
    pose::scale_matrices(unsafe { j.matrices.slice() }, unsafe { j.scales.slice() }, unsafe { j.out.slice_mut() });
    true
}

/// Skin a grouped stream (see `idtech_core::skin`); false when the shapes disagree (nothing written).
#[wasm_bindgen]
pub fn skin_positions(job_ptr: usize) -> bool {
    let j: &SkinJob = unsafe { job(job_ptr) };
    unsafe { skin::skin_positions(j.matrices.slice(), j.group_sizes.slice(), j.joints.slice(), j.weights.slice(), j.dest.slice(), j.out.slice_mut()) }
}

#[wasm_bindgen]
pub fn skin_normals(job_ptr: usize) -> bool {
    let j: &SkinJob = unsafe { job(job_ptr) };
    unsafe { skin::skin_normals(j.matrices.slice(), j.group_sizes.slice(), j.joints.slice(), j.weights.slice(), j.dest.slice(), j.out.slice_mut()) }
}

/// Pose and skin several frames in one call (see `idtech_core::batch`); false on a frame index past the anim or
/// a short buffer.
/// Refused: a frame index is past the anim, or a buffer is too short
#[wasm_bindgen]
pub fn skin_frames(job_ptr: usize) -> bool {
    let j: &SkinFramesJob = unsafe { job(job_ptr) };
    unsafe { j.run() }
}

/// The output slices of `count` vertices from vertex `first`, or None when they do not fit.
fn out_range<'a>(positions: Buf, normals: Buf, first: u32, count: u32) -> Option<(&'a mut [f32], &'a mut [f32])> {
    let start = (first as usize).checked_mul(3)?;
    let end = start.checked_add((count as usize).checked_mul(3)?)?;
    if end > positions.len() || end > normals.len() {
        return None;
    }
    // SAFETY: as above; the two outputs are distinct buffers.
    unsafe { Some((&mut positions.slice_mut::<f32>()[start..end], &mut normals.slice_mut::<f32>()[start..end])) }
}

/// MD2 blend (see `idtech_core::morph::md2_blend`); false when a frame index or a length is out of range.
/// Refused: no frames {frame_a}, {frame_b}, or a buffer is too short
#[wasm_bindgen]
pub fn md2_blend(job_ptr: usize) -> bool {
    let j: &Md2BlendJob = unsafe { job(job_ptr) };
    let (p, nrm) = match out_range(j.out_positions, j.out_normals, j.out_vertex_offset, j.vertex_count) {
        Some(o) => o,
        None => return false,
    };
    let frame_count = j.scales.len().min(j.translates.len()) / 3;
    let frames: &[u8] = unsafe { j.frames.slice() };
    let frames = &frames[..frames.len().min(frame_count * j.vertex_count as usize * layout::MD2_VERTEX_BYTES)];
    unsafe { morph::md2_blend(frames, j.scales.slice(), j.translates.slice(), j.vertex_count as usize, j.frame_a as usize, j.frame_b as usize, j.t, j.normal_table.slice(), p, nrm) }
}

/// MD3 blend of one surface (see `idtech_core::morph::md3_blend`); false when a frame index or a length is out of range.
/// Refused: no frames {frame_a}, {frame_b}, or a buffer is too short
#[wasm_bindgen]
pub fn md3_blend(job_ptr: usize) -> bool {
    let j: &Md3BlendJob = unsafe { job(job_ptr) };
    let (p, nrm) = match out_range(j.out_positions, j.out_normals, j.out_vertex_offset, j.vertex_count) {
        Some(o) => o,
        None => return false,
    };
    unsafe { morph::md3_blend(j.xyz_normals.slice(), j.vertex_count as usize, j.frame_a as usize, j.frame_b as usize, j.t, j.normal_table.slice(), p, nrm) }
}

/// Move a vertex range by a 3×4 placement (see `idtech_core::morph::transform_vertices`).
/// Refused: vertex range past the outputs, or a short matrix
#[wasm_bindgen]
pub fn transform_vertices(job_ptr: usize) -> bool {
    let j: &TransformJob = unsafe { job(job_ptr) };
    unsafe { morph::transform_vertices(j.matrix.slice(), j.positions.slice_mut(), j.normals.slice_mut(), j.first_vertex as usize, j.vertex_count as usize) }
}

/// −1 when valid, −2 on inconsistent shapes, else the first weighted blend index naming a missing joint.
#[wasm_bindgen]
pub fn validate_lbs(job_ptr: usize) -> i32 {
    let j: &ValidateLbsJob = unsafe { job(job_ptr) };
    match validate::lbs(j.joint_count as usize, unsafe { j.indices.slice() }, unsafe { j.weights_u8.slice() }, unsafe { j.weights_f32.slice() }) {
        Ok(()) => -1,
        Err(validate::Invalid::BlendIndex(k)) => k as i32,
        Err(_) => -2,
    }
}

/// IQM bind and inverse bind matrices (see `idtech_core::iqm::iqm_bind_matrices`); false when the shapes disagree.
#[wasm_bindgen]
pub fn iqm_bind(job_ptr: usize) -> bool {
    let j: &IqmBindJob = unsafe { job(job_ptr) };
    unsafe { iqm::iqm_bind_matrices(j.parents.slice(), j.translate.slice(), j.rotate.slice(), j.scale.slice(), j.bind.slice_mut(), j.inv_bind.slice_mut()) }
}

/// IQM skinning matrices of frames a → b at t (see `idtech_core::iqm::iqm_pose_matrices`); false on a frame past
/// the frames or shapes that disagree.
/// Refused: no frames {frame_a}, {frame_b}, or a buffer is too short
#[wasm_bindgen]
pub fn iqm_pose(job_ptr: usize) -> bool {
    let j: &IqmPoseJob = unsafe { job(job_ptr) };
    let inp = unsafe {
        iqm::IqmPoseInput {
            parents: j.parents.slice(),
            masks: j.masks.slice(),
            offsets: j.offsets.slice(),
            scales: j.scales.slice(),
            frames: j.frames.slice(),
            frame_count: j.frame_count as usize,
            frame_channels: j.frame_channels as usize,
            bind: j.bind.slice(),
            inv_bind: j.inv_bind.slice(),
        }
    };
    unsafe { iqm::iqm_pose_matrices(&inp, j.frame_a as usize, j.frame_b as usize, j.t, j.scratch.slice_mut(), j.out.slice_mut()) }
}

/// Pose and skin several IQM frames in one call (see `idtech_core::iqm_batch`); false on a frame index past the
/// frames or a short buffer.
/// Refused: a frame index is past the frames, or a buffer is too short
#[wasm_bindgen]
pub fn iqm_skin_frames(job_ptr: usize) -> bool {
    let j: &IqmSkinFramesJob = unsafe { job(job_ptr) };
    unsafe { j.run() }
}

/// Linear blend skinning (see `idtech_core::lbs`); false when the shapes disagree (nothing written).
#[wasm_bindgen]
pub fn lbs_skin(job_ptr: usize) -> bool {
    let j: &LbsSkinJob = unsafe { job(job_ptr) };
    let inp = unsafe {
        lbs::LbsInput {
            matrices: j.matrices.slice(),
            positions: j.positions.slice(),
            normals: j.normals.slice(),
            tangents: j.tangents.slice(),
            indices: j.indices.slice(),
            weights_u8: j.weights_u8.slice(),
            weights_f32: j.weights_f32.slice(),
        }
    };
    let mut out = unsafe { lbs::LbsOutput { positions: j.out_positions.slice_mut(), normals: j.out_normals.slice_mut(), tangents: j.out_tangents.slice_mut() } };
    lbs::lbs_skin(&inp, &mut out)
}

/// A crowd's joint palettes, every instance in one call (see `idtech_core::crowd`); false when a buffer is too short
/// for the instances (nothing written).
/// Refused: a buffer is too short for {instance_count} instances, or the keys hold no whole key
#[wasm_bindgen]
pub fn crowd_palettes(job_ptr: usize) -> bool {
    let j: &CrowdPalettesJob = unsafe { job(job_ptr) };
    unsafe { j.run() }
}

//! The wasm-bindgen surface: an allocator for buffers in linear memory and pointer-taking wrappers over
//! `idtech-core`'s kernels. JavaScript allocates every buffer once (see `ts/src/pose/wasm-kernels.ts`),
//! keeps typed-array views on them, writes inputs and reads outputs in place: nothing per vertex crosses
//! the boundary, only pointers and counts.
//!
//! Pointers come from `alloc` and lengths from the same JS object that allocated them. Kernels index
//! through checked slices, so a wrong *index inside the data* (a weight's joint, a parent) stops with a
//! trap rather than touching memory outside the buffer; callers run the `validate_*` entry points first
//! so that never happens on real input.

use core::slice;
use idtech_core::{batch, layout, morph, pose, skin, validate};
use std::alloc::{alloc_zeroed, dealloc as free, Layout};
use wasm_bindgen::prelude::*;

const ALIGN: usize = 16;

/// Allocate `bytes` zeroed bytes aligned to 16; returns 0 on failure.
#[wasm_bindgen]
pub fn alloc(bytes: usize) -> usize {
    match Layout::from_size_align(bytes.max(1), ALIGN) {
        // SAFETY: non-zero size, valid alignment.
        Ok(l) => unsafe { alloc_zeroed(l) as usize },
        Err(_) => 0,
    }
}

/// Release a block from `alloc` (same `bytes`).
#[wasm_bindgen]
pub fn dealloc(ptr: usize, bytes: usize) {
    if ptr == 0 {
        return;
    }
    if let Ok(l) = Layout::from_size_align(bytes.max(1), ALIGN) {
        // SAFETY: `ptr` came from `alloc` with this layout (the JS arena keeps the pair together).
        unsafe { free(ptr as *mut u8, l) }
    }
}

/// Whether this build's skinning kernel uses SIMD128.
#[wasm_bindgen]
pub fn simd_enabled() -> bool {
    cfg!(target_feature = "simd128")
}

unsafe fn f32s<'a>(ptr: usize, len: usize) -> &'a [f32] {
    slice::from_raw_parts(ptr as *const f32, len)
}
unsafe fn f32s_mut<'a>(ptr: usize, len: usize) -> &'a mut [f32] {
    slice::from_raw_parts_mut(ptr as *mut f32, len)
}
unsafe fn u32s<'a>(ptr: usize, len: usize) -> &'a [u32] {
    if len == 0 {
        return &[]; // JS may pass 0 for "none"; a slice may not be built on a null pointer
    }
    slice::from_raw_parts(ptr as *const u32, len)
}

/// −1 when valid, else the first joint whose parent is not below it.
#[wasm_bindgen]
pub fn validate_parents(joint_count: usize, parents: usize) -> i32 {
    // SAFETY: buffers from `alloc`, lengths from the allocating JS object.
    let p = unsafe { slice::from_raw_parts(parents as *const i32, joint_count) };
    match validate::parents(p) {
        Ok(()) => -1,
        Err(validate::Invalid::Parent(j)) => j as i32,
        Err(_) => 0,
    }
}

/// −1 when valid, else the first joint whose components run past `component_count`.
#[wasm_bindgen]
pub fn validate_anim(joint_count: usize, flags: usize, start_index: usize, component_count: usize) -> i32 {
    // SAFETY: as above.
    let (f, s) = unsafe { (slice::from_raw_parts(flags as *const u8, joint_count), u32s(start_index, joint_count)) };
    match validate::anim(f, s, joint_count * layout::BASEFRAME_STRIDE, component_count) {
        Ok(()) => -1,
        Err(validate::Invalid::AnimComponents(j)) => j as i32,
        Err(_) => 0,
    }
}

/// −1 when valid, −2 when the shape is inconsistent, else the first weight naming a missing joint.
#[wasm_bindgen]
pub fn validate_skin(joint_count: usize, groups: usize, group_sizes: usize, weight_total: usize, joints: usize, dest: usize, dest_len: usize) -> i32 {
    // SAFETY: as above.
    let (g, j, d) = unsafe { (u32s(group_sizes, groups), u32s(joints, weight_total), u32s(dest, dest_len)) };
    let vertices = match skin::group_totals(g) {
        Some((v, _)) => v,
        None => return -2,
    };
    match validate::skin(joint_count, g, j, weight_total.saturating_mul(layout::WEIGHT_STRIDE), d, vertices * 3) {
        Ok(()) => -1,
        Err(validate::Invalid::WeightJoint(k)) => k as i32,
        Err(_) => -2,
    }
}

#[wasm_bindgen]
pub fn compose_frame(joint_count: usize, flags: usize, start_index: usize, baseframe: usize, frame: usize, component_count: usize, out_local: usize) {
    // SAFETY: as above.
    unsafe {
        pose::compose_frame(
            slice::from_raw_parts(flags as *const u8, joint_count),
            u32s(start_index, joint_count),
            f32s(baseframe, joint_count * layout::BASEFRAME_STRIDE),
            f32s(frame, component_count),
            f32s_mut(out_local, joint_count * layout::POSE_STRIDE),
        )
    }
}

#[wasm_bindgen]
pub fn interpolate_local(joint_count: usize, a: usize, b: usize, t: f32, out_local: usize) {
    let n = joint_count * layout::POSE_STRIDE;
    // SAFETY: as above.
    unsafe { pose::interpolate_local(f32s(a, n), f32s(b, n), t, f32s_mut(out_local, n)) }
}

#[wasm_bindgen]
pub fn local_to_object(joint_count: usize, parents: usize, local: usize, out_object: usize) {
    let n = joint_count * layout::POSE_STRIDE;
    // SAFETY: as above.
    unsafe {
        pose::local_to_object(slice::from_raw_parts(parents as *const i32, joint_count), f32s(local, n), f32s_mut(out_object, n))
    }
}

#[wasm_bindgen]
pub fn pose_matrices(joint_count: usize, object: usize, out_matrices: usize) {
    // SAFETY: as above.
    unsafe {
        pose::pose_matrices(
            f32s(object, joint_count * layout::POSE_STRIDE),
            f32s_mut(out_matrices, joint_count * layout::MATRIX_STRIDE),
        )
    }
}

/// Skin a grouped stream (see `idtech_core::skin`); `dest_len` 0 writes the grouped order, else file order.
/// `out_len` is the output's length in floats. Returns false when the shapes disagree (nothing written).
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn skin_positions(joint_count: usize, matrices: usize, groups: usize, group_sizes: usize, weight_total: usize, joints: usize, weights: usize, dest: usize, dest_len: usize, out: usize, out_len: usize) -> bool {
    // SAFETY: as above.
    unsafe {
        skin::skin_positions(
            f32s(matrices, joint_count * layout::MATRIX_STRIDE),
            u32s(group_sizes, groups),
            u32s(joints, weight_total),
            f32s(weights, weight_total * layout::WEIGHT_STRIDE),
            u32s(dest, dest_len),
            f32s_mut(out, out_len),
        )
    }
}

#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn skin_normals(joint_count: usize, matrices: usize, groups: usize, group_sizes: usize, weight_total: usize, joints: usize, normal_weights: usize, dest: usize, dest_len: usize, out: usize, out_len: usize) -> bool {
    // SAFETY: as above.
    unsafe {
        skin::skin_normals(
            f32s(matrices, joint_count * layout::MATRIX_STRIDE),
            u32s(group_sizes, groups),
            u32s(joints, weight_total),
            f32s(normal_weights, weight_total * layout::WEIGHT_STRIDE),
            u32s(dest, dest_len),
            f32s_mut(out, out_len),
        )
    }
}

/// Pose and skin several frames in one call (see `idtech_core::batch`): frame i's positions at
/// `out[i · vertices · 3]`. Returns false on a frame index past the anim or a short buffer.
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn skin_frames(
    joint_count: usize, parents: usize, flags: usize, start_index: usize, baseframe: usize, frames: usize, frames_len: usize, component_count: usize,
    groups: usize, group_sizes: usize, weight_total: usize, joints: usize, weights: usize, dest: usize, dest_len: usize,
    frame_indices: usize, frame_index_count: usize, local: usize, object: usize, matrices: usize, out: usize, out_len: usize,
) -> bool {
    let n = joint_count * layout::POSE_STRIDE;
    // SAFETY: buffers from `alloc`, lengths from the allocating JS objects.
    unsafe {
        let anim = batch::Anim {
            parents: slice::from_raw_parts(parents as *const i32, joint_count),
            flags: slice::from_raw_parts(flags as *const u8, joint_count),
            start_index: u32s(start_index, joint_count),
            baseframe: f32s(baseframe, joint_count * layout::BASEFRAME_STRIDE),
            frames: f32s(frames, frames_len),
            component_count,
        };
        let stream = batch::Skin {
            group_sizes: u32s(group_sizes, groups),
            joints: u32s(joints, weight_total),
            weights: f32s(weights, weight_total * layout::WEIGHT_STRIDE),
            dest: u32s(dest, dest_len),
        };
        let mut scratch = batch::Scratch { local: f32s_mut(local, n), object: f32s_mut(object, n), matrices: f32s_mut(matrices, joint_count * layout::MATRIX_STRIDE) };
        batch::skin_frames(&anim, &stream, u32s(frame_indices, frame_index_count), &mut scratch, f32s_mut(out, out_len))
    }
}

/// MD2 blend of frames `frame_a` and `frame_b` (see `idtech_core::morph::md2_blend`); `frames_len` in bytes.
/// Returns false when a frame index or a length is out of range (nothing written).
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn md2_blend(
    frames: usize, frames_len: usize, scales: usize, translates: usize, frame_count: usize, vertex_count: usize,
    frame_a: usize, frame_b: usize, t: f32, normals: usize, normals_len: usize, out_positions: usize, out_normals: usize,
) -> bool {
    let n = vertex_count * 3;
    // SAFETY: buffers from `alloc`, lengths from the allocating JS objects.
    unsafe {
        morph::md2_blend(
            if frames_len == 0 { &[] } else { slice::from_raw_parts(frames as *const u8, frames_len) },
            f32s(scales, frame_count * 3),
            f32s(translates, frame_count * 3),
            vertex_count, frame_a, frame_b, t,
            f32s(normals, normals_len),
            f32s_mut(out_positions, n),
            f32s_mut(out_normals, n),
        )
    }
}

/// MD3 blend of one surface (see `idtech_core::morph::md3_blend`); `xyz_normals_len` in int16s.
/// Returns false when a frame index or a length is out of range (nothing written).
#[wasm_bindgen]
#[allow(clippy::too_many_arguments)]
pub fn md3_blend(
    xyz_normals: usize, xyz_normals_len: usize, vertex_count: usize, frame_a: usize, frame_b: usize, t: f32,
    angles: usize, out_positions: usize, out_normals: usize,
) -> bool {
    let n = vertex_count * 3;
    // SAFETY: as above.
    unsafe {
        morph::md3_blend(
            if xyz_normals_len == 0 { &[] } else { slice::from_raw_parts(xyz_normals as *const i16, xyz_normals_len) },
            vertex_count, frame_a, frame_b, t,
            f32s(angles, morph::MD3_ANGLE_TABLE_LEN),
            f32s_mut(out_positions, n),
            f32s_mut(out_normals, n),
        )
    }
}

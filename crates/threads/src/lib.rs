//! The bake kernel for workers that share one WebAssembly memory (`ts/src/bake/shared.ts`): a bake pool's workers
//! each instantiate this module on the same shared memory and each skin its run of frames straight into one output
//! buffer there, so nothing is copied out of a worker (the module-per-worker pool copies every float once more).
//!
//! Built for wasm32 with `+atomics,+bulk-memory` and linked with `--shared-memory --import-memory` (scripts/build.sh).
//! The standard library it links was built without atomics — the only wasm32 std this machine has (Debian's rustc)
//! — so the module keeps to what is safe on it:
//! - only the thread that made the memory allocates (`alloc`, `dealloc`: std's allocator state is one unlocked copy
//!   in the shared memory); workers only run `skin_frames` / `iqm_skin_frames`, which never allocate;
//! - each worker gets its own stack: the linker's `__stack_pointer` is exported and set per instance to a block the
//!   allocating thread reserved (every instance would otherwise start on the same stack);
//! - data segments are passive and written once (the linker's `__wasm_init_memory`, guarded by an atomic flag), so a
//!   worker's instantiation does not overwrite the memory.
//!
//! No wasm-bindgen: its glue cannot import a shared memory without a threads build of std, and one address in and a
//! flag out need no glue. The job descriptors are the wasm surface's own (`jobs.rs`, one file for both).

#[path = "../../wasm/src/jobs.rs"]
#[allow(dead_code)] // the other surface's jobs
mod jobs;

use jobs::{alloc_block, free_block, IqmBindJob, IqmSkinFramesJob, SkinFramesJob};

/// Allocate `bytes` zeroed bytes aligned to 16; returns 0 on failure. Only the thread that made the memory calls it.
#[no_mangle]
pub extern "C" fn alloc(bytes: usize) -> usize {
    alloc_block(bytes)
}

/// Release a block from `alloc` (same `bytes`). Only the thread that made the memory calls it.
#[no_mangle]
pub extern "C" fn dealloc(ptr: usize, bytes: usize) {
    free_block(ptr, bytes)
}

/// Pose and skin frames (`SkinFramesJob` at `job_ptr`, see `idtech_core::batch::skin_frames`): 1, or 0 on a frame
/// index past the anim or a short buffer. Workers run it at once on their own jobs, scratch and output ranges.
#[no_mangle]
pub extern "C" fn skin_frames(job_ptr: usize) -> u32 {
    // SAFETY: the job is a 16-aligned block from `alloc` that the pool wrote, its buffers blocks from `alloc`.
    unsafe { (*(job_ptr as *const SkinFramesJob)).run() as u32 }
}

/// Pose and skin IQM frames (`IqmSkinFramesJob` at `job_ptr`, see `idtech_core::iqm_batch::iqm_skin_frames`): 1, or
/// 0 on a frame index past the frames or a short buffer. Workers run it at once on their own jobs, as `skin_frames`.
#[no_mangle]
pub extern "C" fn iqm_skin_frames(job_ptr: usize) -> u32 {
    // SAFETY: as `skin_frames`.
    unsafe { (*(job_ptr as *const IqmSkinFramesJob)).run() as u32 }
}

/// IQM bind and inverse bind matrices (`IqmBindJob`, see `idtech_core::iqm::iqm_bind_matrices`): 1, or 0 when the
/// shapes disagree. The pool's thread runs it once, so the workers' matrices are the same floats a WASM `IqmPoser`'s.
#[no_mangle]
pub extern "C" fn iqm_bind(job_ptr: usize) -> u32 {
    // SAFETY: as `skin_frames`.
    let j = unsafe { &*(job_ptr as *const IqmBindJob) };
    unsafe { idtech_core::iqm::iqm_bind_matrices(j.parents.slice(), j.translate.slice(), j.rotate.slice(), j.scale.slice(), j.bind.slice_mut(), j.inv_bind.slice_mut()) as u32 }
}

/// Whether this build's skinning kernel uses SIMD128 (the pool checks it matches what it asked for).
#[no_mangle]
pub extern "C" fn simd_enabled() -> u32 {
    cfg!(target_feature = "simd128") as u32
}

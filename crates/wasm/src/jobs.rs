//! Job descriptors: what one kernel call needs, written by JavaScript into linear memory and passed as one
//! pointer (ozz-animation's jobs; meshoptimizer's small surface). Every struct is `#[repr(C)]` and made of 4-byte
//! words only, so its layout is its declaration order: `scripts/gen-layout.mjs` reads this file and writes the
//! word offsets into `ts/src/kernels/layout.ts`, and `scripts/gen-jobs.mjs` writes the WASM backend's job writers
//! into `ts/src/kernels/wasm-jobs.ts` (tests check both agree). A field's TS job keeps it under its camelCase name
//! unless a trailing `// ts: path` comment says where (`anim.parents`; `frameIndices, length: frameCount` for a
//! buffer whose element count word is a number of the job).
//!
//! A `Buf` is a buffer from `alloc`: its address and its length in elements (not bytes). Lengths come from the
//! same JS object that allocated the buffer, so a slice built from a `Buf` stays inside the allocation.
//!
//! Both WASM surfaces use this file: the wasm-bindgen one (`lib.rs`) and the shared-memory bake build
//! (`crates/threads`, which includes it), so the allocator they export and the bake jobs' `run` (`SkinFramesJob`, `IqmSkinFramesJob`) live here too.

use core::slice;
use idtech_core::{batch, crowd, iqm, iqm_batch, layout};
use std::alloc::{alloc_zeroed, dealloc, Layout};

/// Alignment of every block `alloc_block` hands out (a v128 load or a job descriptor never straddles it).
const ALIGN: usize = 16;

/// `bytes` zeroed bytes aligned to 16, or 0 on failure: the `alloc` both surfaces export.
pub fn alloc_block(bytes: usize) -> usize {
    match Layout::from_size_align(bytes.max(1), ALIGN) {
        // SAFETY: non-zero size, valid alignment.
        Ok(l) => unsafe { alloc_zeroed(l) as usize },
        Err(_) => 0,
    }
}

/// Release a block from `alloc_block` (same `bytes`): the `dealloc` both surfaces export.
pub fn free_block(ptr: usize, bytes: usize) {
    if ptr == 0 {
        return;
    }
    if let Ok(l) = Layout::from_size_align(bytes.max(1), ALIGN) {
        // SAFETY: `ptr` came from `alloc_block` with this layout (the JS buffer keeps the pair together).
        unsafe { dealloc(ptr as *mut u8, l) }
    }
}

/// A buffer in linear memory: address and element count.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Buf {
    pub ptr: u32,
    pub len: u32,
}

impl Buf {
    /// SAFETY (all four): `ptr` came from `alloc` with room for `len` elements of the type (or `len` is 0), and no
    /// other live slice aliases a `_mut` one (JS passes distinct buffers for inputs and outputs).
    pub unsafe fn slice<'a, T>(self) -> &'a [T] {
        if self.len == 0 {
            return &[]; // JS passes 0/0 for "none"; a slice may not be built on a null pointer
        }
        slice::from_raw_parts(self.ptr as usize as *const T, self.len as usize)
    }
    pub unsafe fn slice_mut<'a, T>(self) -> &'a mut [T] {
        if self.len == 0 {
            return &mut [];
        }
        slice::from_raw_parts_mut(self.ptr as usize as *mut T, self.len as usize)
    }
    pub fn len(self) -> usize {
        self.len as usize
    }
}

#[repr(C)]
pub struct ValidateParentsJob {
    pub parents: Buf,
}

#[repr(C)]
pub struct ValidateAnimJob {
    pub flags: Buf,
    pub start_index: Buf,
    pub baseframe: Buf,
    pub component_count: u32,
}

#[repr(C)]
pub struct ValidateSkinJob {
    pub group_sizes: Buf,
    pub joints: Buf,
    pub weights: Buf,
    /// Empty for grouped output order.
    pub dest: Buf,
    pub joint_count: u32,
}

/// Frame `frame` of `frames` (component_count floats each) → local pose.
#[repr(C)]
pub struct ComposeJob {
    pub flags: Buf,
    pub start_index: Buf,
    pub baseframe: Buf,
    pub frames: Buf,
    pub out: Buf,
    pub component_count: u32,
    pub frame: u32,
}

#[repr(C)]
pub struct InterpolateJob {
    pub a: Buf,
    pub b: Buf,
    pub out: Buf,
    pub t: f32,
}

#[repr(C)]
pub struct LocalToObjectJob {
    pub parents: Buf,
    pub local: Buf,
    pub out: Buf,
}

#[repr(C)]
pub struct MatricesJob {
    pub object: Buf,
    pub out: Buf,
}

/// Joint matrices with each joint's 3×3 part times its scale (q2pro's `.md5scale`), into `out`.
#[repr(C)]
pub struct ScaleMatricesJob {
    pub matrices: Buf,
    pub scales: Buf,
    pub out: Buf,
}

/// Positions (weights `x·b y·b z·b b`) or normals (`nx·b ny·b nz·b 0`) of a grouped skin stream.
#[repr(C)]
pub struct SkinJob {
    pub matrices: Buf,
    pub group_sizes: Buf,
    pub joints: Buf,
    pub weights: Buf,
    /// Empty: grouped output order; else stream vertex i goes to slot dest[i].
    pub dest: Buf,
    pub out: Buf,
}

/// Several frames posed and skinned in one call: frame i's positions at `out[i · V · 3]`.
#[repr(C)]
pub struct SkinFramesJob {
    pub parents: Buf,         // ts: anim.parents
    pub flags: Buf,           // ts: anim.flags
    pub start_index: Buf,     // ts: anim.startIndex
    pub baseframe: Buf,       // ts: anim.baseframe
    pub frames: Buf,          // ts: anim.frames
    pub group_sizes: Buf,     // ts: skin.groupSizes
    pub joints: Buf,          // ts: skin.joints
    pub weights: Buf,         // ts: skin.weights
    pub dest: Buf,            // ts: skin.dest
    pub frame_indices: Buf,   // ts: frameIndices, length: frameCount
    pub local: Buf,           // ts: scratch.local
    pub object: Buf,          // ts: scratch.object
    pub matrices: Buf,        // ts: scratch.matrices
    pub out: Buf,
    pub component_count: u32, // ts: anim.componentCount
}

impl SkinFramesJob {
    /// Pose and skin the frames (see `idtech_core::batch::skin_frames`); false on a frame index past the anim or
    /// a short buffer. SAFETY: the job's buffers come from `alloc_block` (see `Buf`).
    pub unsafe fn run(&self) -> bool {
        let j = self;
        let n = j.parents.len();
        if j.flags.len() < n || j.start_index.len() < n || j.baseframe.len() < n * layout::BASEFRAME_STRIDE || j.matrices.len() < n * layout::MATRIX_STRIDE || j.weights.len() < j.joints.len() * layout::WEIGHT_STRIDE {
            return false;
        }
        let anim = batch::Anim {
            parents: j.parents.slice(),
            flags: &j.flags.slice::<u8>()[..n],
            start_index: &j.start_index.slice::<u32>()[..n],
            baseframe: j.baseframe.slice(),
            frames: j.frames.slice(),
            component_count: j.component_count as usize,
        };
        let stream = batch::Skin { group_sizes: j.group_sizes.slice(), joints: j.joints.slice(), weights: j.weights.slice(), dest: j.dest.slice() };
        let mut scratch = batch::Scratch { local: j.local.slice_mut(), object: j.object.slice_mut(), matrices: j.matrices.slice_mut() };
        batch::skin_frames(&anim, &stream, j.frame_indices.slice(), &mut scratch, j.out.slice_mut())
    }
}

/// Linear-blend-skinning indices checked against the joint count (see `idtech_core::validate::lbs`).
#[repr(C)]
pub struct ValidateLbsJob {
    pub indices: Buf,
    pub weights_u8: Buf,
    pub weights_f32: Buf,
    pub joint_count: u32,
}

/// IQM joints (translate, rotate, scale, parents) → bind and inverse bind matrices (12 floats each).
#[repr(C)]
pub struct IqmBindJob {
    pub parents: Buf,
    pub translate: Buf,
    pub rotate: Buf,
    pub scale: Buf,
    pub bind: Buf,
    pub inv_bind: Buf,
}

/// IQM frames a and b (uint16 channels) blended by t → every joint's skinning matrix (column-major, 16 floats).
#[repr(C)]
pub struct IqmPoseJob {
    pub parents: Buf,
    pub masks: Buf,
    pub offsets: Buf,
    pub scales: Buf,
    pub frames: Buf,
    pub bind: Buf,
    pub inv_bind: Buf,
    /// 2 · poses · 10 floats: the two decoded frames.
    pub scratch: Buf,
    pub out: Buf,
    pub frame_count: u32,
    pub frame_channels: u32,
    pub frame_a: u32,
    pub frame_b: u32,
    pub t: f32,
}

/// Several IQM frames posed and skinned in one call: frame i's positions at `out[i · V · 3]` (see
/// `idtech_core::iqm_batch::iqm_skin_frames`).
#[repr(C)]
pub struct IqmSkinFramesJob {
    pub parents: Buf,        // ts: pose.parents
    pub masks: Buf,          // ts: pose.masks
    pub offsets: Buf,        // ts: pose.offsets
    pub scales: Buf,         // ts: pose.scales
    pub frames: Buf,         // ts: pose.frames
    pub bind: Buf,           // ts: pose.bind
    pub inv_bind: Buf,       // ts: pose.invBind
    pub positions: Buf,      // ts: skin.positions
    pub indices: Buf,        // ts: skin.indices
    pub weights_u8: Buf,     // ts: skin.weightsU8
    pub weights_f32: Buf,    // ts: skin.weightsF32
    pub frame_indices: Buf,  // ts: frameIndices, length: frameCount
    pub scratch: Buf,
    pub matrices: Buf,
    pub out: Buf,
    pub anim_frames: u32,    // ts: pose.frameCount
    pub frame_channels: u32, // ts: pose.frameChannels
}

impl IqmSkinFramesJob {
    /// Pose and skin the frames; false on a frame index past the frames or a short buffer. SAFETY: the job's
    /// buffers come from `alloc_block` (see `Buf`).
    pub unsafe fn run(&self) -> bool {
        let j = self;
        let pose = iqm::IqmPoseInput {
            parents: j.parents.slice(),
            masks: j.masks.slice(),
            offsets: j.offsets.slice(),
            scales: j.scales.slice(),
            frames: j.frames.slice(),
            frame_count: j.anim_frames as usize,
            frame_channels: j.frame_channels as usize,
            bind: j.bind.slice(),
            inv_bind: j.inv_bind.slice(),
        };
        let skin = iqm_batch::IqmBakeSkin { positions: j.positions.slice(), indices: j.indices.slice(), weights_u8: j.weights_u8.slice(), weights_f32: j.weights_f32.slice() };
        iqm_batch::iqm_skin_frames(&pose, &skin, j.frame_indices.slice(), j.scratch.slice_mut(), j.matrices.slice_mut(), j.out.slice_mut())
    }
}

/// Bind-pose positions (normals, tangents: empty to skip) skinned by up to four joint matrices per vertex.
#[repr(C)]
pub struct LbsSkinJob {
    pub matrices: Buf,
    pub positions: Buf,
    pub normals: Buf,
    pub tangents: Buf,
    pub indices: Buf,
    /// 4 bytes per vertex (÷ 255); empty when `weights_f32` is given.
    pub weights_u8: Buf,
    pub weights_f32: Buf,
    pub out_positions: Buf,
    pub out_normals: Buf,
    pub out_tangents: Buf,
}

/// MD2: frames a and b blended by t into `vertex_count` outputs from vertex `out_vertex_offset`.
#[repr(C)]
pub struct Md2BlendJob {
    pub frames: Buf,
    pub scales: Buf,
    pub translates: Buf,
    pub normal_table: Buf,
    pub out_positions: Buf,
    pub out_normals: Buf,
    pub vertex_count: u32,
    pub out_vertex_offset: u32,
    pub frame_a: u32,
    pub frame_b: u32,
    pub t: f32,
}

/// MD3: one surface's frames a and b blended by t, as `Md2BlendJob`.
#[repr(C)]
pub struct Md3BlendJob {
    pub xyz_normals: Buf,
    pub normal_table: Buf,
    pub out_positions: Buf,
    pub out_normals: Buf,
    pub vertex_count: u32,
    pub out_vertex_offset: u32,
    pub frame_a: u32,
    pub frame_b: u32,
    pub t: f32,
}

/// Vertices `[first_vertex, first_vertex + vertex_count)` moved by a 3×4 placement, in place.
#[repr(C)]
pub struct TransformJob {
    pub matrix: Buf,
    pub positions: Buf,
    pub normals: Buf,
    pub first_vertex: u32,
    pub vertex_count: u32,
}

/// A crowd's joint palettes: the first `instance_count` instances, each at its own key pair and blend (see
/// `idtech_core::crowd::crowd_palettes`).
#[repr(C)]
pub struct CrowdPalettesJob {
    pub parents: Buf,
    pub inv_bind: Buf,
    pub keys: Buf,
    pub instance_keys: Buf,
    pub instance_blend: Buf,
    /// joints · 12 floats: the object matrices of the instance in hand.
    pub scratch: Buf,
    pub out: Buf,
    pub instance_count: u32,
}

impl CrowdPalettesJob {
    /// SAFETY: the job's buffers come from `alloc_block` (see `Buf`).
    pub unsafe fn run(&self) -> bool {
        let j = self;
        let sk = crowd::CrowdSkeleton { parents: j.parents.slice(), inv_bind: j.inv_bind.slice(), keys: j.keys.slice() };
        crowd::crowd_palettes(&sk, j.instance_keys.slice(), j.instance_blend.slice(), j.instance_count as usize, j.scratch.slice_mut(), j.out.slice_mut())
    }
}

//! Pure kernels for id Software models: no I/O, no allocation inside kernels, no unsafe outside the
//! SIMD loads (each of which reads from a slice whose length was checked first).
//!
//! Pipeline (each step a function with explicit inputs and outputs, mirrored name for name by
//! `ts/src/kernels/ts-kernels.ts` and `ts-morph-kernels.ts`; the WASM surface over them is `crates/wasm`, one job
//! descriptor per call):
//!   `compose_frame` (baseframe + animated components → local pose)
//!   → `interpolate_local` (two local poses → one, lerp + shortest-path slerp)
//!   → `local_to_object` (parent first)
//!   → `pose_matrices` (object pose → 3×4 row matrices, padded to 16 floats)
//!   → `skin_positions` / `skin_normals`;
//! and for the vertex-animated formats, `morph::md2_blend` / `morph::md3_blend` (two quantised frames →
//! float positions and normals) and `morph::transform_vertices` (a part placed by its tag, for Quake 3 players).
//!
//! Layouts (shared with TS: `layout.rs` is the source of `ts/src/kernels/layout.ts`): a joint pose is 8 f32 `tx ty tz 0 qx qy qz qw`; a joint
//! matrix is 16 f32, three rows `m·0 m·1 m·2 t·` then a zero row.

pub mod batch;
pub mod crowd;
pub mod iqm;
pub mod iqm_batch;
pub mod layout;
pub mod lbs;
pub mod morph;
pub mod pose;
pub mod quat;
pub mod skin;
pub mod validate;

pub use layout::{MATRIX_STRIDE, POSE_STRIDE, WEIGHT_STRIDE};

//! Memory layouts shared by the Rust kernels, the wasm surface and the TS kernels.

/// f32 per joint pose: `tx ty tz 0 qx qy qz qw` (the pad keeps the quaternion 16-byte aligned).
pub const POSE_STRIDE: usize = 8;
/// f32 per joint matrix: a row-major 3×4 (`m00 m01 m02 tx`, `m10 m11 m12 ty`, `m20 m21 m22 tz`) padded with
/// `0 0 0 0`, so each row is one SIMD vector dotted with a weight.
pub const MATRIX_STRIDE: usize = 16;
/// f32 per skinning weight: `x·b y·b z·b b` (position pre-scaled by bias, so the translation column is
/// scaled by the last lane); for normals `nx·b ny·b nz·b 0`.
pub const WEIGHT_STRIDE: usize = 4;
/// f32 per baseframe joint in an md5anim: `tx ty tz qx qy qz`.
pub const BASEFRAME_STRIDE: usize = 6;

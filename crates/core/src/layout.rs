//! Memory layouts shared by the Rust kernels, the wasm surface and the TS kernels.

/// f32 per joint pose: `tx ty tz 0 qx qy qz qw` (the pad keeps the quaternion 16-byte aligned).
pub const POSE_STRIDE: usize = 8;
/// f32 per joint matrix: columns `r0 r1 r2 t`, each `x y z 0`, so one SIMD lane-set per column.
pub const MATRIX_STRIDE: usize = 16;
/// f32 per skinning weight: `x·b y·b z·b b` (position pre-scaled by bias, so the translation column is
/// scaled by the last lane); for normals `nx·b ny·b nz·b 0`.
pub const WEIGHT_STRIDE: usize = 4;
/// f32 per baseframe joint in an md5anim: `tx ty tz qx qy qz`.
pub const BASEFRAME_STRIDE: usize = 6;

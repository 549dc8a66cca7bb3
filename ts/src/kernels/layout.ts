/** Memory layouts shared with the Rust kernels (`crates/core/src/layout.rs`): keep the two in step. */

/** Floats per joint pose: `tx ty tz 0 qx qy qz qw`. */
export const POSE_STRIDE = 8;
/** Floats per joint matrix: row-major 3×4 (`m·0 m·1 m·2 t·` × 3) padded with `0 0 0 0`. */
export const MATRIX_STRIDE = 16;
/** Floats per skinning weight: `x·b y·b z·b b` (normals: `nx·b ny·b nz·b 0`). */
export const WEIGHT_STRIDE = 4;
/** Floats per md5anim baseframe joint: `tx ty tz qx qy qz`. */
export const BASEFRAME_STRIDE = 6;

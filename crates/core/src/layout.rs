//! Memory layouts and constants shared by the Rust kernels, the wasm surface and the TS kernels. This file is
//! the one source: `scripts/gen-layout.mjs` writes `ts/src/kernels/layout.ts` from it (and from the job
//! descriptors of `crates/wasm/src/jobs.rs`); a test checks the TS file is up to date.

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
/// f32 of a part placement (`transform_vertices`): a row-major 3×4 without the pad row.
pub const PLACEMENT_FLOATS: usize = 12;
/// MD2 vertex record in a frame: x, y, z bytes and a normal index.
pub const MD2_VERTEX_BYTES: usize = 4;
/// MD3 vertex record: int16 x, y, z and the packed lat/lng normal.
pub const MD3_VERTEX_SHORTS: usize = 4;
/// MD3 positions are stored as int16 × 64 (ioquake3 qfiles.h MD3_XYZ_SCALE).
pub const MD3_XYZ_SCALE: f32 = 1.0 / 64.0;
/// f32 per entry of the MD2 normal table the kernels read: `x y z 0` (one SIMD vector per normal).
pub const MD2_NORMAL_TABLE_STRIDE: usize = 4;
/// Entries of that table: one per byte value. Quake 2's 162 normals, then the last one repeated (the clamp the
/// kernels apply to an index past the table), so any index byte is one unchecked vector load.
pub const MD2_NORMAL_TABLE_ENTRIES: usize = 256;
/// The MD3 angle table: for the 256 angle steps k·2π/256, first `cos sin 1 0` (latitude), then `sin sin cos 0`
/// (longitude); a packed lat/lng normal is the product of its latitude and longitude entries.
pub const MD3_NORMAL_TABLE_LEN: usize = 2048;
/// f32 of the decoded MD3 normal table the kernels read: `x y z 0` for each of the 65536 packed lat/lng values (the
/// products above, in f32), so any packed normal is one unchecked vector load. 1 MiB, built at run time.
pub const MD3_DECODED_NORMALS_LEN: usize = 65536 * 4;
/// Channels of an IQM pose: translate xyz, rotate xyzw, scale xyz (iqm.h).
pub const IQM_CHANNELS: usize = 10;
/// f32 per IQM bind (or inverse bind) matrix: ioquake3's row-major 3×4 (`m00 m01 m02 tx`, `m10 …`, `m20 …`).
pub const IQM_BIND_STRIDE: usize = 12;
/// f32 per linear-blend-skinning joint matrix: column-major 4×4 as glTF stores it (columns `x y z w`: the three axes
/// then the translation); the kernels read the top three rows, so an IQM pose matrix (w lanes 0 0 0 1) and a glTF
/// joint matrix are both taken as they are.
pub const LBS_MATRIX_STRIDE: usize = 16;
/// f32 per joint per key of a crowd's clips (`crowd::crowd_palettes`): translation xyz, unit rotation xyzw, scale
/// xyz — a skinned view's sampled clip (`formats/model-view.ts` `SkinnedClipView`), key-major, joints in order.
pub const CROWD_KEY_STRIDE: usize = 10;
/// f32 per joint of a crowd's palette: a row-major 3×4 skinning matrix (`m00 m01 m02 tx`, `m10 …`, `m20 …`), three
/// RGBA texels of a float texture as they are — what GPU skinning reads per joint per instance.
pub const CROWD_PALETTE_STRIDE: usize = 12;
/// u32 per instance of a crowd's key pairs (`key_a key_b`, global key indices); its blends are as many f32
/// (`t` for translation and rotation, `ts` for scale: 0 where a clip's scale steps rather than lerps).
pub const CROWD_INSTANCE_STRIDE: usize = 2;

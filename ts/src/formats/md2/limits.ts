/**
 * Hard limits of the MD2 reader. Every header count is checked against these BEFORE anything is allocated.
 *
 * The first five are Quake 2's own (`qcommon/qfiles.h`: MAX_TRIANGLES, MAX_VERTS, MAX_FRAMES, MAX_MD2SKINS,
 * MAX_SKINNAME); the engine asserts almost none of them at load, we reject every file past them. `maxSt` and
 * `maxGlCommandWords` have no qfiles.h name: texcoords are bounded like vertices, and 16384 command words is the
 * MAX_GLCMDS of later engines and tools built on the format (far above what qdata emits for 4096 triangles).
 */
export const LIMITS = {
  /** num_tris (MAX_TRIANGLES). */
  maxTriangles: 4096,
  /** num_xyz (MAX_VERTS). */
  maxVertices: 2048,
  /** num_frames (MAX_FRAMES). */
  maxFrames: 512,
  /** num_skins (MAX_MD2SKINS). */
  maxSkins: 32,
  /** Bytes per skin name record (MAX_SKINNAME). */
  skinNameBytes: 64,
  /** num_st. */
  maxSt: 2048,
  /** num_glcmds, in 32-bit words. */
  maxGlCommandWords: 16384,
  /** skinwidth and skinheight: at least 1 (texcoords are divided by them), at most this. */
  maxSkinSize: 1 << 15,
} as const;

/** Fixed record sizes of the format, in bytes. */
export const MD2_HEADER_BYTES = 68;
export const MD2_ST_BYTES = 4;
export const MD2_TRIANGLE_BYTES = 12;
/** scale[3], translate[3], name[16] before a frame's vertices. */
export const MD2_FRAME_HEADER_BYTES = 40;
export const MD2_FRAME_NAME_BYTES = 16;
export const MD2_VERTEX_BYTES = 4;
/** One glcmd vertex: float s, float t, int32 vertex index. */
export const MD2_GLCMD_VERTEX_BYTES = 12;

/** Largest legal `framesize`: a frame of `maxVertices` vertices. Padding beyond 40 + 4·num_xyz is allowed up to this. */
export const MAX_FRAME_BYTES = MD2_FRAME_HEADER_BYTES + MD2_VERTEX_BYTES * LIMITS.maxVertices;

/**
 * Largest legal `ofs_end`: the header plus every block at its limit. Blocks may not overlap (checked), so no valid
 * file is larger; a streamed file is never buffered past this.
 */
export const MAX_FILE_BYTES =
  MD2_HEADER_BYTES +
  LIMITS.maxSkins * LIMITS.skinNameBytes +
  LIMITS.maxSt * MD2_ST_BYTES +
  LIMITS.maxTriangles * MD2_TRIANGLE_BYTES +
  LIMITS.maxFrames * MAX_FRAME_BYTES +
  LIMITS.maxGlCommandWords * 4;

/**
 * Quake 2's MD2 limits and the format's record sizes. Each limit was checked against the engine's own loader
 * (`ref_gl/gl_model.c` and `ref_soft/r_model.c` Mod_LoadAliasModel, which check the same fields; the table with the
 * conditions is docs/limits.md). A file Quake 2 loads must load here, so only one of these is an error:
 *
 * - `maxVertices` (num_xyz > MAX_VERTS): the loader refuses it, and so do we (BAD_COUNT);
 * - every other limit becomes an ENGINE_LIMIT warning that names it: qfiles.h limits the loader never checks
 *   (MAX_TRIANGLES, MAX_FRAMES, MAX_MD2SKINS), and the two it does check but that other engines on the format do
 *   not share (MAX_LBM_HEIGHT; the 2 MiB model hunk) — real files (AssaultCube's 512×512 skins) go past them.
 *
 * num_st, num_glcmds and framesize have no engine limit at all. Memory does not depend on any of these: the header
 * check makes every declared count × record size fit in the file's bytes before anything is allocated.
 */
export const LIMITS = {
  /** num_xyz: `num_xyz > MAX_VERTS` is refused by Mod_LoadAliasModel (s_lerped[MAX_VERTS] in gl_mesh.c) — BAD_COUNT. */
  maxVertices: 2048,
  /** num_tris: MAX_TRIANGLES (qfiles.h), qdata's limit; the loader does not check it — warning. */
  maxTriangles: 4096,
  /** num_frames: MAX_FRAMES (qfiles.h); not checked by the loader — warning. */
  maxFrames: 512,
  /** num_skins: MAX_MD2SKINS; the loader fills model_t.skins[MAX_MD2SKINS] without checking — warning. */
  maxSkins: 32,
  /** Bytes per skin name record (MAX_SKINNAME). */
  skinNameBytes: 64,
  /** skinheight: `skinheight > MAX_LBM_HEIGHT` (ref_gl/gl_local.h) is refused by Mod_LoadAliasModel — warning. */
  maxSkinHeight: 480,
  /**
   * ofs_end: Mod_ForName reserves `Hunk_Begin (0x200000)` for an alias model and Mod_LoadAliasModel takes
   * `Hunk_Alloc (ofs_end)` from it; past 2 MiB that is a fatal "Hunk_Alloc overflow" — warning.
   */
  maxFileBytes: 0x200000,
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
/** One glcmd word (a count, s, t or index). */
export const MD2_GLCMD_WORD_BYTES = 4;

/**
 * Quake 3's MD3 limits, each checked against ioquake3's own loader (`code/renderergl1/tr_model.c` and
 * `code/renderergl2/tr_model.c` R_LoadMD3, which check the same fields; the table is docs/limits.md).
 *
 * R_LoadMD3 refuses only three things about counts: numFrames < 1, a surface's `numVerts >= SHADER_MAX_VERTEXES` and
 * `numTriangles * 3 >= SHADER_MAX_INDEXES` (the tessellator's buffers). The qfiles.h MD3_MAX_* limits are never
 * checked by it. So:
 * - numFrames < 1 is BAD_COUNT, as in the engine;
 * - MD3_MAX_VERTS and MD3_MAX_TRIANGLES (per surface) stay errors: they are the format's own caps, and the engine
 *   refuses every such surface already (at 1000 vertices / 2000 triangles);
 * - from SHADER_MAX_VERTEXES / SHADER_MAX_INDEXES up to those caps a surface loads with an ENGINE_LIMIT warning —
 *   the engine refuses it, forks with larger tessellator buffers do not;
 * - MD3_MAX_FRAMES, MD3_MAX_TAGS, MD3_MAX_SURFACES and MD3_MAX_SHADERS, which the engine loads past, are warnings.
 * Memory does not depend on any of these: every declared count × record size must fit in the file's bytes.
 */
export const MD3_LIMITS = {
  /** Header `numFrames`: MD3_MAX_FRAMES — warning past it (must be ≥ 1: R_LoadMD3 "has no frames"). */
  maxFrames: 1024,
  /** Header `numTags`: MD3_MAX_TAGS (tags per frame) — warning. */
  maxTags: 16,
  /** Header `numSurfaces`: MD3_MAX_SURFACES — warning. */
  maxSurfaces: 32,
  /** Surface `numShaders`: MD3_MAX_SHADERS — warning. */
  maxShadersPerSurface: 256,
  /** Surface `numVerts`: MD3_MAX_VERTS — BAD_COUNT past it. */
  maxVertsPerSurface: 4096,
  /** Surface `numTriangles`: MD3_MAX_TRIANGLES — BAD_COUNT past it. */
  maxTrianglesPerSurface: 8192,
  /** SHADER_MAX_VERTEXES (qfiles.h): R_LoadMD3 refuses `numVerts >= SHADER_MAX_VERTEXES` — warning. */
  shaderMaxVertexes: 1000,
  /** SHADER_MAX_INDEXES = 6 × SHADER_MAX_VERTEXES: R_LoadMD3 refuses `numTriangles * 3 >= SHADER_MAX_INDEXES` — warning. */
  shaderMaxIndexes: 6000,
} as const;

/**
 * The largest `ofsEnd`: its int32 field's (ioquake3 has no file-size limit; R_LoadMD3 takes `Hunk_Alloc (ofsEnd)`).
 * Kept as a named bound for callers; the stream parser never buffers past `ofsEnd`, and grows its buffer only as
 * bytes actually arrive.
 */
export const MD3_MAX_FILE_BYTES = 0x7fffffff;

/**
 * MDC's limits, each the engine's: ET: Legacy's renderer (`src/renderer/tr_model.c` R_LoadMDC, the loader RTCW's and
 * ET's share) refuses a file whose version is not 2 or that has no frames, and drops the game (Ren_Drop) on a surface
 * with more vertices than the tessellator holds (`numVerts > SHADER_MAX_VERTEXES`) or more indexes
 * (`numTriangles * 3 > SHADER_MAX_INDEXES`) — ET: Legacy's qfiles.h sets those to 10000 and 60000 (ET 2.60 had 1025
 * and 6150: an ENGINE_LIMIT warning past those). qfiles.h declares no MDC_MAX_* of its own and R_LoadMDC checks none
 * of MD3's (frames, tags, surfaces, shaders): memory stays proportional because every declared count × record size
 * must fit in the file's bytes, and what the decoded frames take is bounded by `maxMdcFrameBytes`
 * (base/resource-limits.ts).
 */
export const MDC_LIMITS = {
  /** ET: Legacy SHADER_MAX_VERTEXES: R_LoadMDC drops on `numVerts >` this — BAD_COUNT. */
  shaderMaxVertexes: 10000,
  /** ET: Legacy SHADER_MAX_INDEXES (6 × SHADER_MAX_VERTEXES): R_LoadMDC drops on `numTriangles * 3 >` this — BAD_COUNT. */
  shaderMaxIndexes: 60000,
  /** Enemy Territory 2.60's SHADER_MAX_VERTEXES (1025): past it an ENGINE_LIMIT warning (ET: Legacy loads it). */
  etShaderMaxVertexes: 1025,
  /** Enemy Territory 2.60's SHADER_MAX_INDEXES (6 × 1025). */
  etShaderMaxIndexes: 6150,
} as const;

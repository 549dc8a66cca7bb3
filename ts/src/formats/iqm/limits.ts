/**
 * Limits of the engines that read IQM, each from the engine's own loader; none is enforced here (a file one engine
 * loads loads here), each is an ENGINE_LIMIT warning naming the engine (`engine-limits.ts`). Memory does not depend
 * on any of them: every declared count × record size must fit in the file's own bytes.
 */
export const IQM_LIMITS = {
  /** ioquake3 `code/renderergl*\/tr_model_iqm.c` R_LoadIQM: `header->filesize > 16 << 20` refuses the model. */
  ioq3MaxFileBytes: 16 << 20,
  /** ioquake3 `qcommon/iqm.h` IQM_MAX_JOINTS: R_LoadIQM refuses `num_joints > IQM_MAX_JOINTS`. */
  ioq3MaxJoints: 128,
  /** ioquake3 SHADER_MAX_VERTEXES: R_LoadIQM refuses a mesh with `num_vertexes >= SHADER_MAX_VERTEXES`. */
  ioq3ShaderMaxVertexes: 1000,
  /** ioquake3 SHADER_MAX_INDEXES (6 × 1000): R_LoadIQM refuses a mesh with `num_triangles * 3 >= SHADER_MAX_INDEXES`. */
  ioq3ShaderMaxIndexes: 6000,
} as const;

/**
 * Hard limits of the MD3 parser: the engine's own caps from ioquake3 `code/qcommon/qfiles.h` (MD3_MAX_FRAMES,
 * MD3_MAX_TAGS, MD3_MAX_SURFACES, MD3_MAX_SHADERS, MD3_MAX_VERTS, MD3_MAX_TRIANGLES). Every count in a header is
 * checked against these before anything is allocated for it (BAD_COUNT otherwise).
 */
import { FRAME_BYTES, HEADER_BYTES, SHADER_BYTES, ST_BYTES, SURFACE_HEADER_BYTES, TAG_BYTES, TRIANGLE_BYTES, XYZ_NORMAL_BYTES } from './format.js';

export const MD3_LIMITS = {
  /** Header `numFrames` (at least 1: the engine refuses a model without frames). Surfaces must repeat it. */
  maxFrames: 1024,
  /** Header `numTags`: tags per frame. */
  maxTags: 16,
  /** Header `numSurfaces`. */
  maxSurfaces: 32,
  /** Surface `numShaders`. */
  maxShadersPerSurface: 256,
  /** Surface `numVerts`. */
  maxVertsPerSurface: 4096,
  /** Surface `numTriangles`. */
  maxTrianglesPerSurface: 8192,
} as const;

const L = MD3_LIMITS;

/**
 * The largest file the limits allow (about 1 GiB): header `ofsEnd` above this is BAD_OFFSET. The stream parser
 * never buffers past `ofsEnd`, and grows its buffer only as bytes actually arrive.
 */
export const MD3_MAX_FILE_BYTES =
  HEADER_BYTES +
  L.maxFrames * FRAME_BYTES +
  L.maxFrames * L.maxTags * TAG_BYTES +
  L.maxSurfaces *
    (SURFACE_HEADER_BYTES +
      L.maxShadersPerSurface * SHADER_BYTES +
      L.maxTrianglesPerSurface * TRIANGLE_BYTES +
      L.maxVertsPerSurface * ST_BYTES +
      L.maxVertsPerSurface * L.maxFrames * XYZ_NORMAL_BYTES);

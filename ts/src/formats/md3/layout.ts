/**
 * The MD3 binary layout (ioquake3 `qfiles.h`; see ../shared/specs/GROUND-TRUTH.md beside the repository — the 1999 fan document is
 * wrong about the header, the block order, the frame record and the vertex). Little-endian throughout.
 * Record sizes and the byte offsets of the header fields, so errors can name the exact field at fault.
 */

export const MD3_IDENT = 'IDP3';
export const MD3_VERSION = 15;

/** Bytes of a name field (MAX_QPATH) in the header, tags, surfaces and shaders. */
export const QPATH_BYTES = 64;
/** Bytes of a frame's name. */
export const FRAME_NAME_BYTES = 16;

export const HEADER_BYTES = 108;
/** mins[3], maxs[3], localOrigin[3], radius, name[16]. */
export const FRAME_BYTES = 56;
/** name[64], origin[3], axis[3][3]. */
export const TAG_BYTES = 112;
export const SURFACE_HEADER_BYTES = 108;
/** name[64], int32 index. */
export const SHADER_BYTES = 68;
export const TRIANGLE_BYTES = 12;
export const ST_BYTES = 8;
/** int16 x, y, z, packed normal. */
export const XYZ_NORMAL_BYTES = 8;

/** Byte offsets of the file header's fields. */
export const H = {
  ident: 0,
  version: 4,
  name: 8,
  flags: 72,
  numFrames: 76,
  numTags: 80,
  numSurfaces: 84,
  numSkins: 88,
  ofsFrames: 92,
  ofsTags: 96,
  ofsSurfaces: 100,
  ofsEnd: 104,
} as const;

/** Byte offsets of a surface header's fields, from the surface's start. Note ofsTriangles before ofsShaders. */
export const S = {
  ident: 0,
  name: 4,
  flags: 68,
  numFrames: 72,
  numShaders: 76,
  numVerts: 80,
  numTriangles: 84,
  ofsTriangles: 88,
  ofsShaders: 92,
  ofsSt: 96,
  ofsXyzNormals: 100,
  ofsEnd: 104,
} as const;

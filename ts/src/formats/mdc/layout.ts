/**
 * The MDC binary layout: RTCW / Wolfenstein: Enemy Territory's compressed MD3 (`IDPC` version 2), as ET: Legacy's
 * `src/qcommon/qfiles.h` declares it (mdcHeader_t, mdcSurface_t, mdcTag_t, mdcTagName_t, mdcXyzCompressed_t; the
 * frame, shader, triangle, st and base-vertex records are MD3's). Little-endian throughout. Record sizes and the byte
 * offsets of the header fields, so errors can name the exact field at fault.
 */

export const MDC_IDENT = 'IDPC';
/** Version 2: tag names stored once (mdcTagName_t), not per frame (version 1). */
export const MDC_VERSION = 2;

/** Bytes of a name field (MAX_QPATH): header, surfaces, shaders, tag names. */
export const QPATH_BYTES = 64;
export const FRAME_NAME_BYTES = 16;

export const HEADER_BYTES = 112;
/** md3Frame_t: mins[3], maxs[3], localOrigin[3], radius, name[16]. */
export const FRAME_BYTES = 56;
/** mdcTagName_t: name[64]. */
export const TAG_NAME_BYTES = 64;
/** mdcTag_t: int16 xyz[3] (×1/64), int16 angles[3] (× MDC_TAG_ANGLE_SCALE degrees: pitch, yaw, roll). */
export const TAG_BYTES = 12;
export const SURFACE_HEADER_BYTES = 124;
/** md3Shader_t: name[64], int32 index. */
export const SHADER_BYTES = 68;
export const TRIANGLE_BYTES = 12;
export const ST_BYTES = 8;
/** md3XyzNormal_t of a base frame: int16 x, y, z (×1/64), packed lat/lng normal. */
export const XYZ_NORMAL_BYTES = 8;
/** mdcXyzCompressed_t: one uint32 — 8 bits per axis of offset from the base frame, the normal's table index on top. */
export const XYZ_COMPRESSED_BYTES = 4;
/** frameBaseFrames / frameCompFrames entries: int16. */
export const FRAME_INDEX_BYTES = 2;

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
  ofsTagNames: 96,
  ofsTags: 100,
  ofsSurfaces: 104,
  ofsEnd: 108,
} as const;

/** Byte offsets of a surface header's fields, from the surface's start (numCompFrames before numBaseFrames). */
export const S = {
  ident: 0,
  name: 4,
  flags: 68,
  numCompFrames: 72,
  numBaseFrames: 76,
  numShaders: 80,
  numVerts: 84,
  numTriangles: 88,
  ofsTriangles: 92,
  ofsShaders: 96,
  ofsSt: 100,
  ofsXyzNormals: 104,
  ofsXyzCompressed: 108,
  ofsFrameBaseFrames: 112,
  ofsFrameCompFrames: 116,
  ofsEnd: 120,
} as const;

/** MD3_XYZ_SCALE: a base frame's int16 and a tag's xyz are in 1/64 units. */
export const XYZ_SCALE = 0.015625; // 1 / 64, as a literal: a division at the top level is work a bundler must keep
/** MDC_DIST_SCALE: one step of a compressed offset, in units (tr_local.h). */
export const MDC_DIST_SCALE = 0.05;
/** MDC_MAX_OFS: the stored byte of an offset axis is offset / MDC_DIST_SCALE + 127. */
export const MDC_MAX_OFS = 127;
/** MDC_TAG_ANGLE_SCALE (qfiles.h): a tag's int16 angle × this is degrees. */
export const MDC_TAG_ANGLE_SCALE = 0.011009174311926606; // 360 / 32700, as a literal (see XYZ_SCALE)

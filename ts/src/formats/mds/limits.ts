/**
 * What RtCW's and ET's engines say about an MDS file (`qfiles.h`, RtCW GPL source and ET: Legacy, which keep it
 * unchanged): its ident and version, the record sizes of its structs, and its `MDS_MAX_*` limits. The renderer's
 * bone arrays are `MDS_MAX_BONES` long (`bones[MDS_MAX_BONES]` in tr_animation.c) and its collapse array
 * `MDS_MAX_VERTS` (`collapse[MDS_MAX_VERTS]` in RB_SurfaceAnim): a file past those cannot be drawn and is refused.
 * The surface, triangle and tag limits are the format's declared sizes no loader array depends on: a file past them
 * reads with an ENGINE_LIMIT warning naming the limit.
 */
export const MDS_IDENT = 0x5753444d; // "MDSW" little-endian
export const MDS_VERSION = 4;

export const MDS_MAX = {
  VERTS: 6000,
  TRIANGLES: 8192,
  BONES: 128,
  SURFACES: 32,
  TAGS: 128,
} as const;

/** `BONEFLAG_TAG`: the bone is a tag (its torso rotation is applied to its axes, not as a matrix product). */
export const BONEFLAG_TAG = 1;

/** Record sizes (bytes) of qfiles.h's structs. */
export const MDS_SIZE = {
  header: 120, // mdsHeader_t
  /** mdsFrame_t without its bones: bounds[2], localOrigin, radius, parentOffset. */
  frame: 52,
  /** mdsBoneFrameCompressed_t: angles[4] (the 4th unused), ofsAngles[2], all shorts. */
  boneFrame: 12,
  bone: 80, // mdsBoneInfo_t
  surface: 176, // mdsSurface_t
  /** mdsVertex_t without its weights: normal, texCoords, numWeights, fixedParent, fixedDist. */
  vertex: 32,
  weight: 20, // mdsWeight_t
  triangle: 12,
  tag: 72, // mdsTag_t
} as const;

/** qfiles.h MAX_QPATH: every name field's size. */
export const MAX_QPATH = 64;

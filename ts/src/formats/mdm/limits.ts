/**
 * What Enemy Territory's engine says about an MDM (`MDMW` version 3: the mesh, its weights and tags) and an MDX
 * (`MDXW` version 2: the skeleton and its frames, shared by many meshes) — `qfiles.h` of the ET GPL source, kept by
 * ET: Legacy. The renderer's bone arrays are `MDX_MAX_BONES` long and its collapse array `MDM_MAX_VERTS`: a file past
 * those is refused; the surface, triangle and tag limits only qfiles.h declares are ENGINE_LIMIT warnings.
 */
export const MDM_IDENT = 0x574d444d; // "MDMW"
export const MDM_VERSION = 3;
export const MDX_IDENT = 0x5758444d; // "MDXW"
export const MDX_VERSION = 2;

export const MDM_MAX = { VERTS: 6000, TRIANGLES: 8192, SURFACES: 32, TAGS: 128 } as const;
export const MDX_MAX_BONES = 128;

/** Record sizes (bytes) of qfiles.h's structs. */
export const MDM_SIZE = {
  header: 100, // mdmHeader_t
  surface: 176, // mdmSurface_t
  /** mdmVertex_t without its weights: normal, texCoords, numWeights. */
  vertex: 24,
  weight: 20, // mdmWeight_t
  triangle: 12,
  /** mdmTag_t: name, axis[3], boneIndex, offset, numBoneReferences, ofsBoneReferences, ofsEnd. */
  tag: 128,
} as const;

export const MDX_SIZE = {
  header: 96, // mdxHeader_t
  frame: 52, // mdxFrame_t
  boneFrame: 12, // mdxBoneFrameCompressed_t
  bone: 80, // mdxBoneInfo_t
} as const;

export const MAX_QPATH = 64;

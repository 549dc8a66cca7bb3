/**
 * What Half-Life's engine says about a studio model's sizes: the record sizes of `studio.h` (Half-Life SDK
 * engine/studio.h, version 10) and its `MAXSTUDIO*` limits. Only what the engine itself cannot hold is refused
 * (its bone arrays are MAXSTUDIOBONES long: `bonetransform[MAXSTUDIOBONES]` in StudioModelRenderer and r_studio.c);
 * the other limits are studiomdl's and GoldSrc's drawing arrays, which Xash3D-FWGS raised — a file past them loads
 * here with an ENGINE_LIMIT warning naming the limit.
 */
export const IDST = 0x54534449; // "IDST" little-endian
export const IDSQ = 0x51534449; // "IDSQ"
export const STUDIO_VERSION = 10;

/** studioseqhdr_t's 76 bytes: what every studio file (a model or a sequence group) begins with. */
export const SEQ_HEADER_BYTES = 76;

/** Record sizes (bytes) of studio.h's structs. */
export const SIZE = {
  header: 244, // studiohdr_t
  seqHeader: 76, // studioseqhdr_t
  bone: 112, // mstudiobone_t
  controller: 24, // mstudiobonecontroller_t
  hitbox: 32, // mstudiobbox_t
  sequence: 176, // mstudioseqdesc_t
  event: 76, // mstudioevent_t
  pivot: 20, // mstudiopivot_t
  seqGroup: 104, // mstudioseqgroup_t
  texture: 80, // mstudiotexture_t
  bodyPart: 76, // mstudiobodyparts_t
  model: 112, // mstudiomodel_t
  mesh: 20, // mstudiomesh_t
  attachment: 88, // mstudioattachment_t
  anim: 12, // mstudioanim_t: 6 unsigned short offsets
} as const;

/** Half-Life SDK studio.h. */
export const MAXSTUDIO = {
  TRIANGLES: 20000,
  VERTS: 2048,
  SEQUENCES: 2048,
  SKINS: 100,
  BONES: 128,
  MODELS: 32,
  BODYPARTS: 32,
  GROUPS: 16,
  MESHES: 256,
  EVENTS: 1024,
  PIVOTS: 256,
  CONTROLLERS: 8,
} as const;

/** mstudiotexture_t flags (studio.h STUDIO_NF_*). */
export const TEXTURE_FLAG_NAMES: readonly [number, string][] = [
  [1 << 0, 'flatshade'],
  [1 << 1, 'chrome'],
  [1 << 2, 'fullbright'],
  [1 << 3, 'nomips'],
  [1 << 4, 'alpha'],
  [1 << 5, 'additive'],
  [1 << 6, 'masked'],
];
export const NF_CHROME = 1 << 1;
export const NF_ADDITIVE = 1 << 5;
export const NF_MASKED = 1 << 6;

/** Xash3D-FWGS's extension flags of studiohdr_t.flags (its studio.h), named so a file using them says so. */
export const MODEL_FLAG_NAMES: readonly [number, string][] = [
  [1 << 0, 'rocket'],
  [1 << 1, 'grenade'],
  [1 << 2, 'gib'],
  [1 << 3, 'rotate'],
  [1 << 4, 'tracer'],
  [1 << 5, 'zomgib'],
  [1 << 6, 'tracer2'],
  [1 << 7, 'tracer3'],
  [1 << 8, 'dynamic lights'],
  [1 << 9, 'trace hitbox'],
  [1 << 10, 'force skylight (Xash3D)'],
  [1 << 12, 'bone weights (Xash3D: not applied here)'],
  [1 << 13, 'half-float uvs (Xash3D: not read here)'],
];
/** Xash3D's STUDIO_HAS_BONEWEIGHTS and STUDIO_HAS_BONEINFO: data this reader does not apply, warned of. */
export const XASH_UNSUPPORTED = (1 << 12) | (1 << 13);

/** Sequence flags and motion types (studio.h). */
export const STUDIO_LOOPING = 1;
export const MOTION_NAMES: readonly [number, string][] = [
  [0x1, 'X'], [0x2, 'Y'], [0x4, 'Z'], [0x8, 'XR'], [0x10, 'YR'], [0x20, 'ZR'], [0x40, 'LX'], [0x80, 'LY'], [0x100, 'LZ'], [0x200, 'AX'], [0x400, 'AY'], [0x800, 'AZ'], [0x1000, 'AXR'], [0x2000, 'AYR'], [0x4000, 'AZR'], [0x8000, 'RLOOP'],
];

export const flagNames = (flags: number, names: readonly [number, string][]): string[] => {
  const out = names.filter(([bit]) => (flags & bit) !== 0).map(([, n]) => n);
  const known = names.reduce((m, [bit]) => m | bit, 0);
  const rest = flags & ~known;
  if (rest) out.push(`0x${(rest >>> 0).toString(16)}`);
  return out;
};

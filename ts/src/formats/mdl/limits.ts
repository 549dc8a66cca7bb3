/**
 * Quake's MDL record sizes and the engines' limits. Each limit was read in the engines' own loaders
 * (docs/mdl.md has the table with function names):
 *
 * - refused here (BAD_COUNT) only where no engine read loads the file: every engine refuses a version other than
 *   its own, no vertices or no frames; DarkPlaces (model_alias.c Mod_IDP0_Load, `BOUNDI(…, 0, 65536)`) refuses
 *   numskins, skinwidth, skinheight, numverts and numframes of 65536 or more, and every other engine read refuses
 *   far less;
 * - every tighter limit is an ENGINE_LIMIT warning naming the engine that refuses (`engine-limits.ts`).
 *
 * Memory never depends on these: every record is read only once its bytes have arrived (`layout.ts`).
 */
export const MDL_LIMITS = {
  /** DarkPlaces' BOUNDI upper bound (exclusive) on numskins, skinwidth, skinheight, numverts, numtris, numframes. */
  darkplacesBound: 65536,
  /** Ironwail gl_model.h MAXALIASVERTS (0x7fff: 16-bit index buffer with onseam duplication): `numverts > MAXALIASVERTS` is refused. */
  ironwailMaxVertices: 0x7fff,
  /** Ironwail MAXALIASFRAMES: `posenum >= MAXALIASFRAMES` is refused (Mod_LoadAliasFrame / Mod_LoadAliasGroup). */
  ironwailMaxPoses: 1024,
  /** QuakeSpasm MAXALIASVERTS (johnfitz: was 1024); also WinQuake r_local.h's software MAXALIASVERTS. */
  quakespasmMaxVertices: 2000,
  /** QuakeSpasm MAXALIASTRIS (ericw: was 2048). */
  quakespasmMaxTriangles: 4096,
  /** QuakeSpasm and GLQuake MAXALIASFRAMES: the poses a model may hold. */
  quakespasmMaxPoses: 256,
  /** GLQuake gl_model.h MAXALIASVERTS. */
  glquakeMaxVertices: 1024,
  /** GLQuake gl_model.h MAXALIASTRIS. */
  glquakeMaxTriangles: 2048,
  /** MAX_SKINS (QuakeSpasm, Ironwail, QuakeForge Mod_LoadAllSkins: `numskins < 1 || numskins > MAX_SKINS`). */
  maxSkins: 32,
  /** MAX_LBM_HEIGHT: WinQuake, GLQuake, QuakeForge and uHexen2 refuse a taller skin; QuakeSpasm and Ironwail only warn. */
  maxSkinHeight: 480,
} as const;

/** ident, version, scale[3], scale_origin[3], boundingradius, eyeposition[3], 8 ints, size: mdl_t. */
export const MDL_HEADER_BYTES = 84;
/** Hexen II's newmdl_t: mdl_t and num_st_verts. */
export const RAPO_HEADER_BYTES = 88;
/** stvert_t: onseam, s, t. */
export const MDL_ST_BYTES = 12;
/** dtriangle_t: facesfront, vertindex[3] (int32); Hexen II's dnewtriangle_t: facesfront, 3 + 3 uint16: also 16. */
export const MDL_TRIANGLE_BYTES = 16;
/** daliasframe_t: bboxmin, bboxmax (trivertx_t), name[16]. */
export const MDL_POSE_HEADER_BYTES = 24;
export const MDL_POSE_NAME_BYTES = 16;
/** trivertx_t: v[3], lightnormalindex. */
export const MDL_VERTEX_BYTES = 4;
/** daliasgroup_t: numframes, bboxmin, bboxmax. */
export const MDL_FRAME_GROUP_BYTES = 12;

/** anorms.h's NUMVERTEXNORMALS: lightnormalindex names one of these (the table MD2 shares: kernels/quake-normals.ts). */
export const MDL_NORMAL_COUNT = 162;

/** Little-endian int32 of the four magic bytes. */
export const MDL_IDENT = { IDPO: 0x4f504449, MD16: 0x3631444d, RAPO: 0x4f504152 } as const;
export const MDL_VERSION = 6;
/** Hexen II ALIAS_NEWVERSION. */
export const RAPO_VERSION = 50;

/** Byte offset of each header field. */
export const MDL_FIELD = {
  ident: 0,
  version: 4,
  scale: 8,
  origin: 20,
  radius: 32,
  eyePosition: 36,
  skinCount: 48,
  skinWidth: 52,
  skinHeight: 56,
  vertexCount: 60,
  triangleCount: 64,
  frameCount: 68,
  synctype: 72,
  flags: 76,
  size: 80,
  /** RAPO only. */
  stCount: 84,
} as const;

/** The entity effect bits of `flags` (gl_model.h EF_*), for reports and glTF extras. */
export const MDL_FLAG_NAMES: readonly [number, string][] = [
  [1, 'EF_ROCKET'],
  [2, 'EF_GRENADE'],
  [4, 'EF_GIB'],
  [8, 'EF_ROTATE'],
  [16, 'EF_TRACER'],
  [32, 'EF_ZOMGIB'],
  [64, 'EF_TRACER2'],
  [128, 'EF_TRACER3'],
];

/** The entity effect names of `flags` (EF_ROTATE, EF_ROCKET …). */
export function mdlEffects(flags: number): string[] {
  return MDL_FLAG_NAMES.filter(([bit]) => (flags & bit) !== 0).map(([, name]) => name);
}

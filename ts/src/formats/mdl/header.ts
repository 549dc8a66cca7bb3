/**
 * The MDL header (mdl_t, 84 bytes; Hexen II's newmdl_t, 88): read and validated before any record is looked at.
 * What is refused follows limits.ts (only what no engine read loads); what only some engine refuses becomes an
 * ENGINE_LIMIT warning later (engine-limits.ts). Unlike MD2, MDL has no offsets: records follow one another and
 * skin and frame groups have sizes of their own, so the file's extent is found by walking it (layout.ts).
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../../base/errors.js';
import type { MdlVariant } from '../../base/model.js';
import { MDL_FIELD as F, MDL_HEADER_BYTES, MDL_IDENT, MDL_LIMITS, MDL_VERSION, RAPO_HEADER_BYTES, RAPO_VERSION } from './limits.js';

export interface MdlHeader {
  variant: MdlVariant;
  version: number;
  /** 84, or 88 for RAPO. */
  headerBytes: number;
  scale: Float32Array;
  origin: Float32Array;
  radius: number;
  eyePosition: Float32Array;
  skinCount: number;
  skinWidth: number;
  skinHeight: number;
  vertexCount: number;
  /** numverts for IDPO and MD16; RAPO's num_st_verts. */
  stCount: number;
  triangleCount: number;
  frameCount: number;
  synctype: number;
  flags: number;
  size: number;
  /** Non-finite floats read as 0 (NON_FINITE): fields no engine's loader checks or needs. */
  warnings: ParseWarning[];
}

export function fail(code: ErrorCode, detail: string, offset: number): never {
  throw new ModelParseError(code, detail, { offset });
}

/** The largest finite float32. */
const FLOAT32_MAX = 3.4028234663852886e38;

/** The variant of the first four bytes, or null. */
export function mdlVariantOf(ident: number): MdlVariant | null {
  if (ident === MDL_IDENT.IDPO) return 'IDPO';
  if (ident === MDL_IDENT.MD16) return 'MD16';
  if (ident === MDL_IDENT.RAPO) return 'RAPO';
  return null;
}

/** Whether `head` starts like an MDL: one of the three idents and its version. */
export function isMdlHead(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  const v = new DataView(head.buffer, head.byteOffset, 8);
  const variant = mdlVariantOf(v.getInt32(0, true));
  return variant !== null && v.getInt32(4, true) === (variant === 'RAPO' ? RAPO_VERSION : MDL_VERSION);
}

/**
 * Checks ident and version as soon as their bytes are there, so a file that is no MDL says BAD_MAGIC however
 * short it is. Returns the header size once the ident is known, else 0.
 */
export function checkMdlIdentity(view: DataView, available: number): number {
  if (available < 4) return 0;
  const ident = view.getInt32(F.ident, true);
  const variant = mdlVariantOf(ident);
  if (!variant) fail(ErrorCode.BadMagic, `ident is 0x${(ident >>> 0).toString(16).padStart(8, '0')}, not "IDPO", "MD16" or "RAPO"`, F.ident);
  if (available >= 8) {
    const version = view.getInt32(F.version, true);
    const want = variant === 'RAPO' ? RAPO_VERSION : MDL_VERSION;
    if (version !== want) fail(ErrorCode.BadVersion, `version is ${version}, not ${want} (${variant})`, F.version);
  }
  return variant === 'RAPO' ? RAPO_HEADER_BYTES : MDL_HEADER_BYTES;
}

function count(view: DataView, field: number, name: string, min: number, why: string): number {
  const n = view.getInt32(field, true);
  if (n < min) fail(ErrorCode.BadCount, `${name} is ${n}; ${why}`, field);
  if (n >= MDL_LIMITS.darkplacesBound) {
    fail(ErrorCode.BadCount, `${name} is ${n}; no engine loads ${MDL_LIMITS.darkplacesBound} or more (DarkPlaces model_alias.c Mod_IDP0_Load BOUNDI, and the others refuse far less)`, field);
  }
  return n;
}

function vec3(view: DataView, at: number): Float32Array {
  return Float32Array.of(view.getFloat32(at, true), view.getFloat32(at + 4, true), view.getFloat32(at + 8, true));
}

/**
 * A float field no engine needs finite (boundingradius and eyeposition: QuakeSpasm computes its own bounds and
 * QuakeC sets the eye; size: a software-renderer hint), read as 0 where it is NaN or infinite, with one warning:
 * no NaN reaches a model, and a file that loads in an engine still loads.
 */
export function finiteOr0(value: number, what: string, at: number, warnings: ParseWarning[]): number {
  if (Number.isFinite(value)) return value;
  warnings.push({ code: 'NON_FINITE', message: `${what} is ${value}: read as 0`, offset: at });
  return 0;
}

/** Reads and validates the header from the first `headerBytes` bytes of `view` (the caller made sure they are there). */
export function readMdlHeader(view: DataView): MdlHeader {
  const headerBytes = checkMdlIdentity(view, 8);
  const variant = mdlVariantOf(view.getInt32(F.ident, true))!;
  const skinCount = count(view, F.skinCount, 'numskins', 0, 'it must not be negative');
  const skinWidth = count(view, F.skinWidth, 'skinwidth', 0, 'it must not be negative');
  const skinHeight = count(view, F.skinHeight, 'skinheight', 0, 'it must not be negative');
  const vertexCount = count(view, F.vertexCount, 'numverts', 1, 'every engine refuses a model with no vertices (Mod_LoadAliasModel: "has no vertices")');
  const triangleCount = view.getInt32(F.triangleCount, true);
  if (triangleCount < 0) fail(ErrorCode.BadCount, `numtris is ${triangleCount}; it must not be negative`, F.triangleCount);
  const frameCount = count(view, F.frameCount, 'numframes', 1, 'every engine refuses a model with no frames (Mod_LoadAliasModel: "Invalid # of frames")');
  let stCount = vertexCount;
  if (variant === 'RAPO') {
    stCount = view.getInt32(F.stCount, true);
    if (stCount < 0) fail(ErrorCode.BadCount, `num_st_verts is ${stCount}; it must not be negative`, F.stCount);
  }
  const scale = vec3(view, F.scale);
  const origin = vec3(view, F.origin);
  for (let k = 0; k < 3; k++) {
    if (!Number.isFinite(scale[k])) fail(ErrorCode.BadNumber, `scale[${k}] is ${scale[k]}`, F.scale + 4 * k);
    if (!Number.isFinite(origin[k])) fail(ErrorCode.BadNumber, `scale_origin[${k}] is ${origin[k]}`, F.origin + 4 * k);
    // The largest decoded coordinate must be a float32 (an MD16 pose reaches 65535 / 256 steps).
    if (256 * Math.abs(scale[k]) + Math.abs(origin[k]) > FLOAT32_MAX) {
      fail(ErrorCode.BadNumber, `scale[${k}] ${scale[k]} and scale_origin[${k}] ${origin[k]} overflow float32`, F.scale + 4 * k);
    }
  }
  const warnings: ParseWarning[] = [];
  const eyePosition = vec3(view, F.eyePosition);
  for (let k = 0; k < 3; k++) eyePosition[k] = finiteOr0(eyePosition[k], `eyeposition[${k}]`, F.eyePosition + 4 * k, warnings);
  return {
    variant,
    version: view.getInt32(F.version, true),
    headerBytes,
    scale,
    origin,
    radius: finiteOr0(view.getFloat32(F.radius, true), 'boundingradius', F.radius, warnings),
    eyePosition,
    skinCount,
    skinWidth,
    skinHeight,
    vertexCount,
    stCount,
    triangleCount,
    frameCount,
    synctype: view.getInt32(F.synctype, true),
    flags: view.getInt32(F.flags, true),
    size: finiteOr0(view.getFloat32(F.size, true), 'size', F.size, warnings),
    warnings,
  };
}

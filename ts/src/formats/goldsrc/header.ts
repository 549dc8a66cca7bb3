/**
 * The first bytes of a studio model (`studiohdr_t`) or a sequence group file (`studioseqhdr_t`): ident, version,
 * name, length — the 76 bytes both begin with. The length is where the file ends (studiomdl writes it so, and the
 * engine allocates it: Mod_LoadStudioModel); the push parser keeps bytes up to it.
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { IDSQ, IDST, SIZE, STUDIO_VERSION } from './limits.js';

export interface GoldsrcHead {
  kind: 'studio' | 'seqgroup';
  version: number;
  length: number;
}

export function fail(code: ErrorCode, detail: string, offset: number): never {
  throw new ModelParseError(code, detail, { offset });
}

const i32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset + at, 4).getInt32(0, true);

/** Whether `head` starts a Half-Life studio model or sequence group file: `IDST` or `IDSQ`, version 10. */
export function isGoldsrcHead(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  const id = i32(head, 0);
  return (id === IDST || id === IDSQ) && i32(head, 4) === STUDIO_VERSION;
}

/** Whether `head` (at least the 244-byte header) is a texture file (`<name>T.mdl`) or a sequence group: no model of its own. */
export function isCompanionOnly(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  const id = i32(head, 0);
  if (id === IDSQ) return true;
  if (id !== IDST || head.length < SIZE.header) return false;
  // no bones, no body parts, textures: what studiomdl writes as <name>T.mdl ($externaltextures)
  return i32(head, 140) === 0 && i32(head, 204) === 0 && i32(head, 180) > 0;
}

/** Checks ident and version as soon as their bytes are there (so a wrong file fails on its first chunk). */
export function checkGoldsrcPrefix(bytes: Uint8Array, available: number): void {
  if (available >= 4) {
    const id = i32(bytes, 0);
    if (id !== IDST && id !== IDSQ) fail(ErrorCode.BadMagic, `ident is 0x${(id >>> 0).toString(16).padStart(8, '0')}, not "IDST" or "IDSQ"`, 0);
  }
  if (available >= 8) {
    const version = i32(bytes, 4);
    if (version !== STUDIO_VERSION) fail(ErrorCode.BadVersion, `version is ${version}, not ${STUDIO_VERSION} (Half-Life's studio models)`, 4);
  }
}

/** The common 76 bytes, validated: the length must hold the header of its kind. */
export function readGoldsrcHead(bytes: Uint8Array, available: number): GoldsrcHead {
  checkGoldsrcPrefix(bytes, available);
  if (available < SIZE.seqHeader) fail(ErrorCode.Truncated, `input ended at byte ${available}, inside the ${SIZE.seqHeader}-byte header`, available);
  const kind = i32(bytes, 0) === IDST ? 'studio' : 'seqgroup';
  const length = i32(bytes, 72);
  const least = kind === 'studio' ? SIZE.header : SIZE.seqHeader;
  if (length < least) fail(ErrorCode.BadOffset, `length is ${length}; the ${kind === 'studio' ? 'studiohdr_t' : 'studioseqhdr_t'} alone is ${least} bytes`, 72);
  return { kind, version: STUDIO_VERSION, length };
}

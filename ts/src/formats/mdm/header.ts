/** The first bytes of an MDM (100) and an MDX (96): ident, version, and `ofsEnd`, where the push parser stops keeping bytes. */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { MDM_IDENT, MDM_SIZE, MDM_VERSION, MDX_IDENT, MDX_SIZE, MDX_VERSION } from './limits.js';

export interface WolfHead {
  end: number;
}

export function fail(code: ErrorCode, detail: string, offset: number): never {
  throw new ModelParseError(code, detail, { offset });
}

const i32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset + at, 4).getInt32(0, true);

export function isMdmHead(head: Uint8Array): boolean {
  return head.length >= 8 && i32(head, 0) === MDM_IDENT && i32(head, 4) === MDM_VERSION;
}
export function isMdxHead(head: Uint8Array): boolean {
  return head.length >= 8 && i32(head, 0) === MDX_IDENT && i32(head, 4) === MDX_VERSION;
}

function checkPrefix(bytes: Uint8Array, available: number, ident: number, version: number, text: string, what: string): void {
  if (available >= 4) {
    const id = i32(bytes, 0);
    if (id !== ident) fail(ErrorCode.BadMagic, `ident is 0x${(id >>> 0).toString(16).padStart(8, '0')}, not "${text}"`, 0);
  }
  if (available >= 8) {
    const v = i32(bytes, 4);
    // R_LoadMDM / R_LoadMDX refuse any other version
    if (v !== version) fail(ErrorCode.BadVersion, `version is ${v}, not ${version} (${what})`, 4);
  }
}

export function checkMdmPrefix(bytes: Uint8Array, available: number): void {
  checkPrefix(bytes, available, MDM_IDENT, MDM_VERSION, 'MDMW', "ET's MDM");
}
export function checkMdxPrefix(bytes: Uint8Array, available: number): void {
  checkPrefix(bytes, available, MDX_IDENT, MDX_VERSION, 'MDXW', "ET's MDX");
}

function readHead(bytes: Uint8Array, available: number, size: number, endAt: number): WolfHead {
  if (available < size) fail(ErrorCode.Truncated, `input ended at byte ${available}, inside the ${size}-byte header`, available);
  const end = i32(bytes, endAt);
  if (end < size) fail(ErrorCode.BadOffset, `ofsEnd is ${end}; the header alone is ${size} bytes`, endAt);
  return { end };
}

export function readMdmHead(bytes: Uint8Array, available: number): WolfHead {
  checkMdmPrefix(bytes, available);
  return readHead(bytes, available, MDM_SIZE.header, 96);
}
export function readMdxHead(bytes: Uint8Array, available: number): WolfHead {
  checkMdxPrefix(bytes, available);
  return readHead(bytes, available, MDX_SIZE.header, 92);
}

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

export const isMdmHead = (head: Uint8Array) => head.length >= 8 && i32(head, 0) === MDM_IDENT && i32(head, 4) === MDM_VERSION;
export const isMdxHead = (head: Uint8Array) => head.length >= 8 && i32(head, 0) === MDX_IDENT && i32(head, 4) === MDX_VERSION;

function prefix(ident: number, version: number, text: string, what: string) {
  return (bytes: Uint8Array, available: number): void => {
    if (available >= 4) {
      const id = i32(bytes, 0);
      if (id !== ident) fail(ErrorCode.BadMagic, `ident is 0x${(id >>> 0).toString(16).padStart(8, '0')}, not "${text}"`, 0);
    }
    if (available >= 8) {
      const v = i32(bytes, 4);
      // R_LoadMDM / R_LoadMDX refuse any other version
      if (v !== version) fail(ErrorCode.BadVersion, `version is ${v}, not ${version} (${what})`, 4);
    }
  };
}

export const checkMdmPrefix = prefix(MDM_IDENT, MDM_VERSION, 'MDMW', "ET's MDM");
export const checkMdxPrefix = prefix(MDX_IDENT, MDX_VERSION, 'MDXW', "ET's MDX");

function head(check: (b: Uint8Array, n: number) => void, size: number, endAt: number) {
  return (bytes: Uint8Array, available: number): WolfHead => {
    check(bytes, available);
    if (available < size) fail(ErrorCode.Truncated, `input ended at byte ${available}, inside the ${size}-byte header`, available);
    const end = i32(bytes, endAt);
    if (end < size) fail(ErrorCode.BadOffset, `ofsEnd is ${end}; the header alone is ${size} bytes`, endAt);
    return { end };
  };
}

export const readMdmHead = head(checkMdmPrefix, MDM_SIZE.header, 96);
export const readMdxHead = head(checkMdxPrefix, MDX_SIZE.header, 92);

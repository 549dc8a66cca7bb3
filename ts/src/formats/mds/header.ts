/**
 * The first bytes of an MDS file (`mdsHeader_t`, 120 bytes): ident `MDSW`, version 4, name, LOD scale and bias,
 * the counts and offsets of frames, bones, surfaces and tags, and `ofsEnd` — where the file ends (the engine
 * allocates that much: R_LoadMDS), up to which the push parser keeps bytes.
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { MDS_IDENT, MDS_SIZE, MDS_VERSION } from './limits.js';

export interface MdsHead {
  end: number;
}

export function fail(code: ErrorCode, detail: string, offset: number): never {
  throw new ModelParseError(code, detail, { offset });
}

const i32 = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset + at, 4).getInt32(0, true);

/** Whether `head` starts an MDS file: `MDSW`, version 4. */
export function isMdsHead(head: Uint8Array): boolean {
  return head.length >= 8 && i32(head, 0) === MDS_IDENT && i32(head, 4) === MDS_VERSION;
}

/** Checks ident and version as soon as their bytes are there (a wrong file fails on its first chunk). */
export function checkMdsPrefix(bytes: Uint8Array, available: number): void {
  if (available >= 4) {
    const id = i32(bytes, 0);
    if (id !== MDS_IDENT) fail(ErrorCode.BadMagic, `ident is 0x${(id >>> 0).toString(16).padStart(8, '0')}, not "MDSW"`, 0);
  }
  if (available >= 8) {
    const version = i32(bytes, 4);
    // R_LoadMDS refuses any other version
    if (version !== MDS_VERSION) fail(ErrorCode.BadVersion, `version is ${version}, not ${MDS_VERSION} (RtCW's MDS)`, 4);
  }
}

export function readMdsHead(bytes: Uint8Array, available: number): MdsHead {
  checkMdsPrefix(bytes, available);
  if (available < MDS_SIZE.header) fail(ErrorCode.Truncated, `input ended at byte ${available}, inside the ${MDS_SIZE.header}-byte header`, available);
  const end = i32(bytes, 116);
  if (end < MDS_SIZE.header) fail(ErrorCode.BadOffset, `ofsEnd is ${end}; the header alone is ${MDS_SIZE.header} bytes`, 116);
  return { end };
}

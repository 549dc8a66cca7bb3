/** Little- and big-endian field reads and the one way the image readers throw. */
import { ErrorCode, ModelParseError } from '../base/errors.js';

/** Throws ModelParseError `code` at byte `offset`. */
export function fail(code: ErrorCode, detail: string, offset: number): never {
  throw new ModelParseError(code, detail, { offset });
}

/** Unsigned 16-bit little-endian at `at` (the caller has checked `at + 2 <= length`). */
export const u16le = (b: Uint8Array, at: number): number => b[at] | (b[at + 1] << 8);

/** Unsigned 32-bit little-endian at `at`. */
export const u32le = (b: Uint8Array, at: number): number => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/** Signed 32-bit little-endian at `at`. */
export const i32le = (b: Uint8Array, at: number): number => b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24);

/** Unsigned 16-bit big-endian at `at` (JPEG). */
export const u16be = (b: Uint8Array, at: number): number => (b[at] << 8) | b[at + 1];

/** Unsigned 32-bit big-endian at `at` (PNG). */
export const u32be = (b: Uint8Array, at: number): number => ((b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3]) >>> 0;

/** Throws TRUNCATED unless `b` holds `need` bytes; `what` names the structure that ran out. */
export function need(b: Uint8Array, need: number, what: string): void {
  if (b.length < need) fail(ErrorCode.Truncated, `${what} needs ${need} bytes; the file has ${b.length}`, b.length);
}

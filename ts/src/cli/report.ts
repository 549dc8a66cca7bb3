/**
 * The one stderr line for bad input (exit 1): `file:line:column: CODE: detail` (MD5 text), `file:byte N: CODE:
 * detail` (binary), `file: what is wrong (ENOENT)` for the file system, `file: what is wrong` otherwise. The path
 * is said once, whatever Node's own message repeats.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import type { InputError } from './input.js';

/** Node's system errors in words a user reads (the code stays, in brackets, for scripts and searches). */
const SYSTEM_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a part of this path is a file, not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  ENOSPC: 'no space left on the device',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
};

export interface SystemError {
  code: string;
  message: string;
  path?: string;
  syscall?: string;
}

export function isSystemError(e: unknown): e is SystemError {
  return typeof e === 'object' && e !== null && typeof (e as SystemError).code === 'string' && /^E[A-Z]+$/.test((e as SystemError).code);
}

/** `no such file or folder (ENOENT)`; an unlisted code keeps Node's words minus the code and the path. */
export function systemErrorText(e: SystemError): string {
  const words = SYSTEM_ERRORS[e.code] ?? e.message.replace(/^E[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
  return `${words} (${e.code})`;
}

/** The line for a failure that belongs to a file (without the leading `idtech-models: `). */
export function describeInputError(err: InputError): string {
  const e = err.cause;
  const note = err.note ? ` (${err.note})` : '';
  if (e instanceof ModelParseError) {
    // A mismatch is between two files, not at a place in one: no position.
    const where = e.code === ErrorCode.AnimMeshMismatch ? '' : e.line !== undefined ? `:${e.line}:${e.column}` : `:byte ${e.offset}`;
    return `${err.file}${where}: ${e.code}: ${e.detail}${note}`;
  }
  if (isSystemError(e)) return `${e.path ?? err.file}: ${systemErrorText(e)}${note}`;
  if (e instanceof Error) return `${err.file}: ${e.name === 'Error' ? e.message : String(e)}${note}`;
  return `${err.file}: ${String(e)}${note}`;
}

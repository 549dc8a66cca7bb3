/**
 * The one stderr line for bad input (exit 1): `file:line:column: CODE: detail` (MD5 text), `file:byte N: CODE:
 * detail` (binary), `file: what is wrong (ENOENT)` for the file system, `file: what is wrong` otherwise. The path
 * is said once, whatever Node's own message repeats.
 */
import { ErrorCode, ModelParseError } from '../node.js';
import { InputError } from './input-error.js';

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
export function describeInputError(err: InputError | ModelParseError): string {
  if (err instanceof ModelParseError) return describeParseError(err.file ?? '', err, err.pairedWith ? ` (played on ${err.pairedWith})` : '');
  const e = err.cause;
  const note = err.note ? ` (${err.note})` : '';
  if (e instanceof ModelParseError) return describeParseError(e.file ?? err.file, e, note || (e.pairedWith ? ` (played on ${e.pairedWith})` : ''));
  if (isSystemError(e)) return `${e.path ?? err.file}: ${systemErrorText(e)}${note}`;
  if (e instanceof Error) return `${err.file}: ${e.name === 'Error' ? e.message : String(e)}${note}`;
  return `${err.file}: ${String(e)}${note}`;
}

function describeParseError(file: string, e: ModelParseError, note: string): string {
  // A mismatch is between two files, and a file that no format reads is wrong as a whole: no position.
  const where = e.code === ErrorCode.AnimMeshMismatch || e.code === ErrorCode.UnknownFormat ? '' : e.line !== undefined ? `:${e.line}:${e.column}` : `:byte ${e.offset}`;
  return `${file}${where}: ${e.code}: ${e.detail}${note}`;
}

/** Whether a failure names its file (an InputError, or a parse error that knows where it came from). */
export const isFileError = (e: unknown): e is InputError | ModelParseError => e instanceof InputError || (e instanceof ModelParseError && e.file !== undefined);

/**
 * Node only (node:fs). Reading a file the user's input names — a `.gltf`'s buffers and images, a player folder's
 * animation.cfg — safely: only a regular file (a FIFO would block the read forever, `/dev/zero` never ends, a device
 * is no file), and only up to a size known before the read. The file is opened without blocking and without
 * following a link in its last component, then checked on the open handle (not by a second lookup of the path that
 * could meet another file), and read to the size `fstat` gave, never past it.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { overLimit, type ResourceLimits } from '../base/resource-limits.js';

export interface RegularFileOptions {
  /** How the file is named in messages (default: its path). */
  label?: string;
  /** Largest size read; a larger file is RESOURCE_LIMIT naming `limit`. */
  maxBytes: number;
  /** The limit's name, for the message. */
  limit: keyof ResourceLimits;
  /** Read only this many bytes (a glTF buffer's byteLength): the file must hold at least that many (TRUNCATED). */
  expectBytes?: number;
}

/** What a file that is not a regular one is, in words. */
function kindOf(s: { isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean; isDirectory(): boolean }): string {
  if (s.isFIFO()) return 'a FIFO';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device';
  if (s.isSocket()) return 'a socket';
  if (s.isDirectory()) return 'a folder';
  return 'not a regular file';
}

/** `path`'s bytes under the rules above; every refusal is a ModelParseError naming the file. */
export async function readRegularFile(path: string, o: RegularFileOptions): Promise<Uint8Array> {
  const label = o.label ?? path;
  const fail = (code: ErrorCode, why: string) => new ModelParseError(code, `${label}: ${why}`, { offset: 0 });
  // O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer; O_NOFOLLOW: a link swapped in for
  // the file after it was resolved is not followed. Both are 0 where the platform lacks them (Windows).
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
  const fh = await open(path, flags).catch((e: NodeJS.ErrnoException) => {
    throw fail(ErrorCode.ReadFailed, `cannot be opened (${e.code ?? e.message})`);
  });
  try {
    const s = await fh.stat();
    if (!s.isFile()) throw fail(ErrorCode.ReadFailed, `is ${kindOf(s)}, not a regular file: not read`);
    const want = o.expectBytes ?? s.size;
    if (want > o.maxBytes) throw overLimit(`${label} is ${want} bytes`, o.limit, o.maxBytes);
    if (s.size < want) throw fail(ErrorCode.Truncated, `the file holds ${s.size} bytes, ${want} are declared`);
    const out = new Uint8Array(want);
    for (let at = 0; at < want; ) {
      const { bytesRead } = await fh.read(out, at, want - at, at);
      if (bytesRead === 0) throw fail(ErrorCode.ReadFailed, `ended at byte ${at} of ${want} while it was read (it changed)`);
      at += bytesRead;
    }
    return out;
  } finally {
    await fh.close();
  }
}

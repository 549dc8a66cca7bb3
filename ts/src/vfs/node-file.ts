/** Node only: a file on disk as a RandomAccessReader, through one open file handle and positional reads. */
import { open } from 'node:fs/promises';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { abortedError, checkRange, chunksByReads, type RandomAccessReader } from './reader.js';

export async function fileReader(path: string): Promise<RandomAccessReader> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (e) {
    throw new ModelParseError(ErrorCode.ReadFailed, `${path}: ${(e as Error).message}`, { offset: 0 });
  }
  const { size, mtimeMs } = await handle.stat();
  let closed = false;
  const read = async (offset: number, length: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw abortedError(offset);
    checkRange(path, size, offset, length);
    if (closed) throw new ModelParseError(ErrorCode.ReadFailed, `${path}: read after close`, { offset });
    // A fresh buffer per read: consumers (inflaters) may keep a reference to it.
    const out = new Uint8Array(length);
    for (let got = 0; got < length; ) {
      const { bytesRead } = await handle.read(out, got, length - got, offset + got);
      if (bytesRead === 0) throw new ModelParseError(ErrorCode.ReadFailed, `${path}: the file ended at ${offset + got}, it had ${size} bytes when opened`, { offset: offset + got });
      got += bytesRead;
    }
    return out;
  };
  return {
    size,
    mtimeMs,
    name: path,
    read,
    chunks: (offset, length, chunkSize, signal) => {
      checkRange(path, size, offset, length);
      return chunksByReads(read, offset, length, chunkSize, signal);
    },
    async close() {
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}

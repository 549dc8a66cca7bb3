/**
 * Random access to the bytes of one file: what an archive needs to read its directory at the end and then any
 * member in the middle without holding the whole file. Implementations: bytes already in memory (`bytesReader`),
 * a browser `Blob`/`File` (`blobReader`, through `Blob.slice`), a URL (`urlReader` in http-reader.ts, HTTP Range
 * requests) and, in Node only, a file handle (`fileReader` in node-file.ts).
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';

export interface RandomAccessReader {
  /** Size of the file in bytes. */
  readonly size: number;
  /** Where the bytes come from, for messages (a path, a file name, a URL). */
  readonly name: string;
  /**
   * When the whole file was last modified (ms since the epoch), where known (a file on disk): the time of an
   * archive's members that carry none of their own (a Quake .pak), for up-to-date checks of batch outputs.
   */
  readonly mtimeMs?: number;
  /** The chunk size that suits this reader when streaming (default READ_CHUNK): bigger where each read is costly. */
  readonly chunkSize?: number;
  /** Exactly bytes [offset, offset + length), or a ModelParseError (TRUNCATED past the end, READ_FAILED). */
  read(offset: number, length: number, signal?: AbortSignal): Promise<Uint8Array>;
  /**
   * The same range as a sequence of chunks (each at most `chunkSize` bytes, in order), read as they are consumed:
   * a member is streamed without its whole compressed size in memory.
   */
  chunks(offset: number, length: number, chunkSize: number, signal?: AbortSignal): AsyncIterable<Uint8Array>;
  /** Releases what the reader holds (a file handle); reads after close fail. */
  close(): Promise<void>;
}

/** Chunk size used when streaming a member's compressed bytes (readers may ask for another: `chunkSize`). */
export const READ_CHUNK = 64 * 1024;

/**
 * A Blob read costs a round trip to where the browser keeps the file (another process), so Blobs are read 1 MiB at
 * a time: with the member header read together with its first chunk (zip-member.ts), this took streaming a corpus
 * archive in headless Chromium from 53 to 88 MB/s (DecompressionStream; docs/archives.md).
 */
export const BLOB_READ_CHUNK = 1024 * 1024;

export function abortedError(offset: number): ModelParseError {
  return new ModelParseError(ErrorCode.Aborted, 'the read was aborted', { offset });
}

/** Throws TRUNCATED (or BAD_OFFSET for nonsense) unless [offset, offset + length) lies inside a file of `size` bytes. */
export function checkRange(name: string, size: number, offset: number, length: number): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    throw new ModelParseError(ErrorCode.BadOffset, `${name}: bad range ${offset}+${length}`, { offset: 0 });
  }
  if (offset + length > size) {
    throw new ModelParseError(ErrorCode.Truncated, `${name}: bytes ${offset}..${offset + length} are past its end (${size} bytes)`, {
      offset: Math.min(offset, size),
    });
  }
}

/**
 * Chunks of [offset, offset + length) from any `read` function: one read per chunk, issued only when the consumer
 * asks for the next (so memory is one chunk, whatever the length).
 */
export async function* chunksByReads(
  read: (offset: number, length: number, signal?: AbortSignal) => Promise<Uint8Array>,
  offset: number,
  length: number,
  chunkSize: number,
  signal?: AbortSignal,
): AsyncGenerator<Uint8Array, void, undefined> {
  const end = offset + length;
  for (let at = offset; at < end; ) {
    if (signal?.aborted) throw abortedError(at);
    const n = Math.min(chunkSize, end - at);
    yield await read(at, n, signal);
    at += n;
  }
}

/** A reader over bytes already in memory (tests, small drops, a server that ignored Range): views, no copies. */
export function bytesReader(bytes: Uint8Array, name = 'memory'): RandomAccessReader {
  const read = async (offset: number, length: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw abortedError(offset);
    checkRange(name, bytes.length, offset, length);
    return bytes.subarray(offset, offset + length);
  };
  return {
    size: bytes.length,
    name,
    read,
    chunks: (offset, length, chunkSize, signal) => {
      checkRange(name, bytes.length, offset, length);
      return chunksByReads(read, offset, length, chunkSize, signal);
    },
    close: async () => {},
  };
}

/**
 * A reader over a `Blob` (a dropped `File`): each read is `blob.slice(a, b).arrayBuffer()`, so the browser reads
 * only those bytes from disk. A file changed on disk after it was picked makes the browser fail the read
 * (NotReadableError): reported as READ_FAILED.
 */
export function blobReader(blob: Blob, name = (blob as File).name ?? 'blob'): RandomAccessReader {
  const read = async (offset: number, length: number, signal?: AbortSignal) => {
    if (signal?.aborted) throw abortedError(offset);
    checkRange(name, blob.size, offset, length);
    let buffer: ArrayBuffer;
    try {
      buffer = await blob.slice(offset, offset + length).arrayBuffer();
    } catch (e) {
      throw new ModelParseError(ErrorCode.ReadFailed, `${name}: ${(e as Error).message ?? e}`, { offset });
    }
    if (buffer.byteLength !== length) {
      throw new ModelParseError(ErrorCode.ReadFailed, `${name}: read ${buffer.byteLength} of ${length} bytes`, { offset });
    }
    return new Uint8Array(buffer);
  };
  const mtimeMs = (blob as File).lastModified;
  return {
    size: blob.size,
    name,
    ...(typeof mtimeMs === 'number' ? { mtimeMs } : {}),
    chunkSize: BLOB_READ_CHUNK,
    read,
    chunks: (offset, length, chunkSize, signal) => {
      checkRange(name, blob.size, offset, length);
      return chunksByReads(read, offset, length, chunkSize, signal);
    },
    close: async () => {},
  };
}

/**
 * Every byte source the library reads, turned into one thing: an async sequence of `Uint8Array` chunks.
 * Browser-safe (no Node built-ins); `node.ts` adds file paths.
 */
import { ErrorCode, ModelParseError } from './errors.js';

/** What the stream entry points accept. A `string` is the file's text, not a path (see `node.ts` for paths). */
export type ByteSource =
  | Uint8Array
  | ArrayBuffer
  | ArrayBufferView
  | string
  | ReadableStream<Uint8Array>
  | AsyncIterable<Uint8Array | string>
  | Iterable<Uint8Array>
  | Response;

export interface ReadOptions {
  /** Stops the read; the returned promise rejects with ModelParseError code ABORTED. */
  signal?: AbortSignal;
  /** Called after each chunk with the bytes read so far. */
  onProgress?: (bytesRead: number) => void;
}

const encoder = new TextEncoder();

function abortError(bytes: number): ModelParseError {
  return new ModelParseError(ErrorCode.Aborted, 'the read was aborted', { offset: bytes });
}

function asBytes(chunk: unknown, offset: number): Uint8Array {
  if (chunk instanceof Uint8Array) return chunk;
  if (typeof chunk === 'string') return encoder.encode(chunk);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  if (ArrayBuffer.isView(chunk)) return new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  throw new ModelParseError(ErrorCode.BadSource, `a chunk of type ${Object.prototype.toString.call(chunk)} is not bytes`, { offset });
}

function isResponse(x: unknown): x is Response {
  return typeof Response === 'function' && x instanceof Response;
}

function isReadableStream(x: unknown): x is ReadableStream<Uint8Array> {
  return typeof x === 'object' && x !== null && typeof (x as ReadableStream).getReader === 'function';
}

/** The source as chunks, in order, without copying them. Checks `signal` between chunks. */
export async function* byteChunks(source: ByteSource, options: ReadOptions = {}): AsyncGenerator<Uint8Array, void, undefined> {
  const { signal } = options;
  let read = 0;
  if (signal?.aborted) throw abortError(0);
  if (typeof source === 'string' || source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    yield asBytes(source, 0);
    return;
  }
  if (isResponse(source)) {
    if (!source.body) return;
    yield* byteChunks(source.body, options);
    return;
  }
  if (isReadableStream(source)) {
    const reader = source.getReader();
    const onAbort = () => void reader.cancel().catch(() => {});
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (signal?.aborted) throw abortError(read);
        if (done) return;
        const bytes = asBytes(value, read);
        read += bytes.length;
        yield bytes;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // Releases the stream when the consumer stops early or an error is thrown.
      reader.cancel().catch(() => {});
    }
  }
  if (typeof source === 'object' && source !== null && (Symbol.asyncIterator in source || Symbol.iterator in source)) {
    for await (const chunk of source as AsyncIterable<unknown>) {
      if (signal?.aborted) throw abortError(read);
      const bytes = asBytes(chunk, read);
      read += bytes.length;
      yield bytes;
    }
    if (signal?.aborted) throw abortError(read);
    return;
  }
  throw new ModelParseError(ErrorCode.BadSource, `cannot read bytes from ${Object.prototype.toString.call(source)}`, { offset: 0 });
}

/** A push parser: what `parseStream` drives. */
export interface ChunkParser<T> {
  write(chunk: Uint8Array): void;
  end(): T;
}

/** Feed every chunk of `source` to `parser` as it arrives; never holds more than one chunk. */
export async function parseStream<T>(parser: ChunkParser<T>, source: ByteSource, options: ReadOptions = {}): Promise<T> {
  let read = 0;
  for await (const chunk of byteChunks(source, options)) {
    parser.write(chunk);
    read += chunk.length;
    options.onProgress?.(read);
  }
  return parser.end();
}

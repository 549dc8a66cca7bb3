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
  /**
   * The source's total size in bytes, when the caller knows it (a file's size, a Content-Length). Buffers and
   * responses with a Content-Length need none. Lets the md5anim parser size its frame store once instead of
   * growing it by doubling; a wrong hint costs only that (the store grows as needed, never past O(input)).
   */
  sizeHint?: number;
}

/** The total size of `source` in bytes when it is known up front (`options.sizeHint`, a buffer, a Content-Length). */
export function knownSize(source: ByteSource, options: ReadOptions = {}): number | undefined {
  if (options.sizeHint !== undefined) return options.sizeHint;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source.byteLength;
  if (isResponse(source) && !source.headers.get('content-encoding')) {
    const n = Number(source.headers.get('content-length') ?? NaN);
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  }
  return undefined;
}

const encoder = /* @__PURE__ */ new TextEncoder();

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

/**
 * Whether `x` is a fetch Response. The global is read only for an object that has a Response's `headers`: in Node,
 * the first read of `Response` loads the fetch implementation (undici), ~9 ms of every CLI run that streams a file.
 */
function isResponse(x: unknown): x is Response {
  return typeof x === 'object' && x !== null && 'headers' in x && typeof Response === 'function' && x instanceof Response;
}

function isReadableStream(x: unknown): x is ReadableStream<Uint8Array> {
  return typeof x === 'object' && x !== null && typeof (x as ReadableStream).getReader === 'function';
}

/**
 * The source as chunks, in order, without copying them. One chunk is requested at a time, only when the consumer
 * asks for the next (so a slow consumer slows the reading). `signal` is checked between chunks and also stops a
 * read that is waiting for data. When the consumer stops early (`break`, `return`, a throw), the source is
 * released: a stream reader is cancelled, an iterator's `return()` is called.
 */
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
    const it: AsyncIterator<unknown> | Iterator<unknown> =
      Symbol.asyncIterator in source ? (source as AsyncIterable<unknown>)[Symbol.asyncIterator]() : (source as Iterable<unknown>)[Symbol.iterator]();
    // An abort must not wait for a chunk that may never come: race each read against the signal.
    let rejectAbort: ((e: unknown) => void) | undefined;
    const aborted = signal ? new Promise<never>((_, reject) => (rejectAbort = reject)) : undefined;
    aborted?.catch(() => {});
    const onAbort = () => rejectAbort?.(abortError(read));
    signal?.addEventListener('abort', onAbort, { once: true });
    let finished = false;
    try {
      for (;;) {
        const next = it.next();
        const r = aborted ? await Promise.race([next, aborted]) : await next;
        if (signal?.aborted) throw abortError(read);
        if (r.done) {
          finished = true;
          return;
        }
        const bytes = asBytes(r.value, read);
        read += bytes.length;
        yield bytes;
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!finished) {
        // Stopped early (break, abort, bad chunk): let the source clean up (a Node Readable is destroyed). Not
        // awaited: after an abort the source may still be stuck in the read we stopped waiting for.
        try {
          Promise.resolve(it.return?.()).catch(() => {});
        } catch {
          // its own failure while closing does not replace ours
        }
      }
    }
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

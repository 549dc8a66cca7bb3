/** Test sources that hand a file over in fixed-size pieces. */

/** `bytes` cut into pieces of `size` bytes (views, no copies). */
export function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/**
 * A ReadableStream over `bytes` in `size` chunks that records what was pulled from it and whether it was cancelled
 * (highWaterMark 0: a chunk is produced only when the reader asks, so `pulled` is exactly what the reader took).
 */
export function instrumentedStream(bytes: Uint8Array, size: number) {
  const parts = chunked(bytes, size);
  const log = { pulled: 0, chunks: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(c) {
        const p = parts[log.chunks];
        if (!p) {
          c.close();
          return;
        }
        log.chunks++;
        log.pulled += p.length;
        c.enqueue(p);
      },
      cancel() {
        log.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, log };
}

/** A WHATWG ReadableStream that yields `bytes` in pieces of `size`, one per pull. */
export function readableOf(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  return instrumentedStream(bytes, size).stream;
}

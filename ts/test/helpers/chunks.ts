/** Test sources that hand a file over in fixed-size pieces. */

/** `bytes` cut into pieces of `size` bytes (views, no copies). */
export function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** A WHATWG ReadableStream that yields `bytes` in pieces of `size`, one per pull. */
export function readableOf(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  const parts = chunked(bytes, size);
  return new ReadableStream({
    pull(c) {
      const p = parts.shift();
      if (p) c.enqueue(p);
      else c.close();
    },
  });
}

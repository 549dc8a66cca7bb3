/**
 * Binary-record helpers the MD2 and MD3 readers share.
 *
 * Little-endian blocks as typed arrays in host order, for reading whole blocks at typed-array speed instead of a
 * DataView call per field. On a little-endian host (every browser platform, Node on x86/ARM) an aligned block is a
 * view of the input, no copy; an unaligned one is copied first. A big-endian host (Node on s390x) gets a copy
 * with its bytes swapped, so one code path serves both. Used by the MD2 and the MD3 reader alike.
 */
const LITTLE_ENDIAN_HOST = /* @__PURE__ */ littleEndianHost();

function littleEndianHost(): boolean {
  return new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
}

type WordArray<T> = { new (buffer: ArrayBufferLike, byteOffset: number, length: number): T; readonly BYTES_PER_ELEMENT: number };

/**
 * `count` elements of `type` at `offset` of `bytes` (the caller has checked the extent), in host order. May be a
 * view of `bytes`: use {@link hostOrderCopy} for an array to keep.
 */
export function hostOrder<T>(bytes: Uint8Array, offset: number, count: number, type: WordArray<T>): T {
  return read(bytes, offset, count, type, false);
}

/** Like {@link hostOrder}, but always a fresh array of exactly `count` elements (one copy, whatever the alignment). */
export function hostOrderCopy<T>(bytes: Uint8Array, offset: number, count: number, type: WordArray<T>): T {
  return read(bytes, offset, count, type, true);
}

function read<T>(bytes: Uint8Array, offset: number, count: number, type: WordArray<T>, copy: boolean): T {
  // An empty block may carry any offset (even past the end): a view there would throw a RangeError.
  if (count === 0) return new type(new ArrayBuffer(0), 0, 0);
  const size = type.BYTES_PER_ELEMENT;
  const at = bytes.byteOffset + offset;
  if (!copy && LITTLE_ENDIAN_HOST && at % size === 0) return new type(bytes.buffer, at, count);
  // A copy through set(), not slice(): a Node Buffer's slice() is a view on its (pooled) buffer.
  const out = new Uint8Array(count * size);
  out.set(bytes.subarray(offset, offset + count * size));
  if (!LITTLE_ENDIAN_HOST) {
    for (let i = 0; i < out.length; i += size) out.subarray(i, i + size).reverse();
  }
  return new type(out.buffer, 0, count);
}

/** Latin-1 text of the fixed-size field `bytes[start, start + length)`, cut at the first NUL. */
export function latin1Field(bytes: Uint8Array, start: number, length: number): string {
  const field = bytes.subarray(start, start + length);
  const nul = field.indexOf(0);
  // Every byte is one UTF-16 code unit in Latin-1 (a TextDecoder 'latin1' is windows-1252 in browsers: not this).
  return String.fromCharCode.apply(null, (nul < 0 ? field : field.subarray(0, nul)) as unknown as number[]);
}

/**
 * CRC-32 (zip and PNG: reflected polynomial 0xEDB88320, initial and final XOR 0xFFFFFFFF), computed slicing by 8:
 * eight 256-entry tables let the loop consume 8 bytes per step. Ours because Node gained `zlib.crc32` only in
 * 20.15/22.2 and browsers have none; measured in docs/archives.md (it runs beside the inflater, so it must keep up).
 */

/** TABLES[k][b]: the CRC of byte b followed by k zero bytes. */
const TABLES: Uint32Array = /* @__PURE__ */ (() => {
  const t = new Uint32Array(8 * 256);
  for (let b = 0; b < 256; b++) {
    let c = b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[b] = c >>> 0;
  }
  for (let b = 0; b < 256; b++) {
    for (let k = 1; k < 8; k++) t[k * 256 + b] = (t[(k - 1) * 256 + b] >>> 8) ^ t[t[(k - 1) * 256 + b] & 0xff];
  }
  return t;
})();

/**
 * The running CRC after `bytes`, continuing from `crc` (the value a previous call returned; 0 to start).
 * `crc32Update(crc32Update(0, a), b) === crc32Update(0, a ++ b)`.
 */
export function crc32Update(crc: number, bytes: Uint8Array): number {
  const t = TABLES;
  let c = ~crc >>> 0;
  let i = 0;
  const n = bytes.length;
  for (; i + 8 <= n; i += 8) {
    const lo = (c ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24))) >>> 0;
    c =
      t[1792 + (lo & 0xff)] ^
      t[1536 + ((lo >>> 8) & 0xff)] ^
      t[1280 + ((lo >>> 16) & 0xff)] ^
      t[1024 + (lo >>> 24)] ^
      t[768 + bytes[i + 4]] ^
      t[512 + bytes[i + 5]] ^
      t[256 + bytes[i + 6]] ^
      t[bytes[i + 7]];
  }
  for (; i < n; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** The CRC-32 of `bytes[start, end)` (PNG chunks and zip members use the same CRC). */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  return crc32Update(0, bytes.subarray(start, end));
}

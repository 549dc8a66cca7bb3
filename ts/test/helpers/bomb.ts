/** A zip bomb made without ever holding its content: `size` zero bytes deflated in 1 MiB steps, with their CRC. */
import { constants, deflateRawSync, createDeflateRaw } from 'node:zlib';
import { crc32Update } from '../../src/base/crc32.js';

export async function zerosDeflated(size: number): Promise<{ raw: Uint8Array; crc: number }> {
  const step = new Uint8Array(1 << 20);
  const z = createDeflateRaw({ level: 9 });
  const parts: Buffer[] = [];
  z.on('data', (b: Buffer) => parts.push(b));
  const done = new Promise((r) => z.on('end', r));
  let crc = 0;
  for (let left = size; left > 0; left -= step.length) {
    const n = Math.min(step.length, left);
    crc = crc32Update(crc, step.subarray(0, n));
    if (!z.write(step.subarray(0, n))) await new Promise((r) => z.once('drain', r));
  }
  z.end();
  await done;
  return { raw: new Uint8Array(Buffer.concat(parts)), crc };
}

/** A small deflate stream, cut short: valid bytes that end inside a block. */
export function truncatedDeflate(data: Uint8Array, keep: number): Uint8Array {
  return new Uint8Array(deflateRawSync(data, { level: 9, strategy: constants.Z_DEFAULT_STRATEGY })).subarray(0, keep);
}

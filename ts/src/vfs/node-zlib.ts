/** Node only: node:zlib's native raw inflater as an `Inflater` (the Node entry's default; docs/archives.md). */
import { once } from 'node:events';
import { createInflateRaw } from 'node:zlib';
import type { Inflater } from './inflate.js';

export const zlibInflater: Inflater = {
  name: 'node:zlib',
  async *inflate(deflated) {
    const z = createInflateRaw({ chunkSize: 64 * 1024 });
    let feedError: unknown;
    // Writes wait for 'drain', so input is read only as fast as output is consumed.
    const feed = (async () => {
      try {
        for await (const chunk of deflated) {
          if (z.destroyed) return;
          // 'close' too: a consumer that stops early destroys the stream, which then never drains.
          if (!z.write(chunk)) await Promise.race([once(z, 'drain'), once(z, 'close')]);
        }
        z.end();
      } catch (e) {
        feedError = e;
        z.destroy(e as Error);
      }
    })();
    try {
      for await (const out of z) yield out as Uint8Array;
    } catch (e) {
      throw feedError ?? e;
    } finally {
      z.destroy();
      await feed;
    }
    if (feedError) throw feedError;
  },
};

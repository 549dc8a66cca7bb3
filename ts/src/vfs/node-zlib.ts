/** Node only: node:zlib's native raw inflater as an `Inflater` (the Node entry's default; docs/archives.md). */
import { createInflateRaw, type InflateRaw } from 'node:zlib';
import type { Inflater } from './inflate.js';

/** Resolves on 'drain' or 'close' (an error closes the stream too), leaving no listener behind. */
function drainedOrClosed(z: InflateRaw): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      z.off('drain', done);
      z.off('close', done);
      resolve();
    };
    z.on('drain', done);
    z.on('close', done);
  });
}

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
          if (!z.write(chunk)) await drainedOrClosed(z);
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

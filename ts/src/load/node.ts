/** Files from paths in Node, streamed (never read whole): what each format's Node loader (`formats/<format>/node.ts`) reads with. */
import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A path as messages name it (a file: URL as its path). */
export const pathText = (path: string | URL): string => (typeof path === 'string' ? path : path.protocol === 'file:' ? fileURLToPath(path) : path.href);

/** A file as a stream of chunks (64 KiB by default). */
export function fileChunks(path: string | URL, chunkSize = 64 * 1024): AsyncIterable<Uint8Array> {
  return createReadStream(path, { highWaterMark: chunkSize });
}


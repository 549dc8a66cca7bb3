/**
 * The front door's `openArchive`: the zip reader (`zip-archive.ts` and what it pulls in: the central directory,
 * members, inflaters, fflate's inflate) is imported when the first archive is opened, so a page that never opens
 * one never fetches it (about 6 KB gzip of the browser entry; docs/package.md).
 */
import type { openArchiveFrom, ZipArchive } from './zip-archive.js';

/**
 * An archive from a source the browser and Node both have: bytes, a `Blob` / `File` (read by slices), a `URL`
 * (HTTP Range requests), or any `RandomAccessReader`. A file path is the Node entry's `openArchive(path)`.
 */
export async function openArchive(...args: Parameters<typeof openArchiveFrom>): Promise<ZipArchive> {
  const { openArchiveFrom: open } = await import('./zip-archive.js');
  return open(...args);
}

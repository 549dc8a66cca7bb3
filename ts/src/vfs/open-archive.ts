/**
 * The front door's `openArchive`: a zip (.pk3 .pk4 .dpk) or a Quake / Quake 2 .pak, told apart by the first bytes
 * (`PACK`) or a `.pak` name. Each reader (`zip-archive.ts` with what it pulls in: the central directory, members,
 * inflaters, fflate's inflate; `pak-archive.ts`) is imported when the first archive of its kind is opened, so a page
 * that never opens one never fetches it (docs/package.md).
 */
import type { ArchiveSource } from './archive-source.js';
import type { OpenPakOptions, PakArchive } from './pak-archive.js';
import type { RandomAccessReader } from './reader.js';
import type { OpenArchiveOptions, ZipArchive } from './zip-archive.js';

/** What `openArchive` opens: a zip archive or a pak. */
export type GameArchive = ZipArchive | PakArchive;

/** `openArchive`'s options: a zip's and a pak's, and the name of a source that has none (bytes, a Blob). */
export type OpenAnyArchiveOptions = OpenArchiveOptions & OpenPakOptions & { name?: string };

/** "PACK": the pak header's first bytes. */
const PACK = [0x50, 0x41, 0x43, 0x4b];

/** A zip or a pak read through `reader`, by its first four bytes, else its name (a `.pak` is read as one). */
export async function openArchiveReader(reader: RandomAccessReader, options: OpenArchiveOptions & OpenPakOptions = {}): Promise<GameArchive> {
  let head: Uint8Array;
  try {
    head = reader.size >= 4 ? await reader.read(0, 4, options.signal) : new Uint8Array(0);
  } catch (e) {
    await reader.close();
    throw e;
  }
  if (PACK.every((b, i) => head[i] === b) || /\.pak$/i.test(reader.name.replace(/[?#].*$/, ''))) {
    const { openPak } = await import('./pak-archive.js');
    return openPak(reader, options);
  }
  const { openZip } = await import('./zip-archive.js');
  return openZip(reader, options);
}

/**
 * An archive from a source the browser and Node both have: bytes, a `Blob` / `File` (read by slices), a `URL`
 * (HTTP Range requests), or any `RandomAccessReader`. A file path is the Node entry's `openArchive(path)`.
 */
export async function openArchive(source: ArchiveSource, options: OpenAnyArchiveOptions = {}): Promise<GameArchive> {
  const { archiveReader } = await import('./archive-source.js');
  return openArchiveReader(await archiveReader(source, options), options);
}

/**
 * A .pk3 / .pk4 / .dpk (a zip) as a read-only FileSystem: its directory is read once (zip-directory.ts), then any
 * member is streamed on demand (zip-member.ts) — nothing is extracted, and the archive is never held in memory
 * unless its reader already holds it. Names are looked up case-insensitively (ioquake3's `FS_LoadZipFile` lowercases
 * them into its hash); where one archive holds a name twice, the later directory entry wins, as in ioquake3, whose
 * hash chains put the later entry first. Folder entries and unsafe paths are not files.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import { resolveLimits, type ArchiveLimits } from './archive-limits.js';
import { entryLookup, pathKey, type FileSystem, type VfsFile } from './file-system.js';
import { defaultInflater, type Inflater } from './inflate.js';
import type { RandomAccessReader } from './reader.js';
import type { UrlReaderOptions } from './http-reader.js';
import { archiveLabel, archiveReader } from './archive-source.js';
import { runPlan } from './read-plan.js';
import { entryMtime, KIND_FILE, readZipDirectory, type ZipDirectory } from './zip-directory.js';
import { memberChunks, type InflateBudget } from './zip-member.js';

export interface OpenArchiveOptions {
  limits?: ArchiveLimits;
  /** Default: the platform's (`defaultInflater()`; the Node entry passes node:zlib's). */
  inflater?: Inflater;
  signal?: AbortSignal;
  /** For URLs: fetch, headers. */
  http?: UrlReaderOptions;
}

export interface ZipArchive extends FileSystem {
  /** The archive's name as given to its reader (a path, a file name, a URL). */
  readonly name: string;
  /** Every entry of the central directory, in directory order, as flat arrays (folders and unsafe paths included). */
  readonly directory: ZipDirectory;
  /** Oddities that did not stop it from opening (unsafe paths, never served). */
  readonly warnings: readonly ParseWarning[];
  readonly inflater: Inflater;
  /** Inflated bytes so far, over every read (the `maxTotalBytes` budget). */
  readonly inflatedBytes: number;
  close(): Promise<void>;
}

/** Opens a zip read through `reader` (closed again when opening fails). */
export async function openZip(reader: RandomAccessReader, options: OpenArchiveOptions = {}): Promise<ZipArchive> {
  const limits = resolveLimits(options.limits);
  const inflater = options.inflater ?? defaultInflater();
  let directory: ZipDirectory;
  try {
    directory = await runPlan(readZipDirectory(reader.size, limits), reader, options.signal);
  } catch (e) {
    await reader.close();
    if (e instanceof ModelParseError) throw new ModelParseError(e.code, `${reader.name}: ${e.detail}`, { offset: e.offset });
    throw e;
  }
  const label = archiveLabel(reader.name);
  const budget: InflateBudget = { inflated: 0 };
  const byKey = new Map<string, number>();
  for (let i = 0; i < directory.count; i++) if (directory.kinds[i] === KIND_FILE) byKey.set(pathKey(directory.names[i]), i);
  const files = new Map<number, VfsFile>();

  const fileAt = (i: number): VfsFile => {
    let f = files.get(i);
    if (f) return f;
    const path = directory.names[i];
    const origin = `${label}:${path}`;
    const size = directory.uncompressedSizes[i];
    const stream = (o?: { signal?: AbortSignal }) => memberChunks(reader, directory, i, { inflater, limits, budget, origin, signal: o?.signal });
    f = {
      path,
      size,
      origin,
      mtimeMs: entryMtime(directory, i),
      stream,
      async bytes(o) {
        // One allocation of the declared size: the member check guarantees the chunks fill it exactly.
        const out = new Uint8Array(size);
        let at = 0;
        for await (const chunk of stream(o)) {
          out.set(chunk, at);
          at += chunk.length;
        }
        return out;
      },
    };
    files.set(i, f);
    return f;
  };

  return {
    name: reader.name,
    directory,
    warnings: directory.warnings,
    inflater,
    get inflatedBytes() {
      return budget.inflated;
    },
    ...entryLookup(directory.names, byKey, fileAt),
    close: () => reader.close(),
  };
}

/**
 * An archive from a source the browser and Node both have: bytes, a `Blob` / `File` (read by slices), a `URL`
 * (HTTP Range requests), or any `RandomAccessReader`. A file path is the Node entry's `openArchive(path)`.
 */
export async function openArchiveFrom(
  source: Uint8Array | ArrayBuffer | Blob | URL | RandomAccessReader,
  options: OpenArchiveOptions & { name?: string } = {},
): Promise<ZipArchive> {
  return openZip(await archiveReader(source, options), options);
}

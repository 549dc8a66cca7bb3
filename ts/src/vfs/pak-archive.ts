/**
 * A Quake / Quake 2 `.pak` as a read-only FileSystem: its header and directory are read and checked once
 * (pak-directory.ts), then any member is read straight from its bytes through the same RandomAccessReader the zip
 * reader uses — nothing is extracted, nothing but the directory held. Names are looked up case-insensitively, as
 * every file system here is (Quake 2's FS_FOpenFile compares with Q_strcasecmp; Quake's COM_FindFile with strcmp:
 * docs/archives.md); where the pak names a file twice, the first entry wins, as both engines search front to back.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import { entryLookup, pathKey, type FileSystem, type VfsFile } from './file-system.js';
import { PAK_HEADER_BYTES, PAK_MAX_ENTRIES, readPakDirectory, readPakHeader, type PakDirectory } from './pak-directory.js';
import { checkRange, chunksByReads, READ_CHUNK, type RandomAccessReader } from './reader.js';
import type { ArchiveLimits } from './archive-limits.js';
import { archiveLabel } from './archive-source.js';

export interface PakArchive extends FileSystem {
  /** The archive's name as given to its reader (a path, a file name, a URL). */
  readonly name: string;
  /** Every entry, in directory order, as flat arrays (unsafe names included, never served). */
  readonly directory: PakDirectory;
  /** Oddities that did not stop it from opening (unsafe names, engine limits). */
  readonly warnings: readonly ParseWarning[];
  close(): Promise<void>;
}

export interface OpenPakOptions {
  /** `maxEntries` (default 65,536) and `maxMemberBytes` apply; a pak has nothing to inflate. */
  limits?: ArchiveLimits;
  signal?: AbortSignal;
}

/** A window [offset, offset + length) of `reader` as a reader of its own (a member: random access for a nested archive). */
export function windowReader(reader: RandomAccessReader, offset: number, length: number, name: string): RandomAccessReader {
  const read = (at: number, n: number, signal?: AbortSignal) => {
    checkRange(name, length, at, n);
    return reader.read(offset + at, n, signal);
  };
  return {
    size: length,
    name,
    chunkSize: reader.chunkSize,
    read,
    chunks: (at, n, chunkSize, signal) => {
      checkRange(name, length, at, n);
      return chunksByReads(read, at, n, chunkSize, signal);
    },
    close: async () => {},
  };
}

/** Opens a .pak read through `reader` (closed again when opening fails). */
export async function openPak(reader: RandomAccessReader, options: OpenPakOptions = {}): Promise<PakArchive> {
  let directory: PakDirectory;
  try {
    const head = await reader.read(0, Math.min(PAK_HEADER_BYTES, reader.size), options.signal);
    const header = readPakHeader(head, reader.size, options.limits?.maxEntries ?? PAK_MAX_ENTRIES);
    const bytes = await reader.read(header.directoryOffset, header.count * 64, options.signal);
    directory = readPakDirectory(bytes, header, reader.size);
    const cap = options.limits?.maxMemberBytes ?? Infinity;
    for (let i = 0; i < directory.count; i++) {
      if (directory.sizes[i] > cap) throw new ModelParseError(ErrorCode.InflateLimit, `entry ${i} (${directory.names[i]}) is ${directory.sizes[i]} bytes, over the cap of ${cap}`, { offset: header.directoryOffset + 64 * i + 60 });
    }
  } catch (e) {
    await reader.close();
    if (e instanceof ModelParseError) e.inFile(reader.name);
    throw e;
  }
  const label = archiveLabel(reader.name);
  const byKey = new Map<string, number>();
  for (let i = 0; i < directory.count; i++) {
    const key = pathKey(directory.names[i]);
    if (!directory.unsafe[i] && !byKey.has(key)) byKey.set(key, i);
  }
  const files = new Map<number, VfsFile>();
  const chunk = reader.chunkSize ?? READ_CHUNK;

  const fileAt = (i: number): VfsFile => {
    let f = files.get(i);
    if (f) return f;
    const path = directory.names[i];
    const offset = directory.offsets[i], size = directory.sizes[i];
    const origin = `${label}:${path}`;
    f = {
      path,
      size,
      origin,
      // a .pak's directory holds no times: a member is as new as the archive file (`convert pak0.pak --all` then
      // finds its outputs up to date, as a .pk3's member times let it)
      ...(reader.mtimeMs !== undefined ? { mtimeMs: reader.mtimeMs } : {}),
      stream: (o) => reader.chunks(offset, size, chunk, o?.signal),
      bytes: async (o) => (await reader.read(offset, size, o?.signal)).slice(),
      randomAccess: async () => windowReader(reader, offset, size, origin),
    };
    files.set(i, f);
    return f;
  };

  return {
    name: reader.name,
    directory,
    warnings: directory.warnings,
    ...entryLookup(directory.names, byKey, fileAt),
    close: () => reader.close(),
  };
}

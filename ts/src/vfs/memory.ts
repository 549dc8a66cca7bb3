/**
 * A file system over files already in memory (tests, small drops): each entry's bytes are handed out as they are.
 * Later entries with the same path (any case) replace earlier ones, as a later archive overrides an earlier one.
 */
import { byPath, folderPrefix, hasExtension, pathKey, type FileSystem, type VfsFile } from './file-system.js';
import { bytesReader } from './reader.js';

export function memoryFileSystem(entries: Iterable<{ path: string; bytes: Uint8Array; mtimeMs?: number }>, origin = 'memory'): FileSystem {
  const byKey = new Map<string, VfsFile>();
  for (const e of entries) {
    const path = e.path.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '');
    const bytes = e.bytes;
    byKey.set(pathKey(path), {
      path,
      size: bytes.length,
      origin: `${origin}:${path}`,
      mtimeMs: e.mtimeMs,
      async *stream() {
        yield bytes;
      },
      bytes: async () => bytes,
      randomAccess: async () => bytesReader(bytes, path),
    });
  }
  return {
    file: async (path) => byKey.get(pathKey(path)) ?? null,
    async list(folder, extensions) {
      const prefix = folderPrefix(folder);
      return [...byKey.entries()]
        .filter(([k]) => k.startsWith(prefix) && hasExtension(k, extensions))
        .map(([, f]) => f)
        .sort(byPath);
    },
  };
}

/**
 * A file system over files already in memory (tests, small drops): each entry's bytes are handed out as they are.
 * Later entries with the same path (any case) replace earlier ones, as a later archive overrides an earlier one.
 */
import { pathKey, type FileSystem, type VfsFile } from './file-system.js';

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
    });
  }
  return {
    file: async (path) => byKey.get(pathKey(path)) ?? null,
    async list(folder, extensions) {
      const prefix = pathKey(folder).replace(/\/?$/, folder ? '/' : '');
      const exts = extensions?.map((x) => x.toLowerCase());
      return [...byKey.entries()]
        .filter(([k]) => k.startsWith(prefix) && (!exts || exts.some((x) => k.endsWith(x))))
        .map(([, f]) => f)
        .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    },
  };
}

/**
 * File systems made of other file systems: an overlay (the first layer holding a path wins — a search path), a
 * sub-folder seen as a root (an archive-folder such as `x.pk3dir/`), and a view without some paths (a game
 * folder's loose files without its archives).
 */
import { byPath, folderPrefix, pathKey, type FileSystem, type VfsFile } from './file-system.js';

/** Layers highest precedence first: `file` asks each in turn, `list` keeps each path's first holder. */
export function overlayFileSystem(layers: readonly FileSystem[]): FileSystem {
  return {
    async file(path) {
      for (const layer of layers) {
        const f = await layer.file(path);
        if (f) return f;
      }
      return null;
    },
    async list(folder, extensions) {
      const seen = new Map<string, VfsFile>();
      for (const layer of layers) {
        for (const f of await layer.list(folder, extensions)) {
          const k = pathKey(f.path);
          if (!seen.has(k)) seen.set(k, f);
        }
      }
      return [...seen.values()].sort(byPath);
    },
    async close() {
      await Promise.all(layers.map((l) => l.close?.()));
    },
  };
}

/** The same file under another path (its bytes, size and origin unchanged). */
function renamed(f: VfsFile, path: string): VfsFile {
  return {
    path,
    size: f.size,
    origin: f.origin,
    mtimeMs: f.mtimeMs,
    stream: (o) => f.stream(o),
    bytes: (o) => f.bytes(o),
    randomAccess: f.randomAccess ? () => f.randomAccess!() : undefined,
  };
}

/** `folder` of `fs` as a root: `sub.file('models/x.md3')` is `fs.file(folder + '/models/x.md3')`. */
export function subFolderFileSystem(fs: FileSystem, folder: string): FileSystem {
  const prefix = folderPrefix(folder);
  // Drop the folder's segments (not its length: lower-casing may change a name's length).
  const depth = prefix.split('/').length - 1;
  const strip = (f: VfsFile) => renamed(f, f.path.replace(/\\/g, '/').replace(/^(\.\/|\/)+/, '').split('/').slice(depth).join('/'));
  return {
    async file(path) {
      const f = await fs.file(prefix + pathKey(path));
      return f ? strip(f) : null;
    },
    async list(inner, extensions) {
      return (await fs.list(prefix + folderPrefix(inner), extensions)).map(strip).sort(byPath);
    },
  };
}

/** `fs` without the paths `hidden` says yes to (given their pathKey). */
export function filteredFileSystem(fs: FileSystem, hidden: (key: string) => boolean): FileSystem {
  return {
    async file(path) {
      return hidden(pathKey(path)) ? null : fs.file(path);
    },
    async list(folder, extensions) {
      return (await fs.list(folder, extensions)).filter((f) => !hidden(pathKey(f.path)));
    },
    close: fs.close ? () => fs.close!() : undefined,
  };
}

/**
 * What the page opens, mounted in the worker as one file system in the engine's order (`mountGameDir`: loose files,
 * then the archives by descending name), and listed: every file the engine would read with the layer it comes from
 * (an archive shows as a folder in the page's tree), and the models it holds (`catalogModels`, by the formats given).
 *
 * - Files (dropped, picked, a picked or dropped folder): a blob file system; archives among them open by slices.
 * - An archive URL: its folder mounted with the archive as its one file (Range requests read the directory, then
 *   each member when it is read). A folder URL: its `index.txt` (one path per line) says what is there — a server
 *   cannot be listed — and archives listed in it open the same way.
 * - Model URLs: their game folder (before the last `/models/`, else their folder) indexed by what is given; with no
 *   index every other name (a texture) is probed by a HEAD request, as `IdTechLoader` probes URLs.
 */
import { catalogModels, type FileSystem, type FormatEntry } from 'idtech-models';
import { blobFileSystem, mountGameDir, overlayFileSystem, urlFileSystem, type MountedGame } from 'idtech-models/files';
import type { Listing, ModelEntry, MountSource } from '../protocol.js';

export interface Mounted {
  fs: FileSystem;
  listing: Listing;
  close(): Promise<void>;
}

const folderOf = (url: string) => url.slice(0, url.lastIndexOf('/') + 1);
const nameOf = (url: string) => decodeURIComponent(url.slice(url.lastIndexOf('/') + 1));

/** The game folder a model URL lies in: the part before its last `/models/`, else its folder. */
function gameRoot(url: string): string {
  const at = url.toLowerCase().lastIndexOf('/models/');
  return at >= 0 ? url.slice(0, at + 1) : folderOf(url);
}

async function folderIndex(folder: string, signal: AbortSignal): Promise<string[]> {
  const res = await fetch(new URL('index.txt', folder), { signal });
  if (!res.ok) throw new Error(`${folder} cannot be listed: a server has no listing, so the folder needs an index.txt (one path per line: cd FOLDER && find . -type f | sed 's|^\\./||' > index.txt), or open one of its archives by URL`);
  return (await res.text()).split(/\r?\n/).map((l) => l.trim().replace(/^\.\//, '')).filter((l) => l && l !== 'index.txt');
}

/** The file systems a source makes, before mounting; `name` is what the page calls it. */
async function sourceFileSystem(source: MountSource, signal: AbortSignal): Promise<{ fs: FileSystem; name: string; mount: boolean }> {
  if (source.kind === 'files') return { fs: blobFileSystem(source.files, source.origin), name: source.name, mount: true };
  if (source.kind === 'url') {
    const url = new URL(source.url, self.location.href).href;
    if (url.endsWith('/')) return { fs: urlFileSystem(url, { index: await folderIndex(url, signal) }), name: url, mount: true };
    return { fs: urlFileSystem(folderOf(url), { index: [nameOf(url)] }), name: url, mount: true };
  }
  const urls = source.urls.map((u) => new URL(u, self.location.href).href);
  const root = gameRoot(urls[0]);
  const given = urls.filter((u) => u.startsWith(root)).map((u) => decodeURIComponent(u.slice(root.length)));
  const indexed = urlFileSystem(root, { index: [...new Set([...given, ...(source.index ?? [])])] });
  // without a full index, other names are asked of the server (HEAD): a texture beside the model is found so
  return { fs: source.index ? indexed : overlayFileSystem([indexed, urlFileSystem(root)]), name: urls.length === 1 ? urls[0] : root, mount: false };
}

/** Which layer a file comes from, by its origin (`pak0.pk3:models/x.md3`, `…/x.pk3dir/models/x.md3`); 0 is the loose files. */
function layerOf(origin: string, layers: readonly { name: string; kind: string }[]): number {
  for (let i = 0; i < layers.length; i++) {
    const l = layers[i];
    if (l.kind === 'archive' && origin.startsWith(`${nameOf(l.name)}:`)) return i;
    if (l.kind === 'archive-folder' && (origin.includes(`/${l.name}/`) || origin.includes(`:${l.name}/`))) return i;
  }
  return Math.max(0, layers.findIndex((l) => l.kind === 'loose'));
}

export async function mount(source: MountSource, formats: readonly FormatEntry[], signal: AbortSignal, progress: (what: string) => void): Promise<Mounted> {
  const t0 = performance.now();
  progress('reading the folder');
  const src = await sourceFileSystem(source, signal);
  let game: MountedGame | null = null;
  if (src.mount) {
    progress('opening archives');
    game = await mountGameDir(src.fs, { signal });
  }
  const fs: FileSystem = game ?? src.fs;
  try {
    progress('listing');
    const layers = game ? game.layers.map((l) => ({ name: l.name, kind: l.kind })) : [{ name: '', kind: 'loose' }];
    const files = (await fs.list('')).map((f) => ({ path: f.path, size: f.size, layer: layerOf(f.origin, layers) }));
    progress(`finding models among ${files.length} files`);
    const models: ModelEntry[] = (await catalogModels(fs, formats)).map((e) => ({ kind: e.kind, path: e.path, anims: e.anims, files: e.files, skins: e.skins.map((s) => s.name), size: e.size }));
    const listing: Listing = { name: src.name, layers, files, models, warnings: (game?.warnings ?? []).map((w) => `${w.code}: ${w.message}`), ms: performance.now() - t0 };
    return { fs, listing, close: async () => void (await fs.close?.()) };
  } catch (e) {
    await fs.close?.();
    throw e;
  }
}

/**
 * `mounted` with `files` (dropped on the page while a model is open: animations to play on it) read first, at their
 * own paths, above the game; its listing stays the game's.
 */
export function withFiles(mounted: Mounted, files: { path: string; blob: Blob }[], origin: string): Mounted {
  return { ...mounted, fs: overlayFileSystem([blobFileSystem(files, origin), mounted.fs]) };
}

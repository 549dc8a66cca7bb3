/**
 * A game folder mounted in the engine's search order (docs/archives.md, "Mounting", cites the code):
 *
 * - ioquake3 `FS_AddGameDirectory` (code/qcommon/files.c) lists the folder's `.pk3` files and `.pk3dir` folders,
 *   sorts them together with `FS_PathCmp` (case folded to upper case, '\' and ':' as '/'), and pushes each onto the
 *   head of the search path in that order — so a later name is searched first: `pak8.pk3` over `pak1.pk3` over
 *   `pak0.pk3`. It then pushes the folder itself: **loose files are searched before the folder's archives**.
 *   (Quake III 1.32 pushed the folder first, so there archives beat loose files; ioquake3 changed that when it
 *   added .pk3dir, and Doom 3 agrees with ioquake3, below.)
 * - Doom 3 `idFileSystemLocal::AddGameDirectory` (neo/framework/FileSystem.cpp) pushes the folder, then inserts each
 *   `.pk4` right after it in `idStrList::Sort` order (`idStr::Icmp`, case folded to lower case): the same result —
 *   loose files, then `pak001.pk4` before `pak000.pk4`. Used when every archive in the folder is a .pk4.
 * - Several folders (`FS_Startup`: base game, then the mod): a later folder is searched first.
 *
 * Unvanquished's `.dpk` archives and `.dpkdir` folders are mounted like `.pk3` / `.pk3dir` in this name order: the
 * Daemon engine picks package versions and follows DEPS files instead, which a folder scan cannot know.
 *
 * Quake's and Quake 2's numbered `.pak` files go the other way round (`paks.ts`: Quake common.c
 * COM_AddGameDirectory, Quake 2 qcommon/files.c FS_AddGameDirectory): the folder is pushed first, then pak0.pak,
 * pak1.pak … each onto the head — so **a pak is searched before the loose files**, a higher number first. Quake
 * stops at the first missing number; Quake 2 takes pak0–pak9 with gaps (`paks: 'quake2'`). A folder with both keeps
 * the rules apart: its paks, then its loose files, then its zip archives.
 */
import { ModelParseError, type ParseWarning } from '../base/errors.js';
import { pathKey, type FileSystem, type VfsFile } from './file-system.js';
import { filteredFileSystem, overlayFileSystem, subFolderFileSystem } from './overlay.js';
import { mountedPaks, type PakNumbering } from './paks.js';
import { bytesReader } from './reader.js';
import type { OpenArchiveOptions } from './zip-archive.js';

/** Files opened as archives when found at the top of a game folder. */
export const ARCHIVE_EXTENSIONS: readonly string[] = ['.pk3', '.pk4', '.dpk'];
/**
 * Every archive file a game folder holds or a user may name: the zips above and Quake's / Quake 2's `.pak` (written
 * out, not spread from the list above: a bundler keeps a spread at the top level).
 */
export const ARCHIVE_FILE_EXTENSIONS: readonly string[] = ['.pk3', '.pk4', '.dpk', '.pak'];
/** Folders read as archives when found at the top of a game folder (ioquake3 .pk3dir, Daemon .dpkdir). */
export const ARCHIVE_FOLDER_EXTENSIONS: readonly string[] = ['.pk3dir', '.dpkdir'];

export type NameOrder = 'ioquake3' | 'doom3';

/**
 * The engines' archive name comparison: ioquake3 `FS_PathCmp` folds a–z to upper case and maps '\' and ':' to
 * '/'; Doom 3 `idStr::Icmp` folds A–Z to lower case. They differ only for the six characters between 'Z' and 'a'
 * (`[ \ ] ^ _ \``): `pak_x.pk3` sorts after `paka.pk3` in ioquake3 and before it in Doom 3.
 */
export function compareArchiveNames(a: string, b: string, order: NameOrder = 'ioquake3'): number {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let c1 = i < a.length ? a.charCodeAt(i) : 0;
    let c2 = i < b.length ? b.charCodeAt(i) : 0;
    if (order === 'ioquake3') {
      if (c1 >= 97 && c1 <= 122) c1 -= 32;
      if (c2 >= 97 && c2 <= 122) c2 -= 32;
      if (c1 === 92 || c1 === 58) c1 = 47;
      if (c2 === 92 || c2 === 58) c2 = 47;
    } else {
      if (c1 >= 65 && c1 <= 90) c1 += 32;
      if (c2 >= 65 && c2 <= 90) c2 += 32;
    }
    if (c1 !== c2) return c1 < c2 ? -1 : 1;
  }
  return 0;
}

/** One source of files in a mounted game, in search order. */
export interface MountLayer {
  /** 'loose' (the folder's own files), 'archive' (.pk3/.pk4/.dpk) or 'archive-folder' (.pk3dir/.dpkdir). */
  kind: 'loose' | 'archive' | 'archive-folder';
  /** The archive's or folder's name inside the game folder ('' for the loose files). */
  name: string;
  /** Which game folder (its index in the list given to `mountGameDirs`). */
  folder: number;
}

export interface MountedGame extends FileSystem {
  /** Every layer, highest precedence first. */
  readonly layers: readonly MountLayer[];
  /** Archives that could not be opened and were skipped, as ioquake3 skips them ("This isn't a .pk3! Next!"). */
  readonly warnings: readonly ParseWarning[];
  close(): Promise<void>;
}

export interface MountOptions extends OpenArchiveOptions {
  /** Throw on an archive that cannot be opened instead of skipping it (the engines skip it). */
  strict?: boolean;
  /** Name order (default: 'doom3' when every archive is a .pk4, else 'ioquake3'). */
  order?: NameOrder;
  /** Which numbered .pak files mount: 'quake' (default: pak0, pak1 … up to the first missing) or 'quake2' (pak0–pak9). */
  paks?: PakNumbering;
}

const topName = (key: string) => key.slice(0, key.indexOf('/'));
const isArchiveFolderKey = (key: string) => key.includes('/') && ARCHIVE_FOLDER_EXTENSIONS.some((x) => topName(key).endsWith(x));
const isArchiveKey = (key: string) => !key.includes('/') && ARCHIVE_EXTENSIONS.some((x) => key.endsWith(x));

async function openArchiveFile(f: VfsFile, options: OpenArchiveOptions, kind: 'zip' | 'pak' = 'zip') {
  // Random access where the file system has it; else the bytes in memory (a file system that can only stream).
  const reader = f.randomAccess ? await f.randomAccess() : bytesReader(await f.bytes({ signal: options.signal }), f.origin);
  // Imported on the first archive (open-archive.ts says why): a folder without archives never loads a reader.
  if (kind === 'pak') {
    const { openPak } = await import('./pak-archive.js');
    return openPak(reader, options);
  }
  const { openZip } = await import('./zip-archive.js');
  return openZip(reader, options);
}

/** One game folder's layers, highest precedence first. */
async function folderLayers(loose: FileSystem, folder: number, options: MountOptions, warnings: ParseWarning[]) {
  const all = await loose.list('');
  const archives = all.filter((f) => isArchiveKey(pathKey(f.path)));
  const folderNames = new Map<string, string>(); // key → name as stored
  for (const f of all) {
    const k = pathKey(f.path);
    if (isArchiveFolderKey(k)) folderNames.set(topName(k), f.path.replace(/\\/g, '/').split('/')[0]);
  }
  const order = options.order ?? (archives.length > 0 && archives.every((f) => pathKey(f.path).endsWith('.pk4')) ? 'doom3' : 'ioquake3');
  const items = [
    ...archives.map((f) => ({ kind: 'archive' as const, name: f.path, file: f })),
    ...[...folderNames.values()].map((name) => ({ kind: 'archive-folder' as const, name, file: null })),
  ].sort((a, b) => compareArchiveNames(a.name, b.name, order));

  const layers: { layer: MountLayer; fs: FileSystem }[] = [];
  for (const item of items) {
    if (item.kind === 'archive-folder') {
      layers.push({ layer: { kind: item.kind, name: item.name, folder }, fs: subFolderFileSystem(loose, item.name) });
      continue;
    }
    try {
      layers.push({ layer: { kind: item.kind, name: item.name, folder }, fs: await openArchiveFile(item.file!, options) });
    } catch (e) {
      if (options.strict || !(e instanceof ModelParseError)) {
        await Promise.all(layers.map((l) => l.fs.close?.()));
        throw e;
      }
      warnings.push({ code: e.code, message: `${item.file!.origin}: skipped, not a readable archive: ${e.detail}`, offset: e.offset });
    }
  }
  layers.reverse(); // later names first
  // Numbered paks: above the loose files, the highest number first (COM_AddGameDirectory / FS_AddGameDirectory).
  const paks = mountedPaks(all, options.paks ?? 'quake');
  for (const w of paks.warnings) warnings.push(w);
  const pakLayers: { layer: MountLayer; fs: FileSystem }[] = [];
  for (const f of paks.files) {
    try {
      pakLayers.push({ layer: { kind: 'archive', name: f.path, folder }, fs: await openArchiveFile(f, options, 'pak') });
    } catch (e) {
      if (options.strict || !(e instanceof ModelParseError)) {
        await Promise.all([...layers, ...pakLayers].map((l) => l.fs.close?.()));
        throw e;
      }
      // Quake's COM_LoadPackFile gives up on a file that is no pak ("is not a packfile"): skipped here, as for zips.
      warnings.push({ code: e.code, message: `${f.origin}: skipped, not a readable pak: ${e.detail}`, offset: e.offset });
    }
  }
  pakLayers.reverse();
  const mounted = new Set(paks.files.map((f) => pathKey(f.path)));
  const hidden = (key: string) => isArchiveKey(key) || isArchiveFolderKey(key) || mounted.has(key);
  layers.unshift(...pakLayers, { layer: { kind: 'loose', name: '', folder }, fs: filteredFileSystem(loose, hidden) });
  return layers;
}

/**
 * Mounts game folders, each given as the file system of its loose files (a folder on disk, dropped files, …): base
 * game first, mods after; a later folder wins. Top-level archives are opened through the files' random access.
 */
export async function mountGameDirs(folders: readonly FileSystem[], options: MountOptions = {}): Promise<MountedGame> {
  const warnings: ParseWarning[] = [];
  const all: { layer: MountLayer; fs: FileSystem }[] = [];
  try {
    for (let i = folders.length - 1; i >= 0; i--) all.push(...(await folderLayers(folders[i], i, options, warnings)));
  } catch (e) {
    await Promise.all(all.map((l) => l.fs.close?.()));
    throw e;
  }
  const overlay = overlayFileSystem(all.map((l) => l.fs));
  return {
    file: overlay.file,
    list: overlay.list,
    // the game folder of the layer that holds it (Quake's path_id: one per COM_AddGameDirectory, its paks included)
    async searchPath(path) {
      for (const l of all) if (await l.fs.file(path)) return l.layer.folder;
      return null;
    },
    layers: all.map((l) => l.layer),
    warnings,
    close: async () => {
      await overlay.close!();
    },
  };
}

/** One game folder, or several (`[base, mod]`: the mod's files win). */
export function mountGameDir(folders: FileSystem | readonly FileSystem[], options: MountOptions = {}): Promise<MountedGame> {
  return mountGameDirs(Array.isArray(folders) ? (folders as readonly FileSystem[]) : [folders as FileSystem], options);
}


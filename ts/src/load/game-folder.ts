/**
 * Node: from a model's path on disk to the game folder it belongs to, mounted as the engine would mount it, so its
 * textures resolve with no other input. A model lies at `<game>/models/…` (Quake 3, Quake 2, Doom 3), and the
 * shaders, materials and images it names are paths from `<game>`. So the game folder is the nearest folder above the
 * model that holds `models/`, `scripts/`, `materials/` or `textures/`. When that folder is an archive folder
 * (`.pk3dir`, `.dpkdir`), the folder holding it is the game folder (mountGameDir mounts it with its siblings, in
 * engine order), and the model's path is taken inside it. A path through an archive file
 * (`baseq3/pak0.pk3/models/x.md3`) names a member of that archive; the archive's folder is mounted
 * (`registry/node.ts` `resolveTexturesOnDisk` mounts it and resolves the model's textures there).
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ARCHIVE_FILE_EXTENSIONS, ARCHIVE_FOLDER_EXTENSIONS } from '../vfs/game-dir.js';

/** The folders the engines keep models in, right under the game folder: `models/` (Quake 2 onwards), `progs/` (Quake). */
const MODEL_FOLDER_NAMES: readonly string[] = ['models', 'progs'];

/** Folders whose presence marks a game folder (or an archive's root). */
export const GAME_FOLDER_MARKERS: readonly string[] = ['models', 'scripts', 'materials', 'textures'];

export interface GameFolderPlace {
  /** The folder to mount (absolute). */
  gameDir: string;
  /** The model's (or player folder's) path inside the mounted folder, '/'-separated. */
  path: string;
  /** The archive file the path runs through, when it does (absolute), else null. */
  archive: string | null;
  /** How the game folder was chosen: a marker folder above the model, `--game-dir`, or none (the model's own folder). */
  how: 'found' | 'given' | 'fallback';
}

const hasExt = (name: string, exts: readonly string[]) => exts.some((e) => name.toLowerCase().endsWith(e));
const slash = (p: string) => p.split(sep).join('/');

async function isFile(path: string): Promise<boolean> {
  return stat(path).then((s) => s.isFile(), () => false);
}

/**
 * A marker folder counts only with what the engine reads in it: `scripts/` with a `.shader`, `materials/` with a
 * `.mtr`, any `models/` or `textures/`. A source checkout's `scripts/` of shell files is not a game folder (mounting
 * one made `inspect` of a model in a repository index the whole tree).
 */
async function holdsMarker(dir: string): Promise<boolean> {
  const names = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const d of names) {
    const name = d.name.toLowerCase();
    if (!d.isDirectory() || !GAME_FOLDER_MARKERS.includes(name)) continue;
    const wants = name === 'scripts' ? '.shader' : name === 'materials' ? '.mtr' : null;
    if (!wants) return true;
    const inside = await readdir(join(dir, d.name)).catch(() => [] as string[]);
    if (inside.some((f) => f.toLowerCase().endsWith(wants))) return true;
  }
  return false;
}

/**
 * Where the model (or player folder) at `path` sits: its game folder and its path inside it. `gameDir` given: that
 * folder, the path taken relative to it (or through an archive in it). Never throws for a missing game folder: the
 * model's own folder is used (`how: 'fallback'`).
 */
export async function locateGameFolder(path: string, gameDir?: string): Promise<GameFolderPlace> {
  const abs = resolve(path);
  // A path through an archive file: the first segment that is an archive file on disk.
  const parts = abs.split(sep);
  for (let i = 1; i < parts.length; i++) {
    const prefix = parts.slice(0, i + 1).join(sep) || sep;
    if (hasExt(parts[i], ARCHIVE_FILE_EXTENSIONS) && (await isFile(prefix))) {
      return { gameDir: gameDir ? resolve(gameDir) : dirname(prefix), path: parts.slice(i + 1).join('/'), archive: prefix, how: gameDir ? 'given' : 'found' };
    }
  }
  const start = (await stat(abs).then((s) => s.isDirectory(), () => false)) ? abs : dirname(abs);
  if (gameDir) {
    const root = resolve(gameDir);
    return { gameDir: root, path: slash(relative(root, abs)), archive: null, how: 'given' };
  }
  // First the engines' own convention: model paths are `models/…` (`progs/…` in Quake) from the game folder (shader and skin names are
  // written from there), so the folder above the nearest `models` folder is the game folder. Only then the marker
  // folders: a loose `scripts/` or `textures/` far above the model (a source checkout, a home folder) would
  // otherwise mount a whole tree the model does not belong to.
  // Quake's models are `progs/…` (Mod_ForName of "progs/player.mdl"): the nearest of the two names wins, so a Quake
  // game folder kept under some `models` folder is still found.
  for (let dir = start; dirname(dir) !== dir; dir = dirname(dir)) {
    if (MODEL_FOLDER_NAMES.includes(basename(dir).toLowerCase())) {
      const root = dirname(dir);
      const inArchiveFolder = hasExt(basename(root), ARCHIVE_FOLDER_EXTENSIONS);
      return { gameDir: inArchiveFolder ? dirname(root) : root, path: slash(relative(root, abs)), archive: null, how: 'found' };
    }
  }
  for (let dir = start; ; dir = dirname(dir)) {
    if (await holdsMarker(dir)) {
      const inArchiveFolder = hasExt(basename(dir), ARCHIVE_FOLDER_EXTENSIONS);
      return { gameDir: inArchiveFolder ? dirname(dir) : dir, path: slash(relative(dir, abs)), archive: null, how: 'found' };
    }
    if (dirname(dir) === dir) break;
  }
  return { gameDir: start, path: slash(relative(start, abs)) || basename(abs), archive: null, how: 'fallback' };
}

/**
 * A loose model's path and the game's root to confine what its format reads beside it to (`ModelSetOptions.root`),
 * both in the terms of a file system over the working folder (`lazyFolderFileSystem('')`, which reads the whole
 * disk): the game folder `locateGameFolder` finds above the model, or the model's own folder when there is none.
 * The path stays as given when the root can be written in its terms (the root is the working folder or below it,
 * or the path is absolute); else (a relative path under a game folder above the working folder) both are absolute.
 * Before issue 36 no root was kept: an `iqm.cfg` beside a loose model could `exec "/etc/passwd"`.
 */
export async function looseModelRoot(path: string): Promise<{ path: string; root: string }> {
  const place = await locateGameFolder(path);
  if (place.archive) return { path, root: '' };
  if (isAbsolute(path)) return { path, root: slash(place.gameDir) };
  const rel = slash(relative(process.cwd(), place.gameDir));
  if (rel !== '..' && !rel.startsWith('../') && !isAbsolute(rel)) return { path, root: rel };
  return { path: slash(resolve(path)), root: slash(place.gameDir) };
}

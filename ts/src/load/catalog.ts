/**
 * What models a FileSystem holds (an archive, a game folder): one entry per thing worth converting on its own —
 * each .md2 and .md3, each Quake 3 player folder (lower/upper/head.md3 assembled as one, as cgame loads them; its
 * parts are not listed again), each .md5mesh with the .md5anim files lying beside it (Doom 3 keeps a monster's
 * mesh and anims in one folder). With each: the `.skin` files offered for it (materials/skins.ts `listSkins`),
 * every source file, their total size and newest modification time (for up-to-date checks of outputs).
 * Read from the directory only: nothing is parsed.
 */
import { kindFromName } from '../formats/detect.js';
import { listSkins, PLAYER_PARTS, type SkinOffer } from '../materials/skins.js';
import { byPath, type FileSystem, type VfsFile } from '../vfs/file-system.js';
import { isPlayerFolder, PLAYER_PART_FILES } from './vfs-models.js';

export type CatalogKind = 'player' | 'md2' | 'md3' | 'md5mesh';

export interface CatalogEntry {
  kind: CatalogKind;
  /** The model file, or the player folder (no trailing '/'), as stored. */
  path: string;
  /** md5mesh: the .md5anim files in its folder, sorted. */
  anims: string[];
  /** Player: its files (parts, weapon.md3, animation.cfg). Others: the model file. */
  files: string[];
  skins: SkinOffer[];
  /** Bytes of every source file (model, anims, parts), as declared. */
  size: number;
  /** The newest source file's modification time (ms), when every source has one. */
  mtimeMs: number | undefined;
}

const MODEL_EXTENSIONS = ['.md2', '.md3', '.md5mesh', '.md5anim'];
const PLAYER_EXTRAS = ['weapon.md3', 'animation.cfg'];

const folderOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));
const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

function sourceFacts(files: readonly VfsFile[]): Pick<CatalogEntry, 'size' | 'mtimeMs'> {
  let size = 0;
  let mtimeMs: number | undefined = 0;
  for (const f of files) {
    size += f.size;
    mtimeMs = mtimeMs === undefined || f.mtimeMs === undefined ? undefined : Math.max(mtimeMs, f.mtimeMs);
  }
  return { size, mtimeMs };
}

/** Every model `fs` holds, sorted by path (players by folder). */
export async function catalogModels(fs: FileSystem): Promise<CatalogEntry[]> {
  const byFolder = new Map<string, Map<string, VfsFile>>();
  for (const f of await fs.list('', [...MODEL_EXTENSIONS, ...PLAYER_EXTRAS])) {
    const folder = folderOf(f.path).toLowerCase();
    const m = byFolder.get(folder) ?? new Map<string, VfsFile>();
    m.set(nameOf(f.path).toLowerCase(), f);
    byFolder.set(folder, m);
  }
  // Skins are few: listed once, then each model's folder is answered from that list.
  const skinFiles = await fs.list('', ['.skin']);
  const skinFs: FileSystem = { file: fs.file, list: async () => skinFiles };

  const out: CatalogEntry[] = [];
  for (const children of byFolder.values()) {
    const player = isPlayerFolder(children);
    const anims = [...children.values()].filter((f) => kindFromName(f.path) === 'md5anim').sort(byPath);
    if (player) {
      const files = [...PLAYER_PART_FILES, ...PLAYER_EXTRAS].flatMap((n) => (children.has(n) ? [children.get(n)!] : []));
      const folder = folderOf(files[0].path);
      out.push({ kind: 'player', path: folder, anims: [], files: files.map((f) => f.path), skins: await listSkins(skinFs, folder, PLAYER_PARTS), ...sourceFacts(files) });
    }
    for (const [name, f] of children) {
      const kind = kindFromName(name);
      if (kind !== 'md2' && kind !== 'md3' && kind !== 'md5mesh') continue;
      if (player && (PLAYER_PART_FILES as readonly string[]).includes(name)) continue;
      if (player && name === 'weapon.md3') continue;
      const sources = kind === 'md5mesh' ? [f, ...anims] : [f];
      const skins = kind === 'md3' ? await listSkins(skinFs, folderOf(f.path), [name.slice(0, -'.md3'.length)]) : [];
      out.push({ kind, path: f.path, anims: kind === 'md5mesh' ? anims.map((a) => a.path) : [], files: [f.path], skins, ...sourceFacts(sources) });
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

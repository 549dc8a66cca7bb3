/**
 * What models a FileSystem holds (an archive, a game folder): one entry per thing worth converting on its own —
 * each file of a model format, each folder of a folder format (a Quake 3 player folder, assembled as one, its files
 * not listed again), each with what plays on it beside it (an md5mesh's md5anims). With each: the `.skin` files
 * offered for it (materials/skins.ts `listSkins`), every source file, their total size and newest modification time
 * (for up-to-date checks of outputs). Read from the directory, and the first bytes of the files of a format that can
 * tell an animation-only file by them (`ModelFormat.animationOnly`): no model is parsed.
 *
 * The formats are handed in: this room knows none of them.
 */
import { ModelParseError } from '../base/errors.js';
import { nameIsAmbiguous, selectFormat, type CompanionRef, type ModelFormat } from './format.js';
import { listSkins, type SkinOffer } from '../materials/skins.js';
import { folderOpening } from './model-set.js';
import { byPath, fileHead, folderPrefix, hasExtension, pathKey, type FileSystem, type VfsFile } from '../vfs/file-system.js';

export interface CatalogEntry {
  /** The id of its format (`md3`, `player`, `md5mesh` …). */
  kind: string;
  /** The model file, or the folder of a folder format (no trailing '/'), as stored. */
  path: string;
  /** What plays on it, found beside it (an md5mesh's .md5anim files), sorted. */
  anims: string[];
  /** A folder format: its files. Others: the model file. */
  files: string[];
  skins: SkinOffer[];
  /** Bytes of every source file (model, anims, parts), as declared. */
  size: number;
  /** The newest source file's modification time (ms), when every source has one. */
  mtimeMs: number | undefined;
  /**
   * Why what plays on it could not be found (an IQM whose iqm.cfg is over `maxScriptBytes`): listed all the same,
   * the model fails where it is read, the rest of the catalog goes on.
   */
  error?: ModelParseError;
}

/** @deprecated the format id; kept for callers of the catalog's old kind union. */
export type CatalogKind = string;

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

/** A file system answering `list` from files listed once (the catalog asks about many folders of one archive). */
function listedOnce(fs: FileSystem, files: readonly VfsFile[]): FileSystem {
  return {
    file: (p) => fs.file(p),
    list: async (folder, extensions) => {
      const prefix = folderPrefix(folder);
      return files.filter((f) => {
        const k = pathKey(f.path);
        return k.startsWith(prefix) && hasExtension(k, extensions);
      });
    },
  };
}

/** Every model `fs` holds, sorted by path (folder formats by folder). */
export async function catalogModels(fs: FileSystem, formats: readonly ModelFormat[]): Promise<CatalogEntry[]> {
  const folderNames = new Set(formats.flatMap((f) => (f.folder ? [...f.folder.required, ...f.folder.optional] : [])));
  const extensions = [...new Set(formats.flatMap((f) => f.extensions)), ...folderNames];
  const listed = (await fs.list('', extensions)).filter((f) => hasExtension(pathKey(f.path), extensions));
  // Skins and what companions are found from (cfg files, anims) are few: listed once, then answered from memory.
  const skinFiles = await fs.list('', ['.skin']);
  const view = listedOnce(fs, [...listed, ...skinFiles].sort(byPath));

  const byFolder = new Map<string, Map<string, VfsFile>>();
  for (const f of listed) {
    const folder = folderOf(f.path).toLowerCase();
    const m = byFolder.get(folder) ?? new Map<string, VfsFile>();
    m.set(nameOf(f.path).toLowerCase(), f);
    byFolder.set(folder, m);
  }

  const out: CatalogEntry[] = [];
  for (const children of byFolder.values()) {
    const claimed = new Set<string>();
    for (const format of formats) {
      const form = format.folder;
      if (!form || !form.matches(children)) continue;
      const files = form.files(children);
      for (const f of files) claimed.add(nameOf(f.path).toLowerCase());
      const folder = folderOf(files[0].path);
      const skins = format.skinNames ? await listSkins(view, folder, format.skinNames(folder)) : [];
      out.push({ kind: format.id, path: folder, anims: [], files: files.map((f) => f.path), skins, ...sourceFacts(files) });
    }
    for (const [name, f] of children) {
      if (claimed.has(name)) continue;
      // a file its folder's format opens whole (Tremulous' nonseg.md3) where the listing lacks the rest of the folder
      // (URLs given one by one: the folder's other files are asked of the server)
      const whole = formats.some((x) => x.folder?.opensFrom?.(name, f.path)) ? await folderOpening(view, f, formats) : null;
      if (whole) {
        const files = whole.format.folder!.files(whole.children);
        for (const g of files) claimed.add(nameOf(g.path).toLowerCase());
        const skins = whole.format.skinNames ? await listSkins(view, whole.folder, whole.format.skinNames(whole.folder)) : [];
        out.push({ kind: whole.format.id, path: whole.folder, anims: [], files: files.map((g) => g.path), skins, ...sourceFacts(files) });
        continue;
      }
      // a name several formats claim (`.mdl`: Quake's and Half-Life's) is told apart by the file's first bytes
      const ambiguous = nameIsAmbiguous(name, formats);
      let head: Uint8Array | null = null;
      const headOf = async () => (head ??= await fileHead(f, 256).catch(() => new Uint8Array(0)));
      const format = selectFormat(name, ambiguous ? await headOf() : null, formats);
      if (!format || format.role !== 'model') continue;
      if (format.animationOnly && format.animationOnly(await headOf())) continue;
      let refs: CompanionRef[] = [];
      let error: ModelParseError | undefined;
      try {
        refs = (await format.companionsBeside?.(view, f.path)) ?? [];
      } catch (e) {
        if (!(e instanceof ModelParseError)) throw e;
        error = e; // one model's hostile config fails that model, not the catalog (it made `convert --all` exit 70)
      }
      // the model's own file, named by its config for clips of its own anims (iqm.cfg), is no companion: listing it
      // would make the model a file another model plays, and leave it out
      const anims = [...new Map(refs.map((r) => (typeof r === 'string' ? r : r.path)).map((p) => [p.toLowerCase(), p] as const)).values()].filter((p) => pathKey(p) !== pathKey(f.path));
      const companionFiles = (await Promise.all(anims.map((p) => view.file(p)))).filter((x): x is VfsFile => x !== null);
      const skins = format.skinNames ? await listSkins(view, folderOf(f.path), format.skinNames(f.path)) : [];
      out.push({ kind: format.id, path: f.path, anims, files: [f.path], skins, ...sourceFacts([f, ...companionFiles]), ...(error ? { error } : {}) });
    }
  }
  // A file another model plays (an animation-only IQM a config names) is that model's, not a model of its own.
  const played = new Set(out.flatMap((e) => e.anims.map((p) => p.toLowerCase())));
  return out.filter((e) => !played.has(e.path.toLowerCase())).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Models read from any FileSystem (an archive, a mounted game folder, a folder on disk): each file streamed from
 * `VfsFile.stream()` into the parsers (a deflated .pk3 member is inflated as it is read, never extracted), and a
 * Quake 3 player assembled from a folder the way ioquake3 cgame loads one (cg_players.c CG_RegisterClientModelname:
 * `models/players/NAME/lower.md3`, `upper.md3`, `head.md3`, then `animation.cfg`, names in any case as the
 * engine's archive lookups are). Platform-neutral: the CLI's single and batch conversions and the browser share it.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import type { Md2Model, Md3Model, Md5Anim, Md5Mesh } from '../base/model.js';
import { parseMd2Stream } from '../formats/md2/stream.js';
import { parseAnimationCfg, type Md3AnimationCfg } from '../formats/md3/animation-cfg.js';
import { readScriptFile } from '../vfs/bounded-read.js';
import { playerTagWarnings, type Md3PlayerModels } from '../formats/md3/player-parts.js';
import { parseMd3Stream } from '../formats/md3/stream.js';
import { parseMd5AnimStream, parseMd5MeshStream } from '../formats/md5/stream.js';
import type { FileSystem, VfsFile } from '../vfs/file-system.js';

/** The file at `path`, or READ_FAILED naming it. */
export async function requireFile(fs: FileSystem, path: string): Promise<VfsFile> {
  const f = await fs.file(path);
  if (!f) throw new ModelParseError(ErrorCode.ReadFailed, `no file ${path}`, { offset: 0 });
  return f;
}

/** Parsers by file kind, each fed the member's stream (its declared size is the stream's size hint). */
export const loadFromVfs = {
  md2: (f: VfsFile): Promise<Md2Model> => parseMd2Stream(f.stream(), { sizeHint: f.size }),
  md3: (f: VfsFile): Promise<Md3Model> => parseMd3Stream(f.stream(), { sizeHint: f.size }),
  md5mesh: (f: VfsFile): Promise<Md5Mesh> => parseMd5MeshStream(f.stream(), { sizeHint: f.size }),
  md5anim: (f: VfsFile): Promise<Md5Anim> => parseMd5AnimStream(f.stream(), { sizeHint: f.size }),
};

/** What a player folder holds besides the three parts (weapon.md3 hangs on upper's tag_weapon). */
export const PLAYER_PART_FILES = ['lower.md3', 'upper.md3', 'head.md3'] as const;

/** A player read from a FileSystem, with each file's warnings attributed to its origin. */
export interface VfsPlayer {
  models: Md3PlayerModels;
  animations: Md3AnimationCfg | undefined;
  /** Every file read (parts, weapon, animation.cfg). */
  files: VfsFile[];
  /** Warnings per file origin; the folder's own (missing tags) under the folder's origin (`playerOrigin`). */
  warnings: { file: string; warnings: readonly ParseWarning[] }[];
}

/** The direct children of `folder` (any case), by lower-case name. */
export async function folderChildren(fs: FileSystem, folder: string): Promise<Map<string, VfsFile>> {
  const prefix = folder.replace(/\/+$/, '');
  const cut = prefix ? prefix.length + 1 : 0;
  const out = new Map<string, VfsFile>();
  for (const f of await fs.list(prefix)) {
    const rest = f.path.slice(cut);
    if (!rest.includes('/')) out.set(rest.toLowerCase(), f);
  }
  return out;
}

/**
 * The player in `folder`: lower, upper and head (READ_FAILED without one, as CG_RegisterClientModelname refuses
 * it), weapon.md3 when present, animation.cfg when present (without it, every part plays all its frames).
 * `onFile(file, read)` wraps each read, so a caller can attribute a failure to the file (the CLI's InputError).
 */
export async function loadPlayerFrom(
  fs: FileSystem,
  folder: string,
  onFile: <T>(file: VfsFile, read: () => Promise<T>) => Promise<T> = (_f, read) => read(),
): Promise<VfsPlayer> {
  const children = await folderChildren(fs, folder);
  const missing = PLAYER_PART_FILES.filter((n) => !children.has(n));
  if (missing.length) throw new ModelParseError(ErrorCode.ReadFailed, `${folder}: not a Quake 3 player folder: no ${missing.join(', ')}`, { offset: 0 });
  const files: VfsFile[] = [];
  const warnings: VfsPlayer['warnings'] = [];
  const part = async (name: string): Promise<Md3Model> => {
    const f = children.get(name)!;
    const model = await onFile(f, () => loadFromVfs.md3(f));
    files.push(f);
    warnings.push({ file: f.origin, warnings: model.warnings });
    return model;
  };
  const lower = await part('lower.md3');
  const upper = await part('upper.md3');
  const head = await part('head.md3');
  const weapon = children.has('weapon.md3') ? await part('weapon.md3') : undefined;
  let animations: Md3AnimationCfg | undefined;
  const cfg = children.get('animation.cfg');
  if (cfg) {
    animations = await onFile(cfg, async () => parseAnimationCfg(await readScriptFile(cfg))); // at most maxScriptBytes
    files.push(cfg);
    warnings.push({ file: cfg.origin, warnings: animations.warnings });
  }
  // A part without the tag the chain hangs the next part on still loads, as in ioquake3 (R_LerpTag's identity).
  const models: Md3PlayerModels = { lower, upper, head, ...(weapon ? { weapon } : {}) };
  warnings.push({ file: playerOrigin(files[0]), warnings: playerTagWarnings(models) });
  return { models, animations, files, warnings };
}

/** A player folder's origin, from one of its files' (`pak0.pk3:models/players/sarge`). */
export const playerOrigin = (part: VfsFile): string => part.origin.replace(/[\\/][^\\/]*$/, '');

/** Whether the direct children hold a player's three parts. */
export const isPlayerFolder = (children: ReadonlyMap<string, unknown>): boolean => PLAYER_PART_FILES.every((n) => children.has(n));

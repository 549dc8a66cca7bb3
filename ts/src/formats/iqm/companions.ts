/**
 * What plays on an IQM mesh, as the engine that ships such sets pairs them: Tesseract / Red Eclipse name a mesh's
 * animation files in the `iqm.cfg` beside it (`iqmanim`, through `exec`s), and play a file on a mesh when the file's
 * poses are one per joint of the mesh's skeleton (iqm.h `loadiqmanims`: `hdr.num_poses != skel->numbones` refuses
 * the file: `pose/iqm-anim-match.ts`). The IQM's own anims play on it too (ioquake3 and DarkPlaces read no other file).
 *
 * Everything is read under the game's root (`root`: the game folder a loose model sits in, or its own folder when it
 * sits in none; the file system's root for an archive or a mounted folder): a config's paths never lead out of it.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../../base/errors.js';
import type { FileSystem } from '../../vfs/file-system.js';
import type { CompanionRef } from '../../load/format.js';
import { defaultModelRoot, isUnderRoot } from '../../vfs/safe-path.js';
import { configClips, normalisePath, readIqmConfig, type IqmCfgClip } from './iqm-cfg.js';

/** What a config's clip says beyond its name and rate: which anim of the file, and its frame cuts. */
export type IqmClipDetail = Pick<IqmCfgClip, 'anim' | 'startOffset' | 'endOffset' | 'part' | 'variant'>;

/** Where a model's configs are read from: the game's root in the file system (see the file's comment). */
export interface IqmCompanionOptions {
  root?: string;
  signal?: AbortSignal;
  /** Told each path the config names out of the root (UNSAFE_PATH), by the config read first. */
  onWarning?(file: string, warning: ParseWarning): void;
}

const folderOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/** The most configs read to name the meshes an animation-only file plays on (the refusal names three). */
export const MAX_CONFIGS_SCANNED = 64;

/**
 * The meshes an animation-only file plays on — what the refusal to open it alone names (the engine never looks
 * this way: a mesh's config names its animations). The `iqm.cfg`s in the file's own folder and below (Red Eclipse
 * keeps a player's animations in `actors/player/`, its meshes' configs in `actors/player/male/` …; the janitor's
 * LODs in `janitor/lod1/` name `../arm-idle.iqm`) whose `iqmanim` lines name the file, by the mesh their `iqmload`
 * loads; in path order. Only below the game's root: when the file's folder is the root itself (a loose file in no
 * game folder: the folder could be the system's temporary folder), only the `iqm.cfg` beside it, nothing listed.
 * At most {@link MAX_CONFIGS_SCANNED} configs are read; one that cannot be read (over `maxScriptBytes`, naming too
 * many clips) is passed over. Never throws but for an abort.
 */
export async function iqmMeshesPlaying(fs: FileSystem, path: string, options: IqmCompanionOptions = {}): Promise<string[]> {
  const self = normalisePath(path).toLowerCase();
  const folder = folderOf(normalisePath(path));
  const root = options.root ?? defaultModelRoot(path);
  if (!isUnderRoot(root, folder)) return [];
  const beside = folder ? `${folder}/iqm.cfg` : 'iqm.cfg';
  const atRoot = isUnderRoot(folder, root);
  const cfgs = atRoot
    ? [await fs.file(beside)].filter((f) => f !== null)
    : (await fs.list(folder, ['iqm.cfg'])).filter((f) => f.path.toLowerCase().endsWith('/iqm.cfg') || f.path.toLowerCase() === 'iqm.cfg');
  const meshes = new Set<string>();
  for (const cfg of cfgs.slice(0, MAX_CONFIGS_SCANNED)) {
    try {
      const config = await readIqmConfig(fs, cfg.path, { root, signal: options.signal });
      if (config.loads.length && config.anims.some((a) => a.found && normalisePath(a.file).toLowerCase() === self)) for (const l of config.loads) meshes.add(l.file);
    } catch (e) {
      if (!(e instanceof ModelParseError)) throw e; // an abort
    }
  }
  return [...meshes].sort();
}

/**
 * The clips the `iqm.cfg` beside `path` names for it (resolving `exec`, `iqmdir` and relative paths as Tesseract
 * does, under the root): each `iqmanim` name with its file, rate and cuts, the mesh itself left out; [] without a
 * config, or when the config loads another mesh. Throws what `readIqmConfig` throws (RESOURCE_LIMIT for a config
 * over `maxScriptBytes` or naming more than `maxAnimationClips` clips, READ_FAILED), naming the config.
 */
export async function iqmCompanionsBeside(fs: FileSystem, path: string, options: IqmCompanionOptions = {}): Promise<CompanionRef[]> {
  const folder = folderOf(normalisePath(path));
  const root = options.root ?? defaultModelRoot(path);
  const cfgPath = folder ? `${folder}/iqm.cfg` : 'iqm.cfg';
  if (!isUnderRoot(root, cfgPath)) return [];
  const cfgFile = await fs.file(cfgPath);
  if (!cfgFile) return [];
  const config = await readIqmConfig(fs, cfgFile.path, { root, signal: options.signal });
  for (const w of config.warnings) if (w.code === ErrorCode.UnsafePath) options.onWarning?.(cfgFile.origin, w);
  const self = normalisePath(path).toLowerCase();
  if (config.loads.length && !config.loads.some((l) => l.file.toLowerCase() === self)) return [];
  // a clip of the model's own file is a clip too (the file's anim cut and named by the line): the set plays the
  // model's own data for it (model-set.ts)
  return configClips(config).map((c) => ({ path: c.file, name: c.name, fps: c.fps, detail: { anim: c.anim, startOffset: c.startOffset, endOffset: c.endOffset, part: c.part, variant: c.variant } satisfies IqmClipDetail }));
}

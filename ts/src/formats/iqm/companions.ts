/**
 * What plays on an IQM mesh, as the engine that ships such sets pairs them: Tesseract / Red Eclipse name a mesh's
 * animation files in the `iqm.cfg` beside it (`iqmanim`, through `exec`s), and play a file on a mesh when the file's
 * poses are one per joint of the mesh's skeleton (iqm.h `loadiqmanims`: `hdr.num_poses != skel->numbones` refuses
 * the file: `pairing.ts`). The IQM's own anims play on it too (ioquake3 and DarkPlaces read no other file).
 */
import type { FileSystem } from '../../vfs/file-system.js';
import type { CompanionRef } from '../../load/format.js';
import { configClips, normalisePath, readIqmConfig, type IqmCfgClip } from './iqm-cfg.js';

/** What a config's clip says beyond its name and rate: which anim of the file, and its frame cuts. */
export type IqmClipDetail = Pick<IqmCfgClip, 'anim' | 'startOffset' | 'endOffset' | 'part' | 'variant'>;

const folderOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/**
 * The meshes an animation-only file plays on: every `iqm.cfg` in its folder's parent and below (Red Eclipse keeps a
 * player's animations in `actors/player/`, its meshes' configs in `actors/player/male/` …; the janitor's LODs name
 * `../arm-idle.iqm`) whose `iqmanim` lines name the file, by the mesh its `iqmload` loads. In path order.
 */
export async function iqmMeshesPlaying(fs: FileSystem, path: string): Promise<string[]> {
  const self = normalisePath(path).toLowerCase();
  const folder = folderOf(folderOf(normalisePath(path)));
  const meshes = new Set<string>();
  for (const cfg of (await fs.list(folder)).filter((f) => f.path.toLowerCase().endsWith('/iqm.cfg') || f.path.toLowerCase() === 'iqm.cfg')) {
    const config = await readIqmConfig(fs, cfg.path);
    if (config.loads.length && config.anims.some((a) => a.found && normalisePath(a.file).toLowerCase() === self)) for (const l of config.loads) meshes.add(l.file);
  }
  return [...meshes].sort();
}

/**
 * The clips the `iqm.cfg` beside `path` names for it (resolving `exec`, `iqmdir` and relative paths as Tesseract
 * does): each `iqmanim` name with its file, rate and cuts, the mesh itself left out; [] without a config, or when the
 * config loads another mesh.
 */
export async function iqmCompanionsBeside(fs: FileSystem, path: string): Promise<CompanionRef[]> {
  const folder = folderOf(normalisePath(path));
  const cfgPath = folder ? `${folder}/iqm.cfg` : 'iqm.cfg';
  const cfgFile = await fs.file(cfgPath);
  if (!cfgFile) return [];
  const config = await readIqmConfig(fs, cfgFile.path);
  const self = normalisePath(path).toLowerCase();
  if (config.loads.length && !config.loads.some((l) => l.file.toLowerCase() === self)) return [];
  return configClips(config)
    .filter((c) => c.file.toLowerCase() !== self)
    .map((c) => ({ path: c.file, name: c.name, fps: c.fps, detail: { anim: c.anim, startOffset: c.startOffset, endOffset: c.endOffset, part: c.part, variant: c.variant } satisfies IqmClipDetail }));
}

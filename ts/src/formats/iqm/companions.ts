/**
 * What plays on an IQM mesh, as the engine that ships such sets pairs them: Tesseract / Red Eclipse name a mesh's
 * animation files in the `iqm.cfg` beside it (`iqmanim`, through `exec`s), and play a file on a mesh when the file's
 * poses are one per joint of the mesh's skeleton (iqm.h `loadiqmanims`: `hdr.num_poses != skel->numbones` refuses
 * the file: `pairing.ts`). The IQM's own anims play on it too (ioquake3 and DarkPlaces read no other file).
 */
import type { FileSystem } from '../../vfs/file-system.js';
import { configAnimationFiles, normalisePath, readIqmConfig } from './iqm-cfg.js';

const folderOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/**
 * The animation files the `iqm.cfg` beside `path` names for it (resolving `exec`, `iqmdir` and relative paths as
 * Tesseract does), each once, the mesh itself left out; [] without a config, or when the config loads another mesh.
 */
export async function iqmCompanionsBeside(fs: FileSystem, path: string): Promise<string[]> {
  const folder = folderOf(normalisePath(path));
  const cfgPath = folder ? `${folder}/iqm.cfg` : 'iqm.cfg';
  const cfgFile = await fs.file(cfgPath);
  if (!cfgFile) return [];
  const config = await readIqmConfig(fs, cfgFile.path);
  const self = normalisePath(path).toLowerCase();
  if (config.loads.length && !config.loads.some((l) => l.file.toLowerCase() === self)) return [];
  return configAnimationFiles(config).filter((f) => f.toLowerCase() !== self);
}

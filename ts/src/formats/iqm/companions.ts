/**
 * What plays on an IQM mesh, as the engine that ships such sets pairs them: Tesseract / Red Eclipse name a mesh's
 * animation files in the `iqm.cfg` beside it (`iqmanim`, through `exec`s), and play a file on a mesh when the file's
 * poses are one per joint of the mesh's skeleton (iqm.h `loadiqmanims`: `hdr.num_poses != skel->numbones` refuses
 * the file). The IQM's own anims play on it too (ioquake3 and DarkPlaces read no other file).
 */
import type { ParseWarning } from '../../base/errors.js';
import type { IqmModel } from '../../base/model.js';
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

/**
 * Whether the IQM `companion` can play on the mesh `data`: null when it can, else why not. Tesseract checks only the
 * pose count against the skeleton's joints; a parent that differs is accepted with a warning (the anim then moves
 * the joint as if its parent were the mesh's).
 */
export function iqmAcceptsCompanion(data: IqmModel, companion: unknown, companionFormat: string, warnings: ParseWarning[]): string | null {
  if (companionFormat !== 'iqm') return `a ${companionFormat} file does not play on an IQM`;
  const anim = companion as IqmModel;
  if (data.joints.count === 0) return 'the mesh has no joints';
  if (anim.anims.length === 0 || anim.frameCount === 0) return 'the file holds no anims';
  if (anim.poses.count !== data.joints.count) {
    return `the file has ${anim.poses.count} poses, the mesh ${data.joints.count} joints (Tesseract loadiqmanims: num_poses != numbones)`;
  }
  const differ: number[] = [];
  for (let j = 0; j < data.joints.count; j++) if (anim.poses.parents[j] !== data.joints.parents[j]) differ.push(j);
  if (differ.length) {
    warnings.push({ code: 'IQM_POSE_PARENTS', message: `${differ.length} pose parent(s) differ from the mesh's joints (first: joint ${differ[0]} "${data.joints.names[differ[0]]}", pose parent ${anim.poses.parents[differ[0]]}, joint parent ${data.joints.parents[differ[0]]}); the mesh's hierarchy is used, as Tesseract does`, offset: 0 });
  }
  return null;
}

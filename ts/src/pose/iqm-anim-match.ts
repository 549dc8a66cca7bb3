/**
 * Whether an animation file plays on an IQM mesh, as Tesseract pairs them (iqm.h `loadiqmanims`: the file's poses
 * must be one per joint of the mesh's skeleton, `num_poses != numbones` refuses it). Apart from the config reading
 * (`formats/iqm/companions.ts`), so that what poses and exports IQM does not carry the Cubescript reader. Beside its
 * poser (`iqm-poser.ts`), which the bakes (`bake/`) run as well as IQM's room, as the MD5 pair (`anim-mesh-match.ts`).
 */
import type { ParseWarning } from '../base/errors.js';
import type { IqmModel } from '../base/model.js';

/** Frames a second where neither a clip nor its IQM anim gives a rate: Tesseract's default (animmodel.h: 100 ms a frame). */
export const IQM_DEFAULT_FPS = 10;

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

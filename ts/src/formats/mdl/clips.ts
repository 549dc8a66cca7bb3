/**
 * Clips of an MDL. Quake's QuakeC plays frames by number (`$frame stand1 stand2 …` in the model's .qc, `self.frame`
 * in the think functions), and modelgen named them after their animation plus a number, as qdata did for MD2; so
 * clips are recovered the same way, by MD2's grouping (base/frame-clips.ts), over every pose (frame groups
 * expanded: a flame's group of six poses named `flame1`..`flame6` is one `flame` clip).
 */
import type { Md2Clip, MdlFrame } from '../../base/model.js';
import { groupClips } from '../../base/frame-clips.js';

/** Runs of consecutive poses whose names agree once trailing digits go. */
export function mdlClips(poseNames: readonly string[]): Md2Clip[] {
  return groupClips(poseNames);
}

/** The frame record holding pose `pose`, or -1 (frames hold consecutive poses, in order). */
export function frameOfPose(frames: readonly Pick<MdlFrame, 'firstPose' | 'poseCount'>[], pose: number): number {
  let lo = 0, hi = frames.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const f = frames[mid];
    if (pose < f.firstPose) hi = mid - 1;
    else if (pose >= f.firstPose + f.poseCount) lo = mid + 1;
    else return mid;
  }
  return -1;
}

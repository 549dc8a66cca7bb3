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

/**
 * The intervals of the frame group that a clip of `poseCount` poses from `firstPose` is exactly, when they rise
 * from above 0 (each the time its pose ends, from the group's start, as the engine reads them); else null: the clip
 * plays at a fixed rate.
 */
export function clipGroupIntervals(frames: readonly Pick<MdlFrame, 'firstPose' | 'poseCount' | 'intervals'>[], firstPose: number, poseCount: number): Float32Array | null {
  const g = frames.find((f) => f.poseCount > 1 && f.firstPose === firstPose && f.poseCount === poseCount);
  const iv = g?.intervals;
  if (!iv || iv.length !== poseCount) return null;
  for (let i = 0; i < iv.length; i++) if (!Number.isFinite(iv[i]) || !(iv[i] > (i === 0 ? 0 : iv[i - 1]))) return null;
  return iv;
}

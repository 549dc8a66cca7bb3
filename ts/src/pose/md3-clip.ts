/**
 * Which two frames of a model an animation.cfg clip shows at a given time: the frame sequence of ioquake3
 * `CG_RunLerpFrame` made stateless (time measured from the clip's start, no initial lerp from the previous
 * clip). Frame k of the clip (k = floor(time / frameLerp)) past the end wraps into the last `loopFrames` frames,
 * or holds the last frame when `loopFrames` is 0; `reversed` plays first + num − 1 − k; `flipflop` plays forwards
 * then backwards.
 */
import type { FrameBlend } from './md5-poser.js';
import type { Md3Animation } from '../formats/md3/animation-cfg.js';

/** The model frame shown at step `k` (≥ 0) of `anim`, and whether it is held (no further frames). */
function frameAtStep(anim: Md3Animation, k: number): { frame: number; held: boolean } {
  const length = anim.flipflop ? anim.numFrames * 2 : anim.numFrames;
  let f = k;
  let held = false;
  if (f >= length) {
    if (anim.loopFrames > 0) {
      f = ((f - length) % anim.loopFrames) + anim.numFrames - anim.loopFrames;
    } else {
      f = length - 1;
      held = true;
    }
  }
  let frame: number;
  if (anim.reversed) frame = anim.firstFrame + anim.numFrames - 1 - f;
  else if (anim.flipflop && f >= anim.numFrames) frame = anim.firstFrame + anim.numFrames - 1 - (f % anim.numFrames);
  else frame = anim.firstFrame + f;
  return { frame, held };
}

/** The frame pair and blend that `anim` shows `seconds` after it started (negative or NaN time → its first frame). */
export function md3ClipFrameAt(anim: Md3Animation, seconds: number): FrameBlend {
  if (anim.numFrames === 0) return { frame1: anim.firstFrame, frame2: anim.firstFrame, t: 0 };
  // The engine skips a clip whose frameLerp truncated to 0 ms (fps > 1000); 1 ms keeps it moving instead.
  const lerpMs = Math.max(1, anim.frameLerpMs);
  const steps = Number.isFinite(seconds) && seconds > 0 ? (seconds * 1000) / lerpMs : 0;
  const k = Math.floor(steps);
  const a = frameAtStep(anim, k);
  if (a.held) return { frame1: a.frame, frame2: a.frame, t: 0 };
  const b = frameAtStep(anim, k + 1);
  return { frame1: a.frame, frame2: b.frame, t: steps - k };
}

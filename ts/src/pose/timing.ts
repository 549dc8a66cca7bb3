/**
 * Time → frames, for every format, in one place: which two frames a pose blends at a time in seconds, and how far
 * between them. Three clocks, because the engines differ:
 * - MD5 (`frameAtTime`): Doom 3 plays an md5anim as a cycle of (frameCount − 1) / frameRate s, its last frame
 *   closing the cycle;
 * - MD2 / MD3 clips (`clipBlend`): frame k lasts 1/fps, the clip loops over its last `loopFrames` frames (Quake 2
 *   at 10 Hz; Quake 3 clips carry their own rate);
 * - a Quake 3 animation.cfg clip (`md3ClipFrameAt`): ioquake3's CG_RunLerpFrame sequence, with reversed and
 *   flip-flop clips.
 * One rule for times that are not numbers of seconds, in every clock and so in every poser's `poseTime`: NaN and
 * ±Infinity are a RangeError (`checkTime`), never a silent frame 0; any finite time, however large, gives a frame
 * of the clip (a time whose frame count overflows a double is reduced by the clip's period first).
 */
import type { Md5Anim } from '../base/model.js';

/** Two frames and frame2's weight: the pose is frame1 · (1 − t) + frame2 · t (frame1 = frame2, t = 0 for one frame). */
export interface FrameBlend {
  frame1: number;
  frame2: number;
  /** Weight of frame2, in [0, 1]. */
  t: number;
}

/** Throws a RangeError for a time that is NaN or infinite (see the file comment). */
export function checkTime(seconds: number): void {
  if (!Number.isFinite(seconds)) throw new RangeError(`time ${seconds} is not a finite number of seconds`);
}

/**
 * Time in seconds → two frames and a blend factor. A cycle lasts (frameCount − 1) / frameRate seconds: frame
 * frameCount − 1 is where the cycle ends (and, looping, frame 0 begins again). Without `loop`, times past the
 * end hold the last frame and times before 0 hold the first.
 */
export function frameAtTime(anim: Pick<Md5Anim, 'frameCount' | 'frameRate'>, seconds: number, loop = true): FrameBlend {
  checkTime(seconds);
  const last = anim.frameCount - 1;
  if (last <= 0) return { frame1: 0, frame2: 0, t: 0 };
  let ft = seconds * anim.frameRate;
  // 1e308 s at 24 fps overflows: the same place in the cycle from the time reduced by the cycle's length first
  if (!Number.isFinite(ft)) ft = loop ? (seconds % (last / anim.frameRate)) * anim.frameRate : ft;
  let f = Math.floor(ft);
  let t = ft - f;
  if (loop) {
    f = ((f % last) + last) % last;
  } else if (f >= last) {
    return { frame1: last, frame2: last, t: 0 };
  } else if (f < 0) {
    return { frame1: 0, frame2: 0, t: 0 };
  }
  if (t < 0) t = 0;
  return { frame1: f, frame2: f + 1, t };
}

/** A run of frames played as one animation. `fps` defaults to the format's usual rate. */
export interface MorphClip {
  firstFrame: number;
  frameCount: number;
  fps?: number;
  /** Frames at the end that loop (Quake 3 `animation.cfg`); default: the whole clip loops. 0: plays once and holds. */
  loopFrames?: number;
}

/** Quake 2 runs its server, and so model animation, at 10 frames per second. */
export const MD2_DEFAULT_FPS = 10;
/** When a clip gives no rate. Quake 3's animation.cfg always gives one; 15 is the common value there. */
export const MD3_DEFAULT_FPS = 15;

/**
 * The blend `seconds` into a clip: frame k of the clip lasts 1/fps; after the last frame the clip loops back
 * over its last `loopFrames` frames (all of them by default), or holds the last frame when `loopFrames` is 0.
 */
export function clipBlend(clip: MorphClip, seconds: number, defaultFps: number): FrameBlend {
  checkTime(seconds);
  const count = Math.max(1, clip.frameCount | 0);
  const fps = clip.fps && clip.fps > 0 ? clip.fps : defaultFps;
  const loop = Math.min(count, Math.max(0, clip.loopFrames ?? count));
  let f = Math.max(0, seconds) * fps;
  // overflowed (a time near 1e308 s): past the end, so a frame of the loop, from the time reduced by its period
  if (!Number.isFinite(f)) f = loop === 0 ? count : count - loop + ((seconds % (loop / fps)) * fps);
  const whole = Math.floor(f);
  const t = f - whole;
  const wrap = (k: number) => (k < count ? k : loop === 0 ? count - 1 : count - loop + ((k - (count - loop)) % loop));
  const a = wrap(whole);
  const b = wrap(whole + 1);
  return { frame1: clip.firstFrame + a, frame2: clip.firstFrame + b, t: a === b ? 0 : t };
}

// An animation.cfg clip: the frame sequence of ioquake3 `CG_RunLerpFrame` made stateless (time measured from the
// clip's start, no initial lerp from the previous clip). Frame k of the clip (k = floor(time / frameLerp)) past the end wraps into the last `loopFrames` frames, or holds
// the last frame when `loopFrames` is 0; `reversed` plays first + num − 1 − k; `flipflop` plays forwards then backwards.

/** What the Quake 3 family's clip timing reads of a clip (an animation.cfg line: `formats/md3/animation-cfg.ts`). */
export interface LerpFrameClip {
  firstFrame: number;
  numFrames: number;
  /** The last `loopFrames` frames repeat; 0 = play once and hold the last frame. */
  loopFrames: number;
  /** The engine's milliseconds per frame. */
  frameLerpMs: number;
  reversed: boolean;
  flipflop: boolean;
}

/** The model frame shown at step `k` (≥ 0) of `anim`, and whether it is held (no further frames). */
function frameAtStep(anim: LerpFrameClip, k: number): { frame: number; held: boolean } {
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

/** The frame pair and blend that `anim` shows `seconds` after it started (a negative time → its first frame). */
export function md3ClipFrameAt(anim: LerpFrameClip, seconds: number): FrameBlend {
  checkTime(seconds);
  if (anim.numFrames === 0) return { frame1: anim.firstFrame, frame2: anim.firstFrame, t: 0 };
  // The engine skips a clip whose frameLerp truncated to 0 ms (fps > 1000); 1 ms keeps it moving instead.
  const lerpMs = Math.max(1, anim.frameLerpMs);
  let steps = seconds > 0 ? (seconds * 1000) / lerpMs : 0;
  if (!Number.isFinite(steps)) {
    // overflowed: past the end, so a step of the loop (from the time reduced by its period), or the held frame
    const length = anim.flipflop ? anim.numFrames * 2 : anim.numFrames;
    steps = anim.loopFrames > 0 ? length + ((seconds % ((anim.loopFrames * lerpMs) / 1000)) * 1000) / lerpMs : length;
  }
  const k = Math.floor(steps);
  const a = frameAtStep(anim, k);
  if (a.held) return { frame1: a.frame, frame2: a.frame, t: 0 };
  const b = frameAtStep(anim, k + 1);
  return { frame1: a.frame, frame2: b.frame, t: steps - k };
}

/** Quake animates models at 10 frames per second (QuakeC think functions step `self.frame` every 0.1 s). */
export const MDL_DEFAULT_FPS = 10;

/**
 * The blend `seconds` into an MDL frame group, poses local to the group. Which pose shows follows Quake's
 * R_AliasSetupFrame (r_alias.c): the group loops over its last interval, and a pose shows until the time its
 * interval names (the intervals are end times, from the group's start); the blend then moves towards the next pose
 * (the last towards the first) over that pose's span, as QuakeSpasm's r_lerpmodels lerps between poses. Intervals
 * that are not positive and increasing (WinQuake refuses them) play every pose for the first interval, as
 * QuakeSpasm reads only that one, or for 0.1 s when it is not positive either (DarkPlaces' fallback).
 */
export function mdlGroupBlend(intervals: ArrayLike<number>, poseCount: number, seconds: number): FrameBlend {
  const n = Math.max(1, poseCount | 0);
  if (n === 1) return { frame1: 0, frame2: 0, t: 0 };
  let ends: ArrayLike<number> = intervals;
  let ok = intervals.length >= n;
  for (let i = 0; ok && i < n; i++) ok = intervals[i] > (i === 0 ? 0 : intervals[i - 1]) && Number.isFinite(intervals[i]);
  if (!ok) {
    const step = intervals.length > 0 && intervals[0] > 0 && Number.isFinite(intervals[0]) ? intervals[0] : 0.1;
    ends = Array.from({ length: n }, (_, i) => step * (i + 1));
  }
  const full = ends[n - 1];
  const s = Number.isFinite(seconds) ? seconds : 0;
  const time = s - Math.floor(s / full) * full;
  let i = 0;
  while (i < n - 1 && ends[i] <= time) i++;
  const start = i === 0 ? 0 : ends[i - 1];
  const t = Math.min(1, Math.max(0, (time - start) / (ends[i] - start)));
  return { frame1: i, frame2: (i + 1) % n, t };
}

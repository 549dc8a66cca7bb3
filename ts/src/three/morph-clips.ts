/**
 * Vertex animation as `AnimationClip`s: a clip shows a sequence of model frames, one per step of `step` seconds, and
 * each frame shown is one `NumberKeyframeTrack` on `<mesh>.morphTargetInfluences[<frame>]` that is 1 at the steps
 * showing it and 0 at their neighbours — linear interpolation between two steps then weighs the two frames (1 − t, t),
 * the engines' vertex lerp, and every other frame stays 0. Tracks address influences by index (names may repeat
 * in a model); the same clip drives the morph-target mesh and the poser-driven one (`morph-mesh.ts`).
 *
 * Timing, as the engines play it: MD2 clips at 10 fps, MD3 at 15 (`clipBlend`), animation.cfg clips at their own
 * rate with ioquake3's whole-millisecond frame time (`md3ClipFrameAt`). A looping clip ends with a key showing the
 * frame that follows its last (its first), one step later, so `LoopRepeat` blends the last frame back into the first
 * as `clipBlend` does; a clip that plays once ends on its last frame (`LoopOnce` with `clampWhenFinished` holds it).
 */
import { AnimationClip, NumberKeyframeTrack, type KeyframeTrack } from 'three';

/** What a vertex-animation clip carries in `userData.idtech`. */
export interface MorphClipInfo {
  format: 'md2' | 'md3' | 'player';
  /** The model frames shown, one per step (a looping clip's closing key included). */
  frames: number[];
  /** Seconds per step. */
  step: number;
  /** `repeat`: play with LoopRepeat; `once`: LoopOnce and clampWhenFinished, as the engine holds the last frame. */
  loop: 'repeat' | 'once';
  /** Quake 3 player clips: which part they move (`legs`: LEGS_*, `torso`: TORSO_*, `both`: BOTH_*). */
  channel?: 'legs' | 'torso' | 'both';
}

/** Influence tracks for `frames` (one model frame per step) on each mesh named in `meshes`. */
export function influenceTracks(meshes: readonly string[], frames: readonly number[], step: number): KeyframeTrack[] {
  const steps = new Map<number, number[]>(); // frame → the steps showing it
  frames.forEach((f, k) => (steps.get(f) ?? steps.set(f, []).get(f)!).push(k));
  const tracks: KeyframeTrack[] = [];
  for (const [frame, shown] of [...steps].sort((a, b) => a[0] - b[0])) {
    const keys = new Set<number>();
    for (const k of shown) {
      if (k > 0) keys.add(k - 1);
      keys.add(k);
      if (k + 1 < frames.length) keys.add(k + 1);
    }
    const order = [...keys].sort((a, b) => a - b);
    const times = Float32Array.from(order, (k) => k * step);
    const values = Float32Array.from(order, (k) => (frames[k] === frame ? 1 : 0));
    for (const mesh of meshes) tracks.push(new NumberKeyframeTrack(`${mesh}.morphTargetInfluences[${frame}]`, times, values));
  }
  return tracks;
}

/** A clip of `info.frames` on the influences of `meshes`, plus any other tracks (tags) keyed at the same steps. */
export function morphClip(name: string, meshes: readonly string[], info: MorphClipInfo, extra: KeyframeTrack[] = []): AnimationClip {
  // one step at least: a clip of duration 0 divides by zero when looped
  const frames = info.frames.length === 1 ? [info.frames[0], info.frames[0]] : info.frames;
  const clip = new AnimationClip(name, (frames.length - 1) * info.step, [...influenceTracks(meshes, frames, info.step), ...extra]);
  clip.userData = { idtech: { ...info, frames } };
  return clip;
}

/** Key times 0, step, 2·step, … for `count` keys (what `extra` tracks of a clip use). */
export function stepTimes(count: number, step: number): Float32Array {
  return Float32Array.from({ length: Math.max(2, count) }, (_, k) => k * step);
}

/**
 * Vertex animation as `AnimationClip`s: a clip shows a sequence of model frames, one per key, and each frame shown
 * is one `NumberKeyframeTrack` on `<mesh>.morphTargetInfluences[<frame>]` that is 1 at the keys showing it and 0 at
 * their neighbours — linear interpolation between two keys then weighs the two frames (1 − t, t), the engines'
 * vertex lerp, and every other frame stays 0. Tracks address influences by index (names may repeat in a model); the
 * same clip drives the morph-target mesh and the poser-driven one (`morph-mesh.ts`).
 *
 * Timing is the view's (`MorphClipView`: MD2 at 10 fps, MD3 at 15, animation.cfg clips at their own rate with
 * ioquake3's whole-millisecond frame time). A looping clip ends with a key showing the frame that follows its last
 * (its first), one step later, so `LoopRepeat` blends the last frame back into the first as the engines do; a clip
 * that plays once ends on its last frame (`LoopOnce` with `clampWhenFinished` holds it).
 */
import { AnimationClip, NumberKeyframeTrack, type KeyframeTrack } from 'three';
import type { MorphClipView } from '../formats/model-view.js';

/** What a vertex-animation clip carries in `userData.idtech`. */
export interface MorphClipInfo {
  /** The id of the model's format (`md2`, `md3`, `player` …). */
  format: string;
  /** The model frames shown, one per key (a looping clip's closing key included). */
  frames: number[];
  /** Seconds per key. */
  step: number;
  /** Seconds of each key, when not `k · step`. */
  times?: readonly number[];
  /** `repeat`: play with LoopRepeat; `once`: LoopOnce and clampWhenFinished, as the engine holds the last frame. */
  loop: 'repeat' | 'once';
  /** The channels it occupies (a Quake 3 player's `legs`, `torso`); absent: all of the model's. */
  channels?: readonly string[];
}

/** Key k's time. */
const keyTime = (info: Pick<MorphClipInfo, 'step' | 'times'>, k: number) => info.times?.[k] ?? k * info.step;

/** Key times of `info` (the keys its frames are shown at). */
export function keyTimes(info: Pick<MorphClipInfo, 'frames' | 'step' | 'times'>): Float32Array {
  return Float32Array.from(info.frames, (_, k) => keyTime(info, k));
}

/** Influence tracks for `info.frames` (one model frame per key) on each mesh named in `meshes`. */
export function influenceTracks(meshes: readonly string[], info: Pick<MorphClipInfo, 'frames' | 'step' | 'times'>): KeyframeTrack[] {
  const { frames } = info;
  const steps = new Map<number, number[]>(); // frame → the keys showing it
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
    const times = Float32Array.from(order, (k) => keyTime(info, k));
    const values = Float32Array.from(order, (k) => (frames[k] === frame ? 1 : 0));
    for (const mesh of meshes) tracks.push(new NumberKeyframeTrack(`${mesh}.morphTargetInfluences[${frame}]`, times, values));
  }
  return tracks;
}

/** The clip info of a view's clip (one key at least two: a clip of duration 0 divides by zero when looped). */
export function clipInfo(format: string, clip: MorphClipView, channels?: readonly string[]): MorphClipInfo {
  const frames = clip.frames.length === 1 ? [clip.frames[0], clip.frames[0]] : [...clip.frames];
  return { format, frames, step: clip.step, ...(clip.times ? { times: clip.times } : {}), loop: clip.loop, ...(channels ? { channels } : {}) };
}

/** A clip named `name` playing `info` by `tracks`, lasting to its last key. */
export function morphClip(name: string, info: MorphClipInfo, tracks: KeyframeTrack[]): AnimationClip {
  const clip = new AnimationClip(name, keyTime(info, info.frames.length - 1), tracks);
  clip.userData = { idtech: info };
  return clip;
}

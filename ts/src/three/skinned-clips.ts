/**
 * A skinned view's clip (`formats/model-view.ts`: every joint's parent-relative transform per key — an md5anim's
 * frames as our kernels compose them) as an `AnimationClip`: per bone a `.position` (VectorKeyframeTrack), a
 * `.quaternion` (QuaternionKeyframeTrack) and, where the format has scale, a `.scale` track. three interpolates
 * them linearly and slerps the quaternions along the shorter arc (Quaternion.slerpFlat), in local space, before
 * composing parents — Doom 3's order (lerp/slerp the local joints, then local → object; docs/design.md "Pose
 * pipeline"). The clip lasts to its last key: an MD5 clip's last frame closes the cycle, as `frameAtTime` plays it,
 * so `LoopRepeat` wraps exactly where the engine does. Keys equal to both neighbours are dropped
 * (`KeyframeTrack.optimize`: lossless for linear interpolation).
 */
import { AnimationClip, InterpolateDiscrete, QuaternionKeyframeTrack, VectorKeyframeTrack, type KeyframeTrack } from 'three';
import type { SkinnedClipView } from '../formats/model-view.js';

/** What a skeletal clip carries in `userData.idtech`. */
export interface SkinnedClipInfo {
  /** The id of the model's format (`md5mesh` …). */
  format: string;
  frameRate: number;
  frameCount: number;
  /** How the engine plays it: `repeat` (a cycle: `LoopRepeat`) or `once`. */
  loop: 'repeat' | 'once';
}

/** The clip of `clip` for bones named `boneNames` (joint order). */
export function skinnedClip(clip: SkinnedClipView, name: string, boneNames: readonly string[], format: string): AnimationClip {
  const tracks: KeyframeTrack[] = [];
  clip.joints.forEach((j, i) => {
    const bone = boneNames[i];
    if (bone === undefined) return;
    tracks.push(new VectorKeyframeTrack(`${bone}.position`, clip.times, j.translation).optimize());
    tracks.push(new QuaternionKeyframeTrack(`${bone}.quaternion`, clip.times, j.rotation).optimize());
    if (j.scale) tracks.push(new VectorKeyframeTrack(`${bone}.scale`, clip.times, j.scale, j.scaleStep ? InterpolateDiscrete : undefined).optimize());
  });
  const out = new AnimationClip(name, clip.times[clip.times.length - 1], tracks);
  const info: SkinnedClipInfo = { format, frameRate: clip.frameRate, frameCount: clip.frameCount, loop: clip.loop };
  out.userData = { idtech: info };
  return out;
}

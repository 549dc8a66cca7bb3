/**
 * One IQM anim → one `AnimationClip`: per bone a `.position`, a `.quaternion` and (where a frame's scale is not 1) a
 * `.scale` track, key k at k / framerate seconds (Tesseract's 10 fps when the file gives none), holding frame
 * first + k's decoded channels (the TS kernel `iqmDecodeFrame`, the posers' own decoding). three lerps positions and
 * scales and slerps quaternions along the shorter arc in local space, then composes parents: ioquake3's
 * ComputePoseMats order. The clip lasts count / framerate: after the last frame it blends back into the first, as
 * the engines loop; `userData.idtech.loop` keeps the file's IQM_LOOP flag (`LoopOnce` for a clip that does not loop).
 */
import { AnimationClip, QuaternionKeyframeTrack, VectorKeyframeTrack, type KeyframeTrack } from 'three';
import type { IqmAnim, IqmModel } from '../base/model.js';
import { IQM_CHANNELS } from '../kernels/layout.js';
import { iqmDecodeFrame } from '../kernels/ts-iqm-kernels.js';
import { IQM_DEFAULT_FPS } from '../formats/iqm/pairing.js';

/** What an IQM clip carries in `userData.idtech`. */
export interface IqmClipInfo {
  format: 'iqm';
  framerate: number;
  firstFrame: number;
  frameCount: number;
  /** The anim's IQM_LOOP flag. */
  loop: boolean;
}

/** The clip of `anim` (of `file`, whose poses are one per bone) for bones named `boneNames` (joint order). */
export function iqmClip(file: IqmModel, anim: IqmAnim, name: string, boneNames: readonly string[]): AnimationClip {
  const first = Math.min(anim.firstFrame, Math.max(0, file.frameCount - 1));
  const count = Math.max(1, Math.min(anim.frameCount, file.frameCount - first));
  const fps = anim.framerate > 0 ? anim.framerate : IQM_DEFAULT_FPS;
  // keys 0 … count, the last one frame 0 again: the loop blends back into the first frame within the clip's length
  const keys = count + 1;
  const times = new Float32Array(keys);
  for (let k = 0; k < keys; k++) times[k] = k / fps;
  const n = boneNames.length;
  const positions = boneNames.map(() => new Float32Array(keys * 3));
  const rotations = boneNames.map(() => new Float32Array(keys * 4));
  const scales = boneNames.map(() => new Float32Array(keys * 3));
  const scaled = new Uint8Array(n);
  const decoded = new Float32Array(file.poses.count * IQM_CHANNELS);
  for (let k = 0; k < keys; k++) {
    iqmDecodeFrame(file.poses.masks, file.poses.offsets, file.poses.scales, file.frames, (first + (k % count)) * file.frameChannels, decoded);
    for (let j = 0; j < n; j++) {
      const o = j * IQM_CHANNELS;
      positions[j].set(decoded.subarray(o, o + 3), k * 3);
      rotations[j].set(decoded.subarray(o + 3, o + 7), k * 4);
      scales[j].set(decoded.subarray(o + 7, o + 10), k * 3);
      if (decoded[o + 7] !== 1 || decoded[o + 8] !== 1 || decoded[o + 9] !== 1) scaled[j] = 1;
    }
  }
  const tracks: KeyframeTrack[] = [];
  for (let j = 0; j < n; j++) {
    tracks.push(new VectorKeyframeTrack(`${boneNames[j]}.position`, times, positions[j]).optimize());
    tracks.push(new QuaternionKeyframeTrack(`${boneNames[j]}.quaternion`, times, rotations[j]).optimize());
    if (scaled[j]) tracks.push(new VectorKeyframeTrack(`${boneNames[j]}.scale`, times, scales[j]).optimize());
  }
  const clip = new AnimationClip(name, times[keys - 1], tracks);
  const info: IqmClipInfo = { format: 'iqm', framerate: fps, firstFrame: first, frameCount: count, loop: anim.loop };
  clip.userData = { idtech: info };
  return clip;
}

/**
 * One md5anim → one `AnimationClip`: per bone a `.position` (VectorKeyframeTrack) and a `.quaternion`
 * (QuaternionKeyframeTrack) track, key f at f / frameRate seconds, holding frame f's parent-relative joint pose as our
 * kernels compose it (`Md5Poser.localPose`). three interpolates those linearly and slerps the quaternions along the
 * shorter arc (Quaternion.slerpFlat), in local space, before composing parents — Doom 3's order (lerp/slerp the local
 * joints, then local → object; docs/design.md "Pose pipeline"). The clip lasts (frameCount − 1) / frameRate s: the
 * last frame closes the cycle, as `frameAtTime` plays it, so `LoopRepeat` wraps exactly where the engine does. Every
 * bone gets tracks, animated or not, because an anim's baseframe may differ from the mesh's bind pose. Keys equal to
 * both neighbours are dropped (`KeyframeTrack.optimize`: lossless for linear interpolation).
 */
import { AnimationClip, QuaternionKeyframeTrack, VectorKeyframeTrack, type KeyframeTrack } from 'three';
import type { Md5Anim } from '../base/model.js';
import { POSE_STRIDE } from '../kernels/layout.js';
import { matchAnimToMesh, sameHierarchy } from '../formats/md5/anim-mesh-match.js';
import { localPoseUnder } from '../pose/md5-hierarchy.js';
import type { Md5Poser } from '../pose/md5-poser.js';

/** What an md5anim clip carries in `userData.idtech`. */
export interface Md5ClipInfo {
  format: 'md5anim';
  frameRate: number;
  frameCount: number;
  /** How the engine plays it: a cycle (`LoopRepeat`). */
  loop: 'repeat';
}

/**
 * The clip of `anim` for bones named `boneNames` (joint order). `poser` composes the frames; the anim is attached to
 * it for the call and detached after.
 */
export function md5Clip(poser: Md5Poser, anim: Md5Anim, name: string, boneNames: readonly string[]): AnimationClip {
  poser.setAnim(anim);
  try {
    const n = anim.jointCount;
    const own = sameHierarchy(matchAnimToMesh(poser.mesh.joints, anim));
    // One frame is a still pose: two equal keys 1/frameRate apart (a clip of duration 0 divides by zero when looped).
    const keys = Math.max(2, anim.frameCount);
    const times = new Float32Array(keys);
    for (let k = 0; k < keys; k++) times[k] = k / anim.frameRate;
    const positions = boneNames.map(() => new Float32Array(keys * 3));
    const rotations = boneNames.map(() => new Float32Array(keys * 4));
    for (let k = 0; k < keys; k++) {
      const f = Math.min(k, anim.frameCount - 1);
      // The bones are the mesh's hierarchy; an anim with other parents poses through its own (Daemon's way).
      const local = own ? poser.localPose(f) : localPoseUnder(poser.mesh.joints.parents, poser.objectPose(f));
      for (let j = 0; j < n; j++) {
        const o = j * POSE_STRIDE;
        positions[j].set(local.subarray(o, o + 3), k * 3);
        const [x, y, z, w] = [local[o + 4], local[o + 5], local[o + 6], local[o + 7]];
        const len = Math.hypot(x, y, z, w) || 1;
        rotations[j].set([x / len, y / len, z / len, w / len], k * 4);
      }
    }
    const tracks: KeyframeTrack[] = [];
    for (let j = 0; j < n; j++) {
      tracks.push(new VectorKeyframeTrack(`${boneNames[j]}.position`, times, positions[j]).optimize());
      tracks.push(new QuaternionKeyframeTrack(`${boneNames[j]}.quaternion`, times, rotations[j]).optimize());
    }
    const clip = new AnimationClip(name, times[keys - 1], tracks);
    const info: Md5ClipInfo = { format: 'md5anim', frameRate: anim.frameRate, frameCount: anim.frameCount, loop: 'repeat' };
    clip.userData = { idtech: info };
    return clip;
  } finally {
    poser.setAnim(null);
  }
}

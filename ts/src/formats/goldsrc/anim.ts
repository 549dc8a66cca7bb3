/**
 * A sequence's animation as Half-Life decodes it (Half-Life SDK cl_dll/StudioModelRenderer.cpp
 * StudioCalcBoneQuaterion / StudioCalcBonePosition; Xash3D-FWGS r_studio.c the same): each bone has an
 * `mstudioanim_t` per blend — six offsets, from the record, to its channels' run-length streams (x y z, then the
 * three Euler angles; 0: the channel does not move). A stream is runs of `{ valid, total }` (two bytes) followed by
 * `valid` shorts: the run covers `total` frames, the frames past its `valid` values holding its last one. A
 * channel's value at frame k is `default + stored × scale`; the angles become a quaternion by AngleQuaternion (Z·Y·X).
 * A bone controller's adjustment (controls.ts `boneAdjust`: StudioCalcBoneAdj's `adj[]`) is added to the channels it
 * drives, at both frames, before the motion bone's position loses the components the sequence's motion type names —
 * the order of StudioCalcRotations (StudioCalcBoneQuaterion / StudioCalcBonePosition add it, then the motion test).
 *
 * Every read is bounds-checked against the file the sequence's group is in: a stream that runs past it is BAD_OFFSET
 * at the stream's offset. The walk moves forward at least two bytes a run, so it ends within the file however the
 * runs lie (the engine's own guard — `total < valid` restarts the count — is kept).
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { POSE_STRIDE } from '../../kernels/layout.js';
import { SIZE } from './limits.js';
import type { GoldsrcBone, GoldsrcModel, GoldsrcSequence } from './model.js';

/** Where a sequence's values are: the file of its group (the model for group 0, a `<name>NN.mdl` otherwise). */
export interface SequenceSource {
  sequence: GoldsrcSequence;
  /** The bytes its `animOffset` counts from. */
  bytes: Uint8Array;
  /** For messages: the file. */
  file: string;
}

const STUDIO_X = 1, STUDIO_Y = 2, STUDIO_Z = 4;

function outside(source: SequenceSource, at: number, what: string): never {
  throw new ModelParseError(ErrorCode.BadOffset, `sequence ${JSON.stringify(source.sequence.label)}: ${what} at byte ${at} runs past the ${source.bytes.length} bytes of ${source.file}`, { offset: at });
}

/** The stored value of the stream at `at` for frame `frame` (the engine's walk, bounds-checked). */
export function channelValue(source: SequenceSource, at: number, frame: number): number {
  const b = source.bytes;
  let p = at, k = frame;
  if (p < 0 || p + 2 > b.length) outside(source, p, 'an animation run');
  let valid = b[p], total = b[p + 1];
  if (total < valid) k = 0;
  while (total <= k) {
    k -= total;
    p += (valid + 1) * 2;
    if (p + 2 > b.length) outside(source, p, 'an animation run');
    valid = b[p];
    total = b[p + 1];
    if (total < valid) k = 0;
  }
  const v = valid > k ? p + 2 * (k + 1) : p + 2 * valid;
  if (v + 2 > b.length) outside(source, v, 'an animation value');
  return (b[v] | (b[v + 1] << 8)) << 16 >> 16;
}

/** Where a channel's walk stands: the run at `p` starts at frame `first`; `stuck`: the engine's guard fired, every later frame is `value`. */
interface Cursor {
  start: number;
  p: number;
  first: number;
  stuck: boolean;
  value: number;
}

/**
 * The engine's walk resumed from where the last frame's ended (frames not decreasing; an earlier frame restarts from
 * the stream's start): the same value as `channelValue`, so decoding a sequence's F frames costs its runs once,
 * not F walks from the start (a stream of one-frame runs made that quadratic).
 */
function cursorValue(source: SequenceSource, c: Cursor, frame: number): number {
  if (frame < c.first) Object.assign(c, { p: c.start, first: 0, stuck: false });
  if (c.stuck) return c.value;
  const b = source.bytes;
  let p = c.p, k = frame - c.first;
  if (p < 0 || p + 2 > b.length) outside(source, p, 'an animation run');
  let valid = b[p], total = b[p + 1];
  let guard = total < valid;
  if (guard) k = 0;
  while (total <= k) {
    k -= total;
    if (!guard) {
      c.first += total;
      c.p = p + (valid + 1) * 2;
    }
    p += (valid + 1) * 2;
    if (p + 2 > b.length) outside(source, p, 'an animation run');
    valid = b[p];
    total = b[p + 1];
    if (total < valid) {
      k = 0;
      guard = true;
    }
  }
  const v = valid > k ? p + 2 * (k + 1) : p + 2 * valid;
  if (v + 2 > b.length) outside(source, v, 'an animation value');
  const value = (b[v] | (b[v + 1] << 8)) << 16 >> 16;
  // once the guard fired, every later frame reaches the same run with k = 0: the same value
  if (guard) Object.assign(c, { stuck: true, value });
  return value;
}

/** A sequence's channels frame after frame (blend `blend`), each channel's walk resumed (`cursorValue`). */
export class SequenceDecoder {
  private readonly cursors: (Cursor | null)[];
  constructor(readonly bones: readonly GoldsrcBone[], readonly source: SequenceSource, readonly blend = 0) {
    const J = bones.length;
    this.cursors = new Array(J * 6).fill(null);
    for (let j = 0; j < J; j++) {
      const rec = animRecord(source, J, blend, j);
      for (let c = 0; c < 6; c++) if (rec.offsets[c] !== 0) this.cursors[j * 6 + c] = { start: rec.at + rec.offsets[c], p: rec.at + rec.offsets[c], first: 0, stuck: false, value: 0 };
    }
  }
  /** As `sequenceChannels` gives them (with `adjust`: each controller's adjustment added to the channels it drives). */
  channels(frame: number, out: Float32Array = new Float32Array(this.bones.length * 6), adjust: Float32Array | null = null): Float32Array {
    const J = this.bones.length;
    for (let j = 0; j < J; j++) {
      const bone = this.bones[j];
      for (let c = 0; c < 6; c++) {
        const cur = this.cursors[j * 6 + c];
        out[j * 6 + c] = cur === null ? bone.value[c] : bone.value[c] + cursorValue(this.source, cur, frame) * bone.scale[c];
      }
    }
    if (adjust) addAdjust(this.bones, adjust, out);
    removeMotion(this.source.sequence, J, out);
    return out;
  }
}

/**
 * StudioCalcBoneQuaterion / StudioCalcBonePosition: a channel linked to controller k (`bone.controllers`) gets
 * `adjust[k]`. A link past the model's controllers reads no adjustment (the engine's `adj[]` there is never set).
 */
function addAdjust(bones: readonly GoldsrcBone[], adjust: Float32Array, out: Float32Array): void {
  for (let j = 0; j < bones.length; j++) {
    const links = bones[j].controllers;
    for (let c = 0; c < 6; c++) {
      const k = links[c];
      if (k >= 0 && k < adjust.length) out[j * 6 + c] += adjust[k];
    }
  }
}

/**
 * StudioCalcRotations: the motion bone loses the position components STUDIO_X / Y / Z of its sequence's motion type
 * name. STUDIO_LX / LY / LZ are left alone, as the engine leaves them: it adds `s × linearmovement` with `s = 0 × …`
 * (Half-Life SDK), because studiomdl took the linear movement out of the stored frames when it compiled them and
 * the game moves the entity instead.
 */
function removeMotion(s: GoldsrcSequence, J: number, out: Float32Array): void {
  const m = s.motionBone;
  if (m >= 0 && m < J) {
    if (s.motionType & STUDIO_X) out[m * 6] = 0;
    if (s.motionType & STUDIO_Y) out[m * 6 + 1] = 0;
    if (s.motionType & STUDIO_Z) out[m * 6 + 2] = 0;
  }
}

/** The six offsets of bone `bone`'s record of blend `blend` (validated to lie in the file). */
function animRecord(source: SequenceSource, boneCount: number, blend: number, bone: number): { at: number; offsets: number[] } {
  const at = source.sequence.animOffset + (blend * boneCount + bone) * SIZE.anim;
  if (at < 0 || at + SIZE.anim > source.bytes.length) outside(source, at, `bone ${bone}'s animation record`);
  const b = source.bytes;
  return { at, offsets: Array.from({ length: 6 }, (_, c) => b[at + 2 * c] | (b[at + 2 * c + 1] << 8)) };
}

/** Half-Life's AngleQuaternion (mathlib.c): Euler angles (radians, about x, y, z) → x y z w into `out` at `o`. */
export function angleQuaternion(ax: number, ay: number, az: number, out: Float32Array, o: number): void {
  const sy = Math.sin(az * 0.5), cy = Math.cos(az * 0.5);
  const sp = Math.sin(ay * 0.5), cp = Math.cos(ay * 0.5);
  const sr = Math.sin(ax * 0.5), cr = Math.cos(ax * 0.5);
  out[o] = sr * cp * cy - cr * sp * sy;
  out[o + 1] = cr * sp * cy + sr * cp * sy;
  out[o + 2] = cr * cp * sy - sr * sp * cy;
  out[o + 3] = cr * cp * cy + sr * sp * sy;
}

/** The six channel values (position, angles) of every bone at frame `frame` of blend `blend`: 6 floats a bone. */
export function sequenceChannels(bones: readonly GoldsrcBone[], source: SequenceSource, frame: number, blend = 0, out: Float32Array = new Float32Array(bones.length * 6), adjust: Float32Array | null = null): Float32Array {
  const J = bones.length;
  for (let j = 0; j < J; j++) {
    const bone = bones[j];
    const rec = animRecord(source, J, blend, j);
    for (let c = 0; c < 6; c++) {
      const off = rec.offsets[c];
      out[j * 6 + c] = off === 0 ? bone.value[c] : bone.value[c] + channelValue(source, rec.at + off, frame) * bone.scale[c];
    }
  }
  if (adjust) addAdjust(bones, adjust, out);
  removeMotion(source.sequence, J, out);
  return out;
}

/** Channel values (6 a bone) → the kernels' local pose (`tx ty tz 0 qx qy qz qw` a bone). */
export function channelsToLocal(channels: Float32Array, out: Float32Array): Float32Array {
  const J = channels.length / 6;
  for (let j = 0; j < J; j++) {
    const c = j * 6, o = j * POSE_STRIDE;
    out[o] = channels[c];
    out[o + 1] = channels[c + 1];
    out[o + 2] = channels[c + 2];
    out[o + 3] = 0;
    angleQuaternion(channels[c + 3], channels[c + 4], channels[c + 5], out, o + 4);
  }
  return out;
}

/** The bones at rest (their default values): the reference the skin is bound in. */
export function defaultChannels(bones: readonly GoldsrcBone[]): Float32Array {
  const out = new Float32Array(bones.length * 6);
  bones.forEach((b, j) => out.set(b.value, j * 6));
  return out;
}

/** The sequences a model can play, each with the file its values are in; those whose group file is missing are left out. */
export function sequenceSources(model: GoldsrcModel, groups: ReadonlyMap<number, GoldsrcModel>, file: string): { sources: (SequenceSource | null)[]; missing: string[] } {
  const missing: string[] = [];
  const sources = model.sequences.map((sequence) => {
    if (sequence.frameCount <= 0 || sequence.blendCount <= 0) return null;
    if (sequence.seqGroup === 0) return { sequence, bytes: model.bytes, file };
    const g = groups.get(sequence.seqGroup);
    if (!g) {
      missing.push(sequence.label);
      return null;
    }
    return { sequence, bytes: g.bytes, file: `${file} group ${sequence.seqGroup}` };
  });
  return { sources, missing };
}

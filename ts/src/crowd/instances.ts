/**
 * What every crowd keeps per instance, whatever its kind: its clip, its time in that clip and its speed, as typed
 * arrays an app writes directly (`crowd.clip[i] = 2`) — one allocation per crowd, none per frame — and how they start.
 */
import { clipDuration, seededRandom, type ClockClip } from './clock.js';

/** How a crowd's instances start. */
export interface CrowdStart {
  /**
   * `'spread'` (default): each instance on a clip picked at random, at a random time in it (a seeded generator:
   * the same `seed`, the same crowd); a number: every instance on that clip at time 0.
   */
  clips?: 'spread' | number;
  /** The seed of the spread (default 1). */
  seed?: number;
}

export interface CrowdInstances {
  /** Instances in the crowd. */
  readonly count: number;
  /** Per instance: its clip (an index into `clips`). */
  readonly clip: Uint32Array;
  /** Per instance: seconds into its clip (before its speed is applied to a step, after the last `update`). */
  readonly time: Float64Array;
  /** Per instance: how fast its clock runs (1: the clip's own rate; 0: stopped; negative: backwards). */
  readonly speed: Float32Array;
}

/** The largest crowd one object holds: its palettes then stay far inside a WASM memory's 4 GiB (10⁵ × 128 joints × 48 B = 614 MB). */
export const MAX_CROWD = 100_000;

/** The instance arrays of a crowd of `count` on `clips`, started as `start` says. */
export function crowdInstances(count: number, clips: readonly ClockClip[], start: CrowdStart = {}): CrowdInstances {
  if (!(Number.isInteger(count) && count >= 1 && count <= MAX_CROWD)) throw new RangeError(`a crowd holds 1 to ${MAX_CROWD} instances, not ${count}`);
  if (clips.length === 0) throw new RangeError('a crowd needs a model with at least one clip');
  const clip = new Uint32Array(count), time = new Float64Array(count), speed = new Float32Array(count).fill(1);
  const how = start.clips ?? 'spread';
  if (how === 'spread') {
    const random = seededRandom(start.seed ?? 1);
    for (let i = 0; i < count; i++) {
      const c = Math.min(clips.length - 1, Math.floor(random() * clips.length));
      clip[i] = c;
      time[i] = random() * clipDuration(clips[c]);
    }
  } else {
    if (!(Number.isInteger(how) && how >= 0 && how < clips.length)) throw new RangeError(`clip ${how}: the model has clips 0 to ${clips.length - 1}`);
    clip.fill(how);
  }
  return { count, clip, time, speed };
}

/** Every instance's clock moved on by `dt` seconds at its speed. */
export function advance(instances: CrowdInstances, dt: number): void {
  if (!Number.isFinite(dt)) throw new RangeError(`a step of ${dt} seconds is not a finite number`);
  const { time, speed, count } = instances;
  for (let i = 0; i < count; i++) time[i] += dt * speed[i];
}

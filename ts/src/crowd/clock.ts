/**
 * A crowd's clock: where each instance is in its clip, as two keys and the weight of the second — the sampling three's
 * `AnimationMixer` does per track (the key interval holding the time, linear weight across it), done once per
 * instance for all its joints. One rule for every clip a view gives (`formats/model-view.ts`): keys at `times` (or
 * `k · step`), a looping clip wrapping at its last key's time (its last key closes the cycle), a clip played once
 * holding its last key.
 */

/** Where an instance is: keys `a` and `b` of its clip (local indices) and the weight of `b`. */
export interface KeyBlend {
  a: number;
  b: number;
  t: number;
}

/** A clip as the clock reads it. */
export interface ClockClip {
  /** Seconds of each key, from 0, increasing (at least one). */
  times: ArrayLike<number>;
  loop: 'repeat' | 'once';
}

/** The clip's length in seconds: its last key's time. */
export const clipDuration = (clip: ClockClip): number => clip.times[clip.times.length - 1] ?? 0;

/**
 * The two keys `seconds` into `clip`, and the blend between them. Looping, any finite time lands in the cycle
 * (negative ones too); played once, times before 0 hold the first key and times past the end the last. A time that
 * is not finite is a RangeError (as `pose/timing.ts` `checkTime`), never a silent key 0.
 */
export function keyAt(clip: ClockClip, seconds: number, out: KeyBlend): KeyBlend {
  if (!Number.isFinite(seconds)) throw new RangeError(`time ${seconds} is not a finite number of seconds`);
  const times = clip.times;
  const last = times.length - 1;
  const duration = last > 0 ? times[last] : 0;
  if (!(duration > 0)) {
    out.a = 0; out.b = 0; out.t = 0;
    return out;
  }
  let s = seconds;
  if (clip.loop === 'repeat') {
    s = s % duration;
    if (s < 0) s += duration;
  } else if (s >= duration) {
    out.a = last; out.b = last; out.t = 0;
    return out;
  } else if (s <= 0) {
    out.a = 0; out.b = 0; out.t = 0;
    return out;
  }
  // the last key k with times[k] ≤ s, below the last
  let lo = 0, hi = last - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= s) lo = mid;
    else hi = mid - 1;
  }
  const span = times[lo + 1] - times[lo];
  const t = span > 0 ? (s - times[lo]) / span : 0;
  out.a = lo; out.b = lo + 1; out.t = t < 0 ? 0 : t > 1 ? 1 : t;
  return out;
}

/** A small seeded generator (mulberry32): a crowd's spread of clips and phases, the same for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

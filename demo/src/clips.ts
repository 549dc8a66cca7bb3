/**
 * The clips of an opened model as the page lists them, from its view (`view-data.ts`), by kind and never by format:
 * which model frame each key shows and when, its rate, whether its engine loops it, the channels it plays on (a
 * Quake 3 player's legs and torso) and the frame names a scrubber shows.
 */
import type { ViewData } from './view-data.js';

export interface ClipRow {
  name: string;
  /** Model frame shown at each key (a looping vertex clip's closing key left out). */
  frames: number[];
  /** Seconds of each key. */
  times: number[];
  /** Frames per second, when its keys are evenly spaced (else null: an MDL frame group's own intervals). */
  rate: number | null;
  /** Frames it shows. */
  frameCount: number;
  loop: 'repeat' | 'once';
  channels: readonly string[];
  /** The name of model frame f, as this clip's part names its frames ('' when the format names none). */
  frameName(f: number): string;
}

const evenRate = (times: readonly number[]) => {
  if (times.length < 2) return null;
  const step = times[1] - times[0];
  return step > 0 && times.every((t, k) => Math.abs(t - k * step - times[0]) < 1e-4) ? Math.round((1 / step) * 1000) / 1000 : null;
};

interface MorphLike {
  name: string;
  frames: readonly number[];
  step: number;
  times?: readonly number[];
  loop: 'repeat' | 'once';
}

function morphRow(c: MorphLike, names: readonly string[], channels: readonly string[]): ClipRow {
  // a looping clip's last key shows its first frame again, one step after the last (the blend back): not a frame of its own
  const closing = c.loop === 'repeat' && c.frames.length > 1 ? 1 : 0;
  const frames = c.frames.slice(0, c.frames.length - closing);
  const times = frames.map((_, k) => c.times?.[k] ?? k * c.step);
  return { name: c.name, frames, times, rate: c.times ? evenRate(c.times) : Math.round((1 / c.step) * 1000) / 1000, frameCount: new Set(frames).size, loop: c.loop, channels, frameName: (f) => names[f] ?? '' };
}

export function clipRows(view: ViewData): ClipRow[] {
  if (view.kind === 'morph') return view.clips.map((c) => morphRow(c, view.frameNames, []));
  if (view.kind === 'skinned') {
    return view.clips.map((c) => {
      const frames = Array.from({ length: c.frameCount }, (_, k) => k);
      return { name: c.name, frames, times: frames.map((k) => k / c.frameRate), rate: c.frameRate, frameCount: c.frameCount, loop: c.loop, channels: [], frameName: () => '' };
    });
  }
  const names = new Map(view.parts.map((p) => [p.name, p.view.frameNames]));
  return view.clips.map((c) => morphRow(c, names.get(c.parts[0]) ?? [], c.channels));
}

/** The channels clips play on, in first-use order (none: one, `all`). */
export function channelsOf(rows: readonly ClipRow[]): string[] {
  const all = [...new Set(rows.flatMap((r) => r.channels))];
  return all.length ? all : ['all'];
}

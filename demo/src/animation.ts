/**
 * Playing an `IdTechModel` the way the page offers it: a clip per channel (a Quake 3 player's legs and torso each
 * play their own, `IdTechModel.play`), play / pause, speed, loop, interpolation on or off (off: every track steps
 * from key to key — `InterpolateDiscrete` — showing the frames as the original renderers stepped them when they did
 * not lerp), a scrubber over the keys of the clip picked last, and a spin for models whose engine turns them (a
 * view's `extras.spin`, Quake's EF_ROTATE). No DOM here: `animation-panel.ts` shows it.
 */
import { InterpolateDiscrete, InterpolateLinear, LoopOnce, LoopRepeat, type AnimationAction } from 'three';
import type { IdTechModel } from 'idtech-models/three';
import { channelsOf, type ClipRow } from './clips.js';

export class Animator {
  model: IdTechModel | null = null;
  rows: ClipRow[] = [];
  channels: string[] = ['all'];
  /** The clip playing on each channel. */
  readonly playing = new Map<string, string>();
  /** The clip the scrubber, the loop switch and the frame readout follow: the one picked last. */
  primary: string | null = null;
  paused = false;
  speed = 1;
  interpolate = true;
  /** Degrees per second about the up axis (0: none), and the angle reached. */
  spin = 0;
  angle = 0;

  row(name: string | null): ClipRow | undefined {
    return this.rows.find((r) => r.name === name);
  }

  action(name: string | null): AnimationAction | null {
    const clip = name ? this.model?.clip(name) : undefined;
    return clip ? this.model!.mixer.existingAction(clip) : null;
  }

  /** A newly built model: its clips, its spin; the clips playing before (same names) keep playing at their times. */
  load(model: IdTechModel, rows: ClipRow[], spin: number): void {
    const before = [...this.playing.values()].map((name) => ({ name, time: this.action(name)?.time ?? 0 }));
    const primary = this.primary;
    this.model = model;
    this.rows = rows;
    this.channels = channelsOf(rows);
    this.playing.clear();
    this.primary = null;
    this.spin = spin;
    if (!spin) this.angle = 0;
    if (!this.interpolate) this.setTrackInterpolation(false);
    const kept = before.filter((b) => this.row(b.name));
    if (kept.length) {
      for (const b of kept) this.pick(b.name, b.time);
      if (primary && this.row(primary)) this.primary = primary;
    } else {
      // per channel, the first clip that loops on that channel alone, else the first that loops, else the first (a
      // player starts walking with its torso standing, not dying)
      for (const ch of this.channels) {
        if (this.playing.has(ch)) continue;
        const on = rows.filter((r) => r.channels.length === 0 || r.channels.includes(ch));
        const first = on.find((r) => r.loop === 'repeat' && r.channels.length <= 1) ?? on.find((r) => r.loop === 'repeat') ?? on[0];
        if (first) this.pick(first.name);
      }
      this.primary = this.playing.get(this.channels[0]) ?? null;
    }
    model.update(0);
  }

  /** No model (a failed open cleared it). */
  clear(): void {
    this.model = null;
    this.rows = [];
    this.channels = ['all'];
    this.playing.clear();
    this.primary = null;
    this.spin = 0;
    this.angle = 0;
  }

  /** Plays `name` from `time` on its channels (replacing what played there); it becomes the primary clip. */
  pick(name: string, time = 0): void {
    const model = this.model;
    const row = this.row(name);
    if (!model || !row) return;
    const [action] = model.play(name);
    action.time = time;
    for (const ch of row.channels.length ? row.channels : this.channels) this.playing.set(ch, name);
    this.primary = name;
    this.applyLoop(action, row.loop === 'repeat');
    model.update(0);
  }

  /** Whether the primary clip loops (it starts as its engine plays it). */
  get loop(): boolean {
    const a = this.action(this.primary);
    return a ? a.loop === LoopRepeat : true;
  }

  setLoop(on: boolean): void {
    const a = this.action(this.primary);
    if (a) this.applyLoop(a, on);
  }

  private applyLoop(action: AnimationAction, on: boolean): void {
    if (on) action.setLoop(LoopRepeat, Infinity);
    else action.setLoop(LoopOnce, 1);
    action.clampWhenFinished = !on;
    // a clip that ran out while playing once starts again when looped
    if (on && !action.isRunning()) {
      action.enabled = true;
      action.paused = false;
      action.play();
    }
  }

  /**
   * Interpolation on (three's linear / slerp between keys) or off (every track held at its key until the next).
   * Actions sample their tracks through interpolants made with them, so the playing actions are made again, at
   * their times.
   */
  setInterpolation(on: boolean): void {
    if (on === this.interpolate) return;
    this.interpolate = on;
    const model = this.model;
    if (!model) return;
    const state = [...new Set(this.playing.values())].map((name) => ({ name, time: this.action(name)?.time ?? 0, loop: this.action(name)?.loop === LoopRepeat }));
    const primary = this.primary;
    model.mixer.stopAllAction();
    for (const c of model.animations) model.mixer.uncacheClip(c);
    this.setTrackInterpolation(on);
    for (const s of state) {
      this.pick(s.name, s.time);
      this.applyLoop(this.action(s.name)!, s.loop);
    }
    this.primary = primary;
    model.update(0);
  }

  private setTrackInterpolation(on: boolean): void {
    for (const c of this.model?.animations ?? []) for (const t of c.tracks) t.setInterpolation(on ? InterpolateLinear : InterpolateDiscrete);
  }

  /** Advances the clock by `dt` seconds (scaled by the speed; nothing while paused) and poses the model. */
  advance(dt: number): void {
    const model = this.model;
    if (!model) return;
    const step = this.paused ? 0 : dt * this.speed;
    if (this.spin) this.angle = (this.angle + this.spin * step) % 360;
    model.update(step);
    // a looping clip played once ends on its last frame, not on the key that closes its loop (its first frame again)
    const row = this.row(this.primary), a = this.action(this.primary);
    const last = row?.times[row.times.length - 1];
    if (a && last !== undefined && a.loop === LoopOnce && a.time > last) {
      a.time = last;
      model.update(0);
    }
  }

  /** The key of the primary clip on show (the last key at or before its time). */
  key(): number {
    const row = this.row(this.primary), a = this.action(this.primary);
    if (!row || !a) return 0;
    const t = a.time + 1e-6;
    let k = 0;
    while (k + 1 < row.times.length && row.times[k + 1] <= t) k++;
    return k;
  }

  /** Pauses on key `k` of the primary clip. */
  scrub(k: number): void {
    const row = this.row(this.primary), a = this.action(this.primary);
    if (!row || !a || !this.model) return;
    this.paused = true;
    const key = Math.max(0, Math.min(row.times.length - 1, k));
    a.enabled = true;
    a.paused = false;
    a.time = row.times[key];
    this.model.update(0);
  }

  /** One key on (+1) or back (−1), wrapping; pauses. */
  step(by: number): void {
    const row = this.row(this.primary);
    if (!row) return;
    const n = row.times.length;
    this.scrub((((this.key() + by) % n) + n) % n);
  }
}

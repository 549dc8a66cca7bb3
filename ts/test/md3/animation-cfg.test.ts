/**
 * animation.cfg as ioquake3 CG_ParseAnimationFile reads it. Expected values are worked out by hand from the
 * fixture's numbers and the engine's rules (LEGS_ first frames minus (LEGS_WALKCR first − TORSO_GESTURE first);
 * negative count = reversed; frameLerp = trunc(1000 / fps)). There is no real animation.cfg in the shared corpus
 * (Tremulous' human_base ships only the .md3 files there), so the fixture is hand-made.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { MD3_DERIVED_ANIMATIONS, MD3_PLAYER_ANIMATIONS, parseAnimationCfg, type Md3Animation } from '../../src/formats/md3/animation-cfg.js';
import { md3ClipFrameAt } from '../../src/pose/timing.js';
import { FIXTURES } from '../helpers/models.js';

const FIXTURE = readFileSync(join(FIXTURES, 'md3', 'animation.cfg'), 'latin1');
/** The 25 required lines of the fixture, without keywords or comments. */
const LINES = FIXTURE.split('\n').filter((l) => /^\d/.test(l)).map((l) => l.split('//')[0].trim());

function cfgError(text: string): ModelParseError {
  try {
    parseAnimationCfg(text);
  } catch (e) {
    if (e instanceof ModelParseError) return e;
    throw e;
  }
  throw new Error('expected ModelParseError');
}

describe('the hand-made fixture', () => {
  const cfg = parseAnimationCfg(FIXTURE);

  it('keywords', () => {
    expect(cfg.sex).toBe('male');
    expect(cfg.footsteps).toBe('boot');
    expect(cfg.headOffset).toEqual([0, 0, 0]);
    expect(cfg.fixedLegs).toBe(false);
    expect(cfg.fixedTorso).toBe(false);
    expect(cfg.warnings).toEqual([]);
  });

  it('31 file animations + 5 derived, in animNumber_t order', () => {
    expect(cfg.animations.map((a) => a.name)).toEqual([...MD3_PLAYER_ANIMATIONS, ...MD3_DERIVED_ANIMATIONS]);
    expect(LINES.length).toBe(25);
  });

  it('BOTH_ and TORSO_ as written; LEGS_ shifted down by the 63 torso-only frames (153 − 90)', () => {
    const b = cfg.byName;
    expect(b.BOTH_DEATH1).toMatchObject({ firstFrame: 0, numFrames: 30, loopFrames: 0, fps: 20, frameLerpMs: 50, reversed: false });
    expect(b.TORSO_STAND2).toMatchObject({ firstFrame: 128, numFrames: 25, loopFrames: 25, fps: 15, frameLerpMs: 66 });
    expect(b.LEGS_WALKCR!.firstFrame).toBe(90);
    expect(b.LEGS_RUN).toMatchObject({ firstFrame: 115, numFrames: 12, loopFrames: 12, fps: 20, frameLerpMs: 50 });
    // The last legs frame is lower.md3's last (184 frames).
    expect(b.LEGS_TURN!.firstFrame + b.LEGS_TURN!.numFrames - 1).toBe(183);
    // The last torso frame is upper.md3's last (153 frames).
    expect(b.TORSO_STAND2!.firstFrame + b.TORSO_STAND2!.numFrames - 1).toBe(152);
  });

  it('no Team Arena lines: the six gestures copy TORSO_GESTURE', () => {
    expect(cfg.teamArena).toBe(false);
    for (const name of ['TORSO_GETFLAG', 'TORSO_GUARDBASE', 'TORSO_PATROL', 'TORSO_FOLLOWME', 'TORSO_AFFIRMATIVE', 'TORSO_NEGATIVE'] as const) {
      expect({ ...cfg.byName[name], name: 'x' }).toEqual({ ...cfg.byName.TORSO_GESTURE, name: 'x' });
    }
  });

  it('derived animations: back-walks are the walks reversed, flags fixed (cg_players.c)', () => {
    const b = cfg.byName;
    expect(b.LEGS_BACKCR).toEqual({ ...b.LEGS_WALKCR, name: 'LEGS_BACKCR', reversed: true });
    expect(b.LEGS_BACKWALK).toEqual({ ...b.LEGS_WALK, name: 'LEGS_BACKWALK', reversed: true });
    expect(b.FLAG_RUN).toMatchObject({ firstFrame: 0, numFrames: 16, loopFrames: 16, frameLerpMs: 66, reversed: false });
    expect(b.FLAG_STAND).toMatchObject({ firstFrame: 16, numFrames: 5, loopFrames: 0, frameLerpMs: 50 });
    expect(b.FLAG_STAND2RUN).toMatchObject({ firstFrame: 16, numFrames: 5, loopFrames: 1, frameLerpMs: 66, reversed: true });
  });
});

describe('grammar', () => {
  const body = LINES.join('\n');

  it('Team Arena lines are read as written (no LEGS_ shift for them)', () => {
    const ta = ['250 10 0 15', '260 10 0 15', '270 10 0 15', '280 10 0 15', '290 10 0 15', '300 10 0 15'].join('\n');
    const cfg = parseAnimationCfg(`${body}\n${ta}`);
    expect(cfg.teamArena).toBe(true);
    expect(cfg.byName.TORSO_GETFLAG!.firstFrame).toBe(250);
    expect(cfg.byName.TORSO_NEGATIVE!.firstFrame).toBe(300);
  });

  it('a negative frame count plays backwards; fps 0 means 1; keywords in any case; comments of both kinds', () => {
    const lines = [...LINES];
    lines[16] = '190 -10 10 0'; // LEGS_BACK
    const text = `/* a block\ncomment */ SEX f FOOTSTEPS Energy headoffset 1.5 -2 .25 fixedlegs fixedtorso\n${lines.join('\n')}`;
    const cfg = parseAnimationCfg(text);
    expect(cfg.byName.LEGS_BACK).toMatchObject({ firstFrame: 127, numFrames: 10, reversed: true, fps: 1, frameLerpMs: 1000 });
    expect([cfg.sex, cfg.footsteps, cfg.headOffset, cfg.fixedLegs, cfg.fixedTorso]).toEqual(['female', 'energy', [1.5, -2, 0.25], true, true]);
  });

  it('bytes are read as Latin-1 (offsets are byte offsets)', () => {
    expect(parseAnimationCfg(new TextEncoder().encode(FIXTURE))).toEqual(parseAnimationCfg(FIXTURE));
  });

  it('warnings where the engine only prints: unknown keyword, bad footsteps, trailing tokens, loop longer than the clip', () => {
    const lines = [...LINES];
    lines[0] = '0 30 40 20';
    const ta = '90 16 0 15\n'.repeat(6);
    const cfg = parseAnimationCfg(`sex m\nwibble\nfootsteps squelch\n${lines.join('\n')}\n${ta}  extra 1 2`);
    expect(cfg.warnings.map((w) => [w.code, w.line, w.column])).toEqual([
      ['UNKNOWN_KEYWORD', 2, 1],
      ['BAD_FOOTSTEPS', 3, 11],
      ['LOOP_TOO_LONG', 4, 6],
      ['TRAILING_TOKENS', 35, 3],
    ]);
    expect(cfg.footsteps).toBe('normal');
    expect(cfg.byName.BOTH_DEATH1!.loopFrames).toBe(30);
  });
});

describe('errors with line:column', () => {
  it('TRUNCATED at the end when fewer than 25 animations are given', () => {
    const text = LINES.slice(0, 24).join('\n') + '\n';
    const e = cfgError(text);
    expect([e.code, e.line, e.column, e.offset]).toEqual([ErrorCode.Truncated, 25, 1, text.length]);
    expect(e.detail).toContain('LEGS_TURN');
  });

  it('TRUNCATED inside a line (a first frame without the rest), and inside a Team Arena line', () => {
    expect(cfgError(`${LINES.slice(0, 3).join('\n')}\n30 30`).code).toBe(ErrorCode.Truncated);
    expect(cfgError(`${LINES.join('\n')}\n250 10`).code).toBe(ErrorCode.Truncated);
    expect(cfgError('').code).toBe(ErrorCode.Truncated);
  });

  it('BAD_NUMBER at a malformed integer or fps, a negative loop or fps', () => {
    const at = (line: number, bad: string, field: number) => {
      const lines = [...LINES];
      const parts = lines[line].split(/\s+/);
      parts[field] = bad;
      lines[line] = parts.join(' ');
      const e = cfgError(lines.join('\n'));
      const column = parts.slice(0, field).join(' ').length + (field > 0 ? 2 : 1);
      expect([e.code, e.line, e.column]).toEqual([ErrorCode.BadNumber, line + 1, column]);
    };
    at(2, '3O', 0);
    at(5, '1.5', 1);
    at(7, '-1', 2);
    at(9, 'fast', 3);
    at(10, '-20', 3);
    at(11, 'nan', 3);
  });

  it('INDEX_OUT_OF_RANGE when a LEGS_ first frame ends up negative after the shift', () => {
    const lines = [...LINES];
    lines[14] = '100 15 15 20'; // LEGS_WALK at 100 − 63 = 37: fine
    expect(parseAnimationCfg(lines.join('\n')).byName.LEGS_WALK!.firstFrame).toBe(37);
    lines[14] = '50 15 15 20'; // 50 − 63 < 0
    const e = cfgError(lines.join('\n'));
    expect([e.code, e.line, e.column]).toEqual([ErrorCode.IndexOutOfRange, 15, 1]);
  });
});

describe('md3ClipFrameAt (CG_RunLerpFrame frame sequence, stateless)', () => {
  const b = parseAnimationCfg(FIXTURE).byName;

  it('LEGS_RUN (115…126, all looping, 50 ms a frame): blend inside the clip and across the wrap', () => {
    expect(md3ClipFrameAt(b.LEGS_RUN!, 0)).toEqual({ frame1: 115, frame2: 116, t: 0 });
    expect(md3ClipFrameAt(b.LEGS_RUN!, 0.125)).toEqual({ frame1: 117, frame2: 118, t: 0.5 });
    const wrap = md3ClipFrameAt(b.LEGS_RUN!, 0.575);
    expect([wrap.frame1, wrap.frame2]).toEqual([126, 115]);
    expect(wrap.t).toBeCloseTo(0.5, 9);
    expect(md3ClipFrameAt(b.LEGS_RUN!, 0.6)).toEqual({ frame1: 115, frame2: 116, t: 0 });
  });

  it('a clip without loop frames holds its last frame', () => {
    expect(md3ClipFrameAt(b.BOTH_DEATH1!, 1.45)).toEqual({ frame1: 29, frame2: 29, t: 0 });
    expect(md3ClipFrameAt(b.BOTH_DEATH1!, 100)).toEqual({ frame1: 29, frame2: 29, t: 0 });
    expect(md3ClipFrameAt(b.BOTH_DEATH1!, 1.4)).toMatchObject({ frame1: 28, frame2: 29 });
  });

  it('reversed clips run from their last frame down', () => {
    // LEGS_BACKWALK = LEGS_WALK (100…114) reversed, 50 ms a frame.
    expect(md3ClipFrameAt(b.LEGS_BACKWALK!, 0)).toEqual({ frame1: 114, frame2: 113, t: 0 });
    expect(md3ClipFrameAt(b.LEGS_BACKWALK!, 0.7)).toEqual({ frame1: 100, frame2: 114, t: 0 });
  });

  it('a partial loop repeats only the last loopFrames frames; a negative time is the first frame, NaN a RangeError', () => {
    const a: Md3Animation = { name: 'TORSO_GESTURE', firstFrame: 10, numFrames: 5, loopFrames: 2, fps: 10, frameLerpMs: 100, reversed: false, flipflop: false };
    const frames = [0, 1, 2, 3, 4, 5, 6, 7, 8].map((k) => md3ClipFrameAt(a, k / 10 + 1e-9).frame1);
    expect(frames).toEqual([10, 11, 12, 13, 14, 13, 14, 13, 14]);
    expect(md3ClipFrameAt(a, -5)).toEqual({ frame1: 10, frame2: 11, t: 0 });
    // one rule for every clock (pose/timing.ts): a time that is not a number of seconds is refused, not frame 0
    expect(() => md3ClipFrameAt(a, NaN)).toThrow(new RangeError('time NaN is not a finite number of seconds'));
  });
});

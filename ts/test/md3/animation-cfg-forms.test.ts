/**
 * Tremulous' other animation.cfg forms, read as its cgame reads them: a `nonsegmented` player (cg_players.c: one
 * model, NSPA_* clips, frame numbers straight into nonseg.md3) and a buildable (cg_buildable.c: BANIM_* clips, no
 * keywords, fewer lines than a player's). The corpus has no Tremulous cfg (../shared/models README), so the two
 * fixtures are hand-made and fit real Tremulous models of the corpus (overmind.md3: 70 frames; human_base lower.md3:
 * 184, standing in for an alien's nonseg.md3). Expected values come from the fixtures' numbers and the cgame's rules.
 * Unvanquished's MD3 human (res-players_src human_bsuit) is real: a segmented player file with Unvanquished's
 * longer list (its cg_players.cpp over its bg_public.h), whose frame numbers fit its parts only when read so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCode, type ParseWarning } from '../../src/base/errors.js';
import { toGlb } from '../../src/registry/gltf.js';
import { MD3_BUILDABLE_ANIMATIONS, MD3_NONSEGMENTED_ANIMATIONS, MD3_UNVANQUISHED_PLAYER_ANIMATIONS, parseAnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { createBackend } from '../../src/kernels/select.js';
import { Md3Player } from '../../src/formats/md3/player.js';
import { readAccessor, readGlb } from '../export/gltf-eval.js';
import { FIXTURES, SHARED_MODELS } from '../helpers/models.js';
import { expectMd3Error } from './_helpers.js';

const NONSEG = readFileSync(join(FIXTURES, 'md3', 'nonseg-animation.cfg'), 'latin1');
const BUILDABLE = readFileSync(join(FIXTURES, 'md3', 'buildable-animation.cfg'), 'latin1');
const TREM = join(SHARED_MODELS, 'res-tremulous_src.dpkdir/models/tremulous');
const overmind = () => parseMd3(new Uint8Array(readFileSync(join(TREM, 'buildables/overmind/overmind.md3'))));
const alienStandIn = () => parseMd3(new Uint8Array(readFileSync(join(TREM, 'players/human_base/lower.md3'))));
/** The fixture's animation lines: `[first, num, loop, fps]`. */
const rows = (text: string) => text.split('\n').filter((l) => /^\d/.test(l)).map((l) => l.split('//')[0].trim().split(/\s+/).map(Number));

/** The TRUNCATED error of reading `text` (as `form`, when given). */
const truncated = (text: string, form?: 'player' | 'nonsegmented' | 'buildable') => expectMd3Error(() => parseAnimationCfg(text, form ? { form } : {}), ErrorCode.Truncated);

describe('nonsegmented (Tremulous aliens)', () => {
  const cfg = parseAnimationCfg(NONSEG);

  it('the keyword makes the form: the 27 NSPA_* animations and NSPA_WALKBACK, no warning', () => {
    expect(cfg.form).toBe('nonsegmented');
    expect(cfg.warnings).toEqual([]);
    expect(cfg.animations.map((a) => a.name)).toEqual([...MD3_NONSEGMENTED_ANIMATIONS, 'NSPA_WALKBACK']);
    expect(cfg.footsteps).toBe('flesh');
  });

  it('frame numbers as written (no LEGS_ shift: one model), negative count reversed, WALKBACK = WALK reversed', () => {
    const r = rows(NONSEG);
    expect(r).toHaveLength(27);
    cfg.animations.slice(0, 27).forEach((a, i) => expect([a.firstFrame, a.reversed ? -a.numFrames : a.numFrames, a.loopFrames, a.fps]).toEqual(r[i]));
    expect(cfg.byName.NSPA_ATTACK3).toMatchObject({ firstFrame: 156, numFrames: 8, reversed: true });
    expect(cfg.byName.NSPA_WALKBACK).toEqual({ ...cfg.byName.NSPA_WALK, name: 'NSPA_WALKBACK', reversed: true });
    expect(cfg.byName.BOTH_DEATH1).toBeUndefined();
  });

  it('clips: one per animation, the same shape as every form, fitting the 184-frame model', () => {
    expect(cfg.clips).toHaveLength(28);
    expect(cfg.clips[2]).toEqual({ name: 'NSPA_WALK', firstFrame: 20, frameCount: 12, loopFrames: 12, fps: 20, reversed: false });
    const last = Math.max(...cfg.clips.map((c) => c.firstFrame + c.frameCount));
    expect(last).toBe(alienStandIn().frameCount);
  });

  it('the MD3 glTF exporter takes the clips as they are: 28 animations, a reversed clip keyed last frame first', async () => {
    const model = alienStandIn();
    const warnings: ParseWarning[] = [];
    const g = readGlb(await toGlb(model, { clips: cfg.clips, warnings }));
    expect(warnings).toEqual([]);
    expect(g.json.animations.map((a: { name: string }) => a.name)).toEqual(cfg.clips.map((c) => c.name));
    // One-hot weights per key (the hot target is the frame, shifted by one when frame 0 is the base): ATTACK3 runs
    // 163 → 156, ATTACK2 148 → 155.
    const hot = (name: (typeof MD3_NONSEGMENTED_ANIMATIONS)[number]) => {
      const anim = g.json.animations[MD3_NONSEGMENTED_ANIMATIONS.indexOf(name)];
      const sampler = anim.samplers[anim.channels[0].sampler];
      const keys = readAccessor(g, sampler.input).count;
      const w = readAccessor(g, sampler.output).values;
      const targets = w.length / keys;
      return Array.from({ length: keys }, (_, k) => Array.from(w.subarray(k * targets, (k + 1) * targets)).indexOf(1));
    };
    const back = hot('NSPA_ATTACK3');
    const forward = hot('NSPA_ATTACK2');
    expect(back.map((t) => t - back[0])).toEqual([0, -1, -2, -3, -4, -5, -6, -7]);
    expect(forward.map((t) => t - forward[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(back[0] - forward[0]).toBe(163 - 148);
  });

  it('TRUNCATED names the missing NSPA_ animation: the game refuses a shorter file', () => {
    const text = NONSEG.split('\n').filter((l) => !l.includes('NSPA_DEAD3')).join('\n');
    expect(truncated(text).detail).toContain('NSPA_DEAD3 (27 of 27 required for a nonsegmented animation.cfg)');
  });

  it('a segmented player built with it says so (CFG_FORM) and still plays its clips by name', async () => {
    const lower = alienStandIn();
    const player = new Md3Player(await createBackend('ts'), { lower, upper: lower, head: lower }, cfg);
    expect(player.warnings.map((w) => w.code)).toContain('CFG_FORM');
    expect(player.clipFrameAt('NSPA_WALK', 0).frame1).toBe(20);
    expect(() => player.clipFrameAt('LEGS_RUN', 0)).toThrow(RangeError);
    player.dispose();
  });
});

describe('buildable', () => {
  const cfg = parseAnimationCfg(BUILDABLE);

  it('no keywords and exactly 14 × 4 numbers: the 14 BANIM_* animations (the issue\'s "TRUNCATED … 15 of 25")', () => {
    expect(cfg.form).toBe('buildable');
    expect(cfg.warnings).toEqual([]);
    expect(cfg.animations.map((a) => a.name)).toEqual([...MD3_BUILDABLE_ANIMATIONS]);
    const r = rows(BUILDABLE);
    cfg.animations.forEach((a, i) => expect([a.firstFrame, a.reversed ? -a.numFrames : a.numFrames, a.loopFrames, a.fps]).toEqual(r[i]));
    expect(cfg.teamArena).toBe(false);
  });

  it('its clips play on the real overmind.md3 (70 frames) through the glTF exporter', async () => {
    const warnings: ParseWarning[] = [];
    const g = readGlb(await toGlb(overmind(), { clips: cfg.clips, warnings }));
    expect(warnings).toEqual([]);
    expect(g.json.animations.map((a: { name: string }) => a.name)).toEqual([...MD3_BUILDABLE_ANIMATIONS]);
  });

  it('asked for, the form is read whatever the count; a short buildable file is TRUNCATED naming its BANIM_', () => {
    const short = BUILDABLE.split('\n').filter((l) => !l.includes('BANIM_DESTROYED')).join('\n');
    // 13 lines: not a buildable by count, and far from a player's 25: read as a player, TRUNCATED as before.
    expect(truncated(short).detail).toContain('(14 of 25 required)');
    expect(truncated(short, 'buildable').detail).toContain('BANIM_DESTROYED (14 of 14 required for a buildable animation.cfg)');
  });

  it('a player keyword keeps a 14-line file a (truncated) player file', () => {
    expect(truncated(`sex m\n${BUILDABLE}`).detail).toContain('of 25 required');
  });
});

describe('the player form', () => {
  it('clips: every animation with frames but the CTF flag\'s; Tremulous footsteps values', () => {
    const cfg = parseAnimationCfg(readFileSync(join(FIXTURES, 'md3', 'animation.cfg'), 'latin1').replace('footsteps boot', 'footsteps custom'));
    expect(cfg.form).toBe('player');
    expect(cfg.footsteps).toBe('custom');
    expect(cfg.clips.map((c) => c.name)).toEqual(cfg.animations.filter((a) => !a.name.startsWith('FLAG_')).map((a) => a.name));
    expect(cfg.clips.find((c) => c.name === 'LEGS_BACKWALK')).toMatchObject({ reversed: true, firstFrame: cfg.byName.LEGS_WALK!.firstFrame });
  });
});

describe("Unvanquished's player list (real: human_bsuit)", () => {
  const BSUIT = join(SHARED_MODELS, 'res-players_src.dpkdir/models/players/human_bsuit');
  const text = readFileSync(join(BSUIT, 'animation.cfg'), 'latin1');
  const part = (name: string) => parseMd3(new Uint8Array(readFileSync(join(BSUIT, `${name}.md3`))));
  /** The animations whose frames run past their part (BOTH_: both, LEGS_: lower, TORSO_: upper). */
  const pastTheirPart = (cfg: ReturnType<typeof parseAnimationCfg>) => {
    const lower = part('lower').frameCount, upper = part('upper').frameCount;
    return cfg.clips.filter((c) => c.firstFrame + c.frameCount > (c.name.startsWith('LEGS_') ? lower : c.name.startsWith('TORSO_') ? upper : Math.min(lower, upper))).map((c) => c.name);
  };

  it('37 animations: read with Unvanquished\'s names, each line the name its comment gives, every clip inside its part', () => {
    const cfg = parseAnimationCfg(text);
    expect(cfg.form).toBe('player');
    expect(cfg.playerNames).toBe('unvanquished');
    expect(cfg.warnings).toEqual([]);
    expect(cfg.footsteps).toBe('custom');
    // the file's comments name its lines (TORSO_STAND2 is what the enum calls TORSO_STAND_BLASTER)
    const commented = text.split('\n').filter((l) => /^\d/.test(l)).map((l) => /\/\/\s*(\w+)/.exec(l)![1].replace('TORSO_STAND2', 'TORSO_STAND_BLASTER'));
    expect(commented).toEqual(MD3_UNVANQUISHED_PLAYER_ANIMATIONS.slice(0, 37));
    expect(cfg.teamArena).toBe(false);
    // LEGS_ frames shifted by LEGS_WALKCR − TORSO_GESTURE = 153 − 90: LEGS_TURN (247) is lower.md3's last 7 of 191
    expect(cfg.byName.LEGS_TURN).toMatchObject({ firstFrame: 184, numFrames: 7 });
    expect(part('lower').frameCount).toBe(191);
    expect(cfg.byName.TORSO_GESTURE_CKIT).toMatchObject({ firstFrame: 90, numFrames: 40 });
    expect(pastTheirPart(cfg)).toEqual([]);
  });

  it("read with Quake 3's list (as before), it names lines wrongly and runs clips past the parts", () => {
    const q3 = parseAnimationCfg(text, { playerNames: 'quake3' });
    expect(q3.warnings.map((w) => w.code)).toEqual(['TRAILING_TOKENS']);
    expect(pastTheirPart(q3).length).toBeGreaterThan(0);
  });
});

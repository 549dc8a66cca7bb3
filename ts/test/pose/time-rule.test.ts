/**
 * One rule for times that are not numbers of seconds (pose/timing.ts): NaN and ±Infinity are a RangeError in every
 * clock — `frameAtTime` (MD5), `clipBlend` (MD2/MD3 clips), `md3ClipFrameAt` (animation.cfg), the playable's
 * `clipFrameAtTime` — and so in every poser's `poseTime` and `Md3Player.clipFrameAt`; any finite time, 1e308
 * included, gives a frame of the clip (the old clocks gave "frame NaN" there). Real models, the TS backend.
 */
import { describe, expect, it } from 'vitest';
import { parseAnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Anim, parseMd5Mesh } from '../../src/formats/md5/index.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { clipFrameAtTime } from '../../src/playable/playable.js';
import { Md2Poser } from '../../src/pose/md2-poser.js';
import { Md3Player } from '../../src/formats/md3/player.js';
import { Md3Poser } from '../../src/pose/md3-poser.js';
import { Md5Poser } from '../../src/pose/md5-poser.js';
import { clipBlend, frameAtTime, md3ClipFrameAt } from '../../src/pose/timing.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

const mesh = parseMd5Mesh(read(`${SHARED_MODELS}/actors/drone/mesh.md5mesh`));
const anim = parseMd5Anim(read(`${SHARED_MODELS}/actors/drone/forward.md5anim`));
const md2 = parseMd2(read(`${SHARED_MODELS}/assimp/test/models/MD2/faerie.md2`));
const bsuit = (f: string) => read(`${SHARED_MODELS}/res-players_src.dpkdir/models/players/human_bsuit/${f}`);
const parts = { lower: parseMd3(bsuit('lower.md3')), upper: parseMd3(bsuit('upper.md3')), head: parseMd3(bsuit('head.md3')) };
const cfg = parseAnimationCfg(bsuit('animation.cfg'));
const NOT_TIMES = [NaN, Infinity, -Infinity];
const HUGE = [1e308, -1e308, Number.MAX_VALUE, 2 ** 60 + 0.5, 1e15 + 0.25];

describe('NaN and ±Infinity are a RangeError everywhere', () => {
  const backend = createTsBackend();
  const md5 = new Md5Poser(backend, mesh).setAnim(anim);
  const m2 = new Md2Poser(backend, md2);
  const m3 = new Md3Poser(backend, parts.lower);
  const player = new Md3Player(backend, parts, cfg);
  const clip = { firstFrame: 0, frameCount: 10, loopFrames: 4 };
  const calls: [string, (t: number) => unknown][] = [
    ['Md5Poser.poseTime', (t) => md5.poseTime(t)],
    ['Md5Poser.poseTime (no loop)', (t) => md5.poseTime(t, false)],
    ['Md2Poser.poseTime', (t) => m2.poseTime(clip, t)],
    ['Md3Poser.poseTime', (t) => m3.poseTime(clip, t)],
    ['Md3Player.clipFrameAt', (t) => player.clipFrameAt('LEGS_RUN', t)],
    ['frameAtTime', (t) => frameAtTime(anim, t)],
    ['clipBlend', (t) => clipBlend(clip, t, 10)],
    ['md3ClipFrameAt', (t) => md3ClipFrameAt(cfg.byName.BOTH_DEATH1!, t)],
    ['clipFrameAtTime', (t) => clipFrameAtTime({ name: 'c', firstFrame: 0, frameCount: 10, frameRate: 10, closesOnLastFrame: false } as never, t)],
  ];
  for (const [name, call] of calls) {
    it(name, () => {
      for (const t of NOT_TIMES) expect(() => call(t), String(t)).toThrow(new RangeError(`time ${t} is not a finite number of seconds`));
    });
  }
});

describe('any finite time gives a frame of the clip', () => {
  const backend = createTsBackend();
  const frames = (b: { frame1: number; frame2: number; t: number }, first: number, last: number) =>
    [b.frame1, b.frame2].every((f) => Number.isInteger(f) && f >= first && f <= last) && b.t >= 0 && b.t <= 1;

  it('1e308 and other huge times: posers pose, clocks answer frames in range', () => {
    const md5 = new Md5Poser(backend, mesh).setAnim(anim);
    const m2 = new Md2Poser(backend, md2);
    const player = new Md3Player(backend, parts, cfg);
    for (const t of HUGE) {
      expect(frames(md5.poseTime(t).blend!, 0, anim.frameCount - 1), `md5 ${t}`).toBe(true);
      expect(frames(md5.poseTime(t, false).blend!, 0, anim.frameCount - 1), `md5 no loop ${t}`).toBe(true);
      for (const clip of [{ firstFrame: 5, frameCount: 10 }, { firstFrame: 5, frameCount: 10, loopFrames: 3 }, { firstFrame: 5, frameCount: 10, loopFrames: 0 }]) {
        expect(frames(m2.poseTime(clip, t).blend, 5, 14), `md2 ${t} ${JSON.stringify(clip)}`).toBe(true);
      }
      for (const name of ['LEGS_RUN', 'BOTH_DEATH1', 'TORSO_GESTURE'] as const) {
        const a = cfg.byName[name];
        expect(frames(player.clipFrameAt(name, t), a!.firstFrame, a!.firstFrame + Math.max(0, a!.numFrames - 1)), `${name} ${t}`).toBe(true);
      }
    }
    // a held clip holds its last frame, however late
    expect(clipBlend({ firstFrame: 5, frameCount: 10, loopFrames: 0 }, 1e308, 10)).toEqual({ frame1: 14, frame2: 14, t: 0 });
    expect(frameAtTime(anim, 1e308, false)).toEqual({ frame1: anim.frameCount - 1, frame2: anim.frameCount - 1, t: 0 });
    expect(frameAtTime(anim, -1e308, false)).toEqual({ frame1: 0, frame2: 0, t: 0 });
  });

  it('ordinary times are unchanged by the overflow path: the clocks agree with the direct formula', () => {
    for (let k = -50; k <= 400; k++) {
      const t = k * 0.0371;
      const ft = t * anim.frameRate;
      const last = anim.frameCount - 1;
      const f = ((Math.floor(ft) % last) + last) % last;
      expect(frameAtTime(anim, t)).toEqual({ frame1: f, frame2: f + 1, t: Math.max(0, ft - Math.floor(ft)) });
    }
  });
});

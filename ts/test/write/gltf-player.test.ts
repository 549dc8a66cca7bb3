/**
 * glTF → Quake 3 player: the real human_bsuit (lower, upper, head.md3 + animation.cfg) → our glb (toGlb) →
 * gltfToPlayer → writeMd3 / the cfg text → parseMd3 + parseAnimationCfg + Md3Player. Every clip the glb holds comes
 * back in its slot with its frame count and fps, each part's vertices within one 1/64 step of the original at every
 * frame the cfg names, tags within TAG_BOUND, and the assembled player (Md3Player.pose) within ASSEMBLED_BOUND.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toGlb } from '../../src/registry/gltf.js';
import { MD3_DERIVED_ANIMATIONS, parseAnimationCfg, type Md3Animation, type Md3AnimationCfg } from '../../src/formats/md3/animation-cfg.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { gltfToPlayer, invertAffine } from '../../src/formats/md3/player-from-gltf.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { Md3Player, type Md3PlayerModels } from '../../src/formats/md3/player.js';
import { writeMd3 } from '../../src/formats/md3/write.js';
import { turnIfHeld } from '../helpers/loop-turn.js';
import { SHARED_MODELS } from '../helpers/models.js';
import type { Md3Model } from '../../src/base/model.js';

const DIR = join(SHARED_MODELS, 'res-players_src.dpkdir/models/players/human_bsuit');
const read = (f: string) => new Uint8Array(readFileSync(join(DIR, f)));

/**
 * Tags: the glb holds each tag as a translation and a rotation (the exporter orthonormalises the stored axes,
 * `lerpTag`'s Gram–Schmidt; human_bsuit's are orthonormal to float32), read back through the parent tag's inverse:
 * origins within 1e-4 units, axes within 1e-5 per component (measured 1.4e-14 and 4.2e-7).
 */
const TAG_ORIGIN_BOUND = 1e-4;
const TAG_AXIS_BOUND = 1e-5;
/** The assembled player (Md3Player.pose, every part moved by its chain of tags), in units: measured 8.7e-6. */
const ASSEMBLED_BOUND = 1e-4;

function cfgFrames(a: Md3Animation): number[] {
  return Array.from({ length: a.numFrames }, (_, k) => (a.reversed ? a.firstFrame + a.numFrames - 1 - k : a.firstFrame + k));
}

function maxStep(a: Md3Model, fa: number, b: Md3Model, fb: number): number {
  let max = 0;
  a.surfaces.forEach((s, i) => {
    const t = b.surfaces[i];
    const n = 4 * s.vertexCount;
    for (let k = 0; k < n; k++) if (k % 4 !== 3) max = Math.max(max, Math.abs(s.xyzNormals[n * fa + k] - t.xyzNormals[n * fb + k]));
  });
  return max;
}

function tagDiff(a: Md3Model, fa: number, b: Md3Model, fb: number): { origin: number; axis: number } {
  let origin = 0, axis = 0;
  a.tagNames.forEach((name, k) => {
    const j = b.tagNames.indexOf(name);
    for (let c = 0; c < 3; c++) origin = Math.max(origin, Math.abs(a.tagOrigins[3 * (fa * a.tagCount + k) + c] - b.tagOrigins[3 * (fb * b.tagCount + j) + c]));
    for (let c = 0; c < 9; c++) axis = Math.max(axis, Math.abs(a.tagAxes[9 * (fa * a.tagCount + k) + c] - b.tagAxes[9 * (fb * b.tagCount + j) + c]));
  });
  return { origin, axis };
}

describe('gltfToPlayer: a Quake 3 player → our glb → lower/upper/head.md3 + animation.cfg', () => {
  const original: Md3PlayerModels = { lower: parseMd3(read('lower.md3')), upper: parseMd3(read('upper.md3')), head: parseMd3(read('head.md3')) };
  const cfg = parseAnimationCfg(read('animation.cfg'));

  it('human_bsuit: same clips, surfaces and tags; vertices within one 1/64 step at every frame the cfg names; the assembled player within ASSEMBLED_BOUND', async () => {
    const result = await gltfToPlayer({ bytes: await toGlb({ models: original, animations: cfg }) });
    const back: Md3PlayerModels = {
      lower: parseMd3(writeMd3(result.lower)),
      upper: parseMd3(writeMd3(result.upper)),
      head: parseMd3(writeMd3(result.head)),
    };
    const ours: Md3AnimationCfg = parseAnimationCfg(result.animationCfg);
    for (const p of ['lower', 'upper', 'head'] as const) {
      expect(back[p].surfaces.map((s) => [s.name, s.vertexCount, s.triangleCount])).toEqual(original[p].surfaces.map((s) => [s.name, s.vertexCount, s.triangleCount]));
      back[p].surfaces.forEach((s, i) => {
        expect(s.triangles).toEqual(original[p].surfaces[i].triangles);
        expect(s.st).toEqual(original[p].surfaces[i].st);
      });
      expect(back[p].tagNames).toEqual(original[p].tagNames);
    }
    expect(back.head.frameCount).toBe(1);

    // The clips the glb holds: each file animation that fits its part(s) (the exporter drops those past a part's frames).
    // human_bsuit's cfg is in Unvanquished's list (animation-cfg-forms.test.ts), and so is what comes back
    expect([cfg.playerNames, result.playerNames, ours.playerNames]).toEqual(['unvanquished', 'unvanquished', 'unvanquished']);
    const exported = cfg.animations.filter((a) => !(MD3_DERIVED_ANIMATIONS as readonly string[]).includes(a.name)).filter((a) => {
      const parts = a.name.startsWith('LEGS_') ? [original.lower] : a.name.startsWith('TORSO_') ? [original.upper] : [original.lower, original.upper];
      return a.numFrames > 0 && parts.every((m) => a.firstFrame + a.numFrames <= m.frameCount);
    });
    let steps = 0, tagOrigin = 0, tagAxis = 0, assembled = 0, compared = 0;
    const a0 = new Md3Player(createTsBackend(), original, cfg), a1 = new Md3Player(createTsBackend(), back, ours);
    expect(a1.warnings).toEqual([]);
    for (const a of exported) {
      const b = ours.byName[a.name]!;
      // a one-frame clip has one key: its rate comes from the cfg line our export keeps in the animation's extras
      expect([b.numFrames, b.fps, b.reversed], a.name).toEqual([a.numFrames, a.fps, false]);
      const parts = a.name.startsWith('LEGS_') ? (['lower'] as const) : a.name.startsWith('TORSO_') ? (['upper'] as const) : (['lower', 'upper'] as const);
      for (const [k, fa] of cfgFrames(a).entries()) {
        await turnIfHeld();
        const fb = b.firstFrame + k;
        for (const p of parts) {
          steps = Math.max(steps, maxStep(original[p], fa, back[p], fb));
          const t = tagDiff(original[p], fa, back[p], fb);
          tagOrigin = Math.max(tagOrigin, t.origin);
          tagAxis = Math.max(tagAxis, t.axis);
        }
        // the assembled player: this clip's frame on its part(s), frame 0 of the other part's first clip on the other
        const still = (name: 'TORSO_STAND' | 'LEGS_IDLE', c: Md3AnimationCfg) => ({ frame1: c.byName[name]!.firstFrame, frame2: c.byName[name]!.firstFrame, t: 0 });
        const at = (f: number) => ({ frame1: f, frame2: f, t: 0 });
        const pose = (f: number, c: Md3AnimationCfg) => ({
          legs: parts.includes('lower' as never) ? at(f) : still('LEGS_IDLE', c),
          torso: parts.includes('upper' as never) ? at(f) : still('TORSO_STAND', c),
        });
        const p0 = a0.pose(pose(fa, cfg)).positions, p1 = a1.pose(pose(fb, ours)).positions;
        for (let v = 0; v < p0.length; v += 3) assembled = Math.max(assembled, Math.hypot(p0[v] - p1[v], p0[v + 1] - p1[v + 1], p0[v + 2] - p1[v + 2]));
        compared++;
      }
    }
    // Each part holds exactly the file's frames its clips name: clips repeating a run of frames share it again.
    const named = (p: 'lower' | 'upper') => new Set(exported.filter((a) => !a.name.startsWith(p === 'lower' ? 'TORSO_' : 'LEGS_')).flatMap(cfgFrames)).size;
    expect([back.lower.frameCount, back.upper.frameCount]).toEqual([named('lower'), named('upper')]);
    expect(ours.warnings.filter((w) => w.code !== 'TRAILING_TOKENS')).toEqual([]);
    console.log(`human_bsuit: ${exported.length} clips, ${compared} frames compared; lower ${back.lower.frameCount} frames (file ${original.lower.frameCount}), upper ${back.upper.frameCount} (file ${original.upper.frameCount}); worst vertex ${steps} steps, tag origin ${tagOrigin.toExponential(2)}, tag axis ${tagAxis.toExponential(2)}, assembled ${assembled.toExponential(2)} units`);
    expect(steps, 'int16 steps (1/64 unit)').toBeLessThanOrEqual(1);
    expect(tagOrigin).toBeLessThanOrEqual(TAG_ORIGIN_BOUND);
    expect(tagAxis).toBeLessThanOrEqual(TAG_AXIS_BOUND);
    expect(assembled).toBeLessThanOrEqual(ASSEMBLED_BOUND);
    a0.dispose();
    a1.dispose();
  });

  it('animations not named as Quake 3\'s take the free slots in order, with a warning; missing ones play one frame', async () => {
    // without an animation.cfg the exporter writes two animations, "lower" and "upper", each every frame of its part
    const result = await gltfToPlayer({ bytes: await toGlb({ models: original }) }, { fps: 15 });
    const mapped = result.warnings.filter((w) => w.code === 'PLAYER_ANIMATION_MAPPED').map((w) => w.message);
    expect(mapped).toEqual(['animation 0 ("lower") is not a Quake 3 player animation name: written as BOTH_DEATH1', 'animation 1 ("upper") is not a Quake 3 player animation name: written as BOTH_DEAD1']);
    expect(result.warnings.some((w) => w.code === 'PLAYER_ANIMATION_MISSING' && /TORSO_GESTURE.*LEGS_TURN/.test(w.message))).toBe(true);
    const cfg = parseAnimationCfg(result.animationCfg);
    expect([cfg.byName.BOTH_DEATH1!.numFrames, cfg.byName.BOTH_DEAD1!.numFrames]).toEqual([original.lower.frameCount, original.upper.frameCount]);
    expect(cfg.byName.LEGS_WALKCR!.firstFrame).toBe(cfg.byName.TORSO_GESTURE!.firstFrame);
    const back = { lower: parseMd3(writeMd3(result.lower)), upper: parseMd3(writeMd3(result.upper)), head: parseMd3(writeMd3(result.head)) };
    const player = new Md3Player(createTsBackend(), back, cfg);
    expect(player.warnings).toEqual([]);
    player.dispose();
  });

  it('a glTF without lower, upper and head nodes is UNWRITABLE, naming them', async () => {
    const glb = await toGlb(original.head);
    await expect(gltfToPlayer({ bytes: glb })).rejects.toThrow(/no node named lower, upper/);
  });

  it('invertAffine inverts a node matrix', () => {
    const m = [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1];
    const inv = invertAffine(m, 'test');
    const p = [5, 6, 7];
    const q = [0, 1, 2].map((r) => m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r]);
    const back = [0, 1, 2].map((r) => inv[r] * q[0] + inv[4 + r] * q[1] + inv[8 + r] * q[2] + inv[12 + r]);
    back.forEach((x, i) => expect(x).toBeCloseTo(p[i], 12));
  });
});

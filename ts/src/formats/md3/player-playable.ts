/**
 * A Quake 3 player (lower.md3, upper.md3, head.md3, optional animation.cfg) as one playable model: every part's
 * surfaces back to back as `Md3Player` lays out its output (lower, upper, head; file order), attached by tag_torso /
 * tag_head each pose as the game does (CG_Player's chain, `formats/md3/player.ts`).
 *
 * Clips: with an animation.cfg, one per legs animation (BOTH_* play both halves; LEGS_* play with the torso standing,
 * TORSO_STAND, looping on its own frames) — the viewer's single clip choice mapped onto the game's two; without one,
 * the lower model's frames as one clip.
 */
import type { Md3Animation } from './animation-cfg.js';
import type { Md3PlayerData } from './player-parts.js';
import type { Md3Model } from '../../base/model.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { Md3Player } from './player.js';
import { MD3_DEFAULT_FPS } from '../../pose/timing.js';
import { concatUvs, partsBackToBack, type Clip, type ModelPlayer, type PlayableModel } from '../../playable/playable.js';

interface PlayerClip extends Clip {
  legs: Md3Animation | null;
  torso: Md3Animation | null;
}

/** A frame of an animation `k` frames in, looping its loop frames as the engine does (else holding the last). */
function frameOf(a: Md3Animation, k: number): number {
  const n = Math.max(1, a.numFrames);
  let i = k;
  if (i >= n) i = a.loopFrames > 0 ? n - a.loopFrames + ((i - n) % a.loopFrames) : n - 1;
  return a.firstFrame + (a.reversed ? n - 1 - i : i);
}

/** A player folder's parts and animation.cfg as one playable model (its weapon, if any, is not drawn here). */
export function playerPlayable(player: Md3PlayerData): PlayableModel {
  const { lower, upper, head } = player.models;
  const cfg = player.animations;
  const models = { lower, upper, head };
  // The layout Md3Player gives its output; a throwaway player is not needed: it is the parts' surfaces in order.
  const pieces = (['lower', 'upper', 'head'] as const).flatMap((part) => models[part].surfaces.map((s, i) => ({ part, surface: i, s })));
  const { indices, parts, vertexCount } = partsBackToBack(pieces.map((x) => ({ name: `${x.part}:${x.s.name}`, vertexCount: x.s.vertexCount, triangles: x.s.triangles, slot: { surface: x.surface, part: x.part } })));
  const clips: PlayerClip[] = cfg?.form === 'player'
    ? cfg.animations
        .filter((a) => (a.name.startsWith('BOTH_') || a.name.startsWith('LEGS_')) && a.numFrames > 0)
        .map((a) => ({
          name: a.name,
          frameCount: a.numFrames,
          frameRate: a.fps > 0 ? a.fps : MD3_DEFAULT_FPS,
          closesOnLastFrame: false,
          legs: a,
          torso: a.name.startsWith('BOTH_') ? a : (cfg!.byName.TORSO_STAND ?? null),
        }))
    : [{ name: 'all frames', frameCount: lower.frameCount, frameRate: MD3_DEFAULT_FPS, closesOnLastFrame: false, legs: null, torso: null }];
  const triangles = indices.length / 3;
  return {
    format: 'md3',
    vertexCount,
    indices,
    parts,
    clips,
    summary: `Quake 3 player: ${lower.frameCount} + ${upper.frameCount} + ${head.frameCount} frames (lower, upper, head), ${pieces.length} surfaces, ${vertexCount} vertices, ${triangles} triangles, ${cfg ? `${clips.length} clips` : 'no animation.cfg'}`,
    uvs: concatUvs(pieces.map((x) => x.s.st)),
    materials: [],
    textureWarnings: [],
    model: models,
    createPlayer: (backend: PoseBackend) => playerPlayer(new Md3Player(backend, models, cfg), clips, upper),
  };
}

function playerPlayer(player: Md3Player, clips: PlayerClip[], upper: Md3Model): ModelPlayer {
  let clip = clips[0];
  const blend = (a: Md3Animation | null, f1: number, f2: number, t: number, frames: number) =>
    a ? { frame1: frameOf(a, f1), frame2: frameOf(a, f2), t } : { frame1: Math.min(f1, frames - 1), frame2: Math.min(f2, frames - 1), t };
  return {
    backend: player.backend,
    setClip(index) {
      clip = clips[index] ?? clips[0];
    },
    poseBlend(frame1, frame2, t) {
      const legs = blend(clip.legs, frame1, frame2, t, player.models.lower.frameCount);
      const torso = blend(clip.torso, frame1, frame2, t, upper.frameCount);
      player.pose({ legs, torso });
    },
    get positions() {
      return player.positions;
    },
    get normals() {
      return player.normals;
    },
    dispose: () => player.dispose(),
  };
}

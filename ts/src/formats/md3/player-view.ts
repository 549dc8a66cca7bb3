/**
 * A Quake 3 player as a tagged view (`model-view.ts`), chained as ioquake3's CG_Player chains it
 * (cgame/cg_players.c): lower.md3 (legs) at the origin, upper.md3 (torso) on the legs' `tag_torso`, head.md3 on the
 * torso's `tag_head`, an optional weapon on the torso's `tag_weapon`; each part an MD3 morph view (`md3-view.ts`).
 *
 * Clips come from animation.cfg, named as there (`LEGS_RUN`, `TORSO_STAND`, `BOTH_DEATH1`): LEGS_* play the legs
 * (channel `legs`), TORSO_* the torso (`torso`), BOTH_* both — so a legs clip and a torso clip play at once, as the
 * game runs its legs and torso lerp frames. Each clip's frames are ioquake3's CG_RunLerpFrame's (`md3ClipFrameAt`:
 * reversed and flip-flop clips, whole-millisecond frame times): a clip whose loop covers all its frames loops, one
 * with no loop plays once and holds its last frame, one looping only its last frames says so (`partialLoop`).
 * FLAG_* clips belong to the CTF flag model, not the player, and are left out; a clip reaching past its part's
 * frames is left out with `CLIP_RANGE`. Without an animation.cfg, `lower` and `upper` each play every frame of
 * their part at 15 fps. The chain's missing tags are the folder's own warnings (`playerTagWarnings`, when it loads).
 */
import type { ParseWarning } from '../../base/errors.js';
import type { Md3Animation } from './animation-cfg.js';
import { MD3_PLAYER_PARTS, type Md3PlayerData } from './player-parts.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { MD3_DEFAULT_FPS, md3ClipFrameAt } from '../../pose/timing.js';
import { md3View } from '../md3-view.js';
import { loopingFrames, type TaggedClipView, type TaggedModelView, type TaggedPartView } from '../model-view.js';

/** Where each part hangs (CG_Player). */
const HANGS_ON: Record<string, { part: string; tag: string } | undefined> = {
  upper: { part: 'lower', tag: 'tag_torso' },
  head: { part: 'upper', tag: 'tag_head' },
  weapon: { part: 'upper', tag: 'tag_weapon' },
};

/** The frames an animation.cfg clip shows, key by key (ioquake3 CG_RunLerpFrame), and whether it loops. */
export function cfgClipFrames(a: Md3Animation): { frames: number[]; loop: 'repeat' | 'once'; partial: boolean } {
  const length = a.flipflop ? a.numFrames * 2 : a.numFrames;
  const loops = a.loopFrames > 0;
  const lerp = Math.max(1, a.frameLerpMs) / 1000;
  // the middle of step k: md3ClipFrameAt's frame1 there is the frame step k shows
  const frames = Array.from({ length: length + (loops ? 1 : 0) }, (_, k) => md3ClipFrameAt(a, (k + 0.5) * lerp).frame1);
  return { frames, loop: loops ? 'repeat' : 'once', partial: loops && a.loopFrames < a.numFrames };
}

export function playerView(player: Md3PlayerData, backend: PoseBackend): TaggedModelView {
  const { models, animations } = player;
  const warnings: ParseWarning[] = [];
  const parts: TaggedPartView[] = [];
  try {
    for (const name of MD3_PLAYER_PARTS) {
      const model = models[name];
      if (model) parts.push({ name, view: md3View(model, backend, []), on: HANGS_ON[name] });
    }
  } catch (e) {
    for (const p of parts) p.view.poser.dispose();
    throw e;
  }
  const frameCounts: Record<string, number> = Object.fromEntries(parts.map((p) => [p.name, p.view.frameCount]));
  const clips: TaggedClipView[] = [];
  const add = (clip: TaggedClipView) => {
    for (const part of clip.parts) {
      const bad = clip.frames.find((f) => f >= frameCounts[part]);
      if (bad !== undefined) {
        warnings.push({ code: 'CLIP_RANGE', message: `${clip.name}: frame ${bad} is past the ${frameCounts[part]} frames of ${part}.md3: left out`, offset: 0 });
        return;
      }
    }
    clips.push(clip);
  };
  if (animations?.form === 'player') {
    for (const a of animations.animations) {
      if (a.numFrames <= 0 || a.name.startsWith('FLAG_')) continue;
      const channels = a.name.startsWith('LEGS_') ? ['legs'] : a.name.startsWith('TORSO_') ? ['torso'] : ['legs', 'torso'];
      const { frames, loop, partial } = cfgClipFrames(a);
      add({
        name: a.name,
        frames: frames.length === 1 ? [frames[0], frames[0]] : frames,
        step: Math.max(1, a.frameLerpMs) / 1000,
        loop,
        ...(partial ? { partialLoop: { loopFrames: a.loopFrames, frameCount: a.numFrames } } : {}),
        parts: channels.map((c) => (c === 'legs' ? 'lower' : 'upper')),
        channels,
      });
    }
  } else {
    for (const [part, channel] of [['lower', 'legs'], ['upper', 'torso']] as const) {
      const count = frameCounts[part];
      if (count > 1) add({ name: part, frames: loopingFrames(0, count), step: 1 / MD3_DEFAULT_FPS, loop: 'repeat', parts: [part], channels: [channel] });
    }
  }
  return { kind: 'tagged', parts, clips, warnings };
}

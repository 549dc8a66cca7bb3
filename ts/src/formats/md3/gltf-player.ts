/**
 * A Quake 3 player (`Md3Player`: lower, upper, head, optional weapon) → one glTF scene, chained by tags the way
 * ioquake3 CG_Player does it: upper hangs under lower's `tag_torso` node, head under upper's `tag_head`, the
 * weapon under upper's `tag_weapon`. Tag nodes are animated with their part, so the chain follows the frames.
 * The part's own rotations (CG_PlayerAngles' torso and head turns) are left at identity.
 *
 * Animations: with an animation.cfg, one per clip — `LEGS_*` on lower, `TORSO_*` on upper, `BOTH_*` on both —
 * at the cfg's fps, reversed clips with their keys reversed (flag clips are the flag model's, not exported).
 * Without one, two animations, `lower` and `upper`, each playing every frame of its part; play both together.
 */
import type { Md3Animation } from './animation-cfg.js';
import { MD3_DEFAULT_FPS } from '../../pose/timing.js';
import type { Md3AnimationCfg } from './animation-cfg.js';
import type { Md3PlayerModels } from './player.js';
import type { GltfAnimation } from '../../export/gltf-builder.js';
import type { ExportContext } from '../../export/gltf-context.js';
import { addMd3Part, partClipChannels, type Md3Part } from '../../export/gltf-md3.js';
import { clipTimes, type ClipFrames, type MorphExportOptions } from '../../export/gltf-morph.js';

/** A Quake 3 player's parts and its animation.cfg (an `Md3Player` is one; so is what `loadPlayer` returns). */
export interface GltfPlayer {
  models: Md3PlayerModels;
  animations?: Md3AnimationCfg;
}

/** Hangs `child` under `parent`'s tag node; a tag the part lacks is the identity in the game (R_LerpTag), so the child
 * hangs on the part's own group node, at its origin. */
function attach(ctx: ExportContext, parent: Md3Part, tag: string, child: Md3Part): void {
  const k = parent.model.tagNames.indexOf(tag);
  const node = ctx.builder.json.nodes[k >= 0 ? parent.tagNodes[k] : parent.group];
  (node.children ??= []).push(child.group);
}

/** The frames an animation.cfg clip shows in order (ioquake3 CG_RunLerpFrame, one pass, no loop). */
export function cfgFrames(a: Md3Animation): number[] {
  const forward = Array.from({ length: a.numFrames }, (_, k) => (a.reversed ? a.firstFrame + a.numFrames - 1 - k : a.firstFrame + k));
  return a.flipflop ? [...forward, ...forward.slice().reverse()] : forward;
}

export function addPlayer(ctx: ExportContext, player: GltfPlayer, name: string, options: MorphExportOptions): { rootNodes: number[] } {
  const { models } = player;
  const lower = addMd3Part(ctx, models.lower, 'lower');
  const upper = addMd3Part(ctx, models.upper, 'upper');
  const head = addMd3Part(ctx, models.head, 'head');
  attach(ctx, lower, 'tag_torso', upper);
  attach(ctx, upper, 'tag_head', head);
  if (models.weapon) attach(ctx, upper, 'tag_weapon', addMd3Part(ctx, models.weapon, 'weapon'));
  // what animation.cfg says besides its clips, for a player written back from this glTF (player-from-gltf.ts)
  const cfg = player.animations?.form === 'player' ? player.animations : undefined;
  const keywords = cfg ? { sex: cfg.sex, footsteps: cfg.footsteps, headOffset: [...cfg.headOffset], fixedLegs: cfg.fixedLegs, fixedTorso: cfg.fixedTorso } : undefined;
  const root = ctx.builder.add('nodes', { name, children: [lower.group], ...(keywords ? { extras: { animationCfg: keywords } } : {}) });

  const interpolation = options.interpolation ?? 'LINEAR';
  const play = (clip: ClipFrames, parts: Md3Part[], line?: Md3Animation) => {
    for (const p of parts) {
      const bad = clip.frames.find((f) => f >= p.model.frameCount);
      if (bad !== undefined) {
        ctx.warnings.push({ code: 'CLIP_RANGE', message: `${clip.name}: frame ${bad} is past the ${p.model.frameCount} frames of ${p === lower ? 'lower' : 'upper'}.md3: not exported`, offset: 0 });
        return;
      }
    }
    // the cfg line's loop frames and rate ride along: a one-frame clip has no key interval to read a rate from,
    // and loop frames are no key at all (player-from-gltf.ts writes them back)
    const anim: GltfAnimation = { name: clip.name, channels: [], samplers: [], ...(line ? { extras: { animationCfg: { numFrames: line.numFrames, loopFrames: line.loopFrames, fps: line.fps } } } : {}) };
    const input = clipTimes(ctx.builder, clip);
    for (const p of parts) partClipChannels(ctx, p, clip, input, interpolation, anim);
    if (anim.channels.length) ctx.builder.add('animations', anim);
  };

  if (player.animations?.form === 'player') {
    for (const a of player.animations.animations) {
      if (a.numFrames <= 0 || a.name.startsWith('FLAG_')) continue;
      const parts = a.name.startsWith('LEGS_') ? [lower] : a.name.startsWith('TORSO_') ? [upper] : [lower, upper];
      play({ name: a.name, frames: cfgFrames(a), fps: a.fps > 0 ? a.fps : MD3_DEFAULT_FPS }, parts, a);
    }
  } else {
    const fps = options.fps ?? MD3_DEFAULT_FPS;
    for (const p of [lower, upper]) play({ name: p === lower ? 'lower' : 'upper', frames: [...Array(p.model.frameCount).keys()], fps }, [p]);
  }
  return { rootNodes: [root] };
}

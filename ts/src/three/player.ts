/**
 * A Quake 3 player as one three.js group, chained as ioquake3's CG_Player chains it (cgame/cg_players.c): lower.md3
 * (legs) at the player's origin, upper.md3 (torso) on the legs' `tag_torso`, head.md3 on the torso's `tag_head`, an
 * optional weapon on the torso's `tag_weapon`. Each part is an object holding its mesh (`morph-mesh.ts`) and its tag
 * objects (`md3-tags.ts`); the next part is a child of the tag it hangs on, so three's scene graph composes the
 * chain every frame. A tag a part lacks is the identity in the game (R_LerpTag): the child then hangs on the part
 * itself, at its origin, with the `MISSING_TAG` warning of `playerTagWarnings`.
 *
 * Clips come from animation.cfg, named as there (`LEGS_RUN`, `TORSO_STAND`, `BOTH_DEATH1`): LEGS_* move the legs'
 * mesh and tags, TORSO_* the torso's, BOTH_* both — so a legs clip and a torso clip play at once, independently, as
 * the game runs its legs and torso lerp frames. Each clip's frame sequence is ioquake3's CG_RunLerpFrame
 * (`md3ClipFrameAt`: reversed and flip-flop clips, whole-millisecond frame times): a clip whose loop covers all its
 * frames loops (`LoopRepeat`, the last frame blending into the first), one with no loop plays once and holds its last
 * frame (`LoopOnce`, `clampWhenFinished`). A partial loop (the last few frames repeating after an intro) has no
 * three.js form: it loops whole, with a `PARTIAL_LOOP` warning. FLAG_* clips belong to the CTF flag model, not
 * the player, and are left out. Without an animation.cfg, `lower` and `upper` each play every frame of their part.
 */
import { AnimationClip, Object3D, type Group, type KeyframeTrack, type Material, type Mesh } from 'three';
import type { ParseWarning } from '../base/errors.js';
import type { Md3Model } from '../base/model.js';
import type { Md3Animation, Md3AnimationCfg } from '../formats/md3/animation-cfg.js';
import { playerTagWarnings, type Md3PlayerModels, type Md3PlayerPart } from '../formats/md3/player-parts.js';
import type { PoseBackend } from '../kernels/backend.js';
import { MD3_DEFAULT_FPS, md3ClipFrameAt } from '../pose/timing.js';
import { tagObjects, tagTracks } from './md3-tags.js';
import { influenceTracks, type MorphClipInfo } from './morph-clips.js';
import { loopingFrames, morphMesh } from './morph-model.js';
import { MorphPoserMesh, type MorphMode } from './morph-mesh.js';
import { md3Source } from './morph-source.js';
import { reservedNames, uniqueNames } from './names.js';
import { zUpGroup } from './space.js';

export interface PlayerThreeOptions {
  name: string;
  backend: PoseBackend;
  mode: MorphMode;
  quantize: boolean;
  /** Per part present, one material per surface. */
  materials: Partial<Record<Md3PlayerPart, Material[]>>;
}

/** One part of the player in the scene: its object (what the next part hangs under), mesh and tags by tag name. */
export interface PlayerPartObjects {
  part: Md3PlayerPart;
  object: Object3D;
  mesh: Mesh | MorphPoserMesh;
  tags: Record<string, Object3D>;
  model: Md3Model;
}

export interface PlayerThree {
  root: Group;
  parts: Partial<Record<Md3PlayerPart, PlayerPartObjects>>;
  clips: AnimationClip[];
  warnings: ParseWarning[];
}

/** The frames an animation.cfg clip shows, step by step (ioquake3 CG_RunLerpFrame), and whether it loops. */
export function cfgClipFrames(a: Md3Animation): { frames: number[]; loop: 'repeat' | 'once'; partial: boolean } {
  const length = a.flipflop ? a.numFrames * 2 : a.numFrames;
  const loops = a.loopFrames > 0;
  const lerp = Math.max(1, a.frameLerpMs) / 1000;
  // the middle of step k: md3ClipFrameAt's frame1 there is the frame step k shows
  const frames = Array.from({ length: length + (loops ? 1 : 0) }, (_, k) => md3ClipFrameAt(a, (k + 0.5) * lerp).frame1);
  return { frames, loop: loops ? 'repeat' : 'once', partial: loops && a.loopFrames < a.numFrames };
}

function buildPart(part: Md3PlayerPart, model: Md3Model, options: PlayerThreeOptions, taken: Set<string>, warnings: ParseWarning[]): PlayerPartObjects {
  const object = new Object3D();
  const [objectName, meshName, ...tagNames] = uniqueNames([part, `${part}_mesh`, ...model.tagNames.map((t, k) => `${part}_${t || `tag${k}`}`)], 'tag', taken);
  object.name = objectName;
  const mesh = morphMesh(md3Source(options.backend, model), { mode: options.mode, quantize: options.quantize, materials: options.materials[part] ?? [] });
  mesh.name = meshName;
  const tags = tagObjects(model, tagNames, warnings);
  if (mesh instanceof MorphPoserMesh) mesh.attachTags(model, tags);
  object.add(mesh, ...tags);
  return { part, object, mesh, tags: Object.fromEntries(model.tagNames.map((t, k) => [t, tags[k]])), model };
}

/** Tracks that play `frames` on one part: its mesh's influences and its tags. */
function partTracks(p: PlayerPartObjects, frames: number[], step: number): KeyframeTrack[] {
  return [...influenceTracks([p.mesh.name], frames, step), ...tagTracks(p.model, Object.values(p.tags).map((o) => o.name), frames, step)];
}

export function playerToThree(models: Md3PlayerModels, animations: Md3AnimationCfg | undefined, options: PlayerThreeOptions): PlayerThree {
  const warnings: ParseWarning[] = [...playerTagWarnings(models)];
  const parts: PlayerThree['parts'] = {};
  const taken = reservedNames(options.name);
  for (const part of ['lower', 'upper', 'head', 'weapon'] as const) {
    const model = models[part];
    if (model) parts[part] = buildPart(part, model, options, taken, warnings);
  }
  const lower = parts.lower!, upper = parts.upper!, head = parts.head!;
  const hang = (parent: PlayerPartObjects, tag: string, child: PlayerPartObjects | undefined) => {
    if (child) (parent.tags[tag] ?? parent.object).add(child.object);
  };
  hang(lower, 'tag_torso', upper);
  hang(upper, 'tag_head', head);
  hang(upper, 'tag_weapon', parts.weapon);
  const root = zUpGroup(options.name);
  root.add(lower.object);

  const clips: AnimationClip[] = [];
  const add = (name: string, info: MorphClipInfo, on: PlayerPartObjects[]) => {
    for (const p of on) {
      const bad = info.frames.find((f) => f >= p.model.frameCount);
      if (bad !== undefined) {
        warnings.push({ code: 'CLIP_RANGE', message: `${name}: frame ${bad} is past the ${p.model.frameCount} frames of ${p.part}.md3: left out`, offset: 0 });
        return;
      }
    }
    const clip = new AnimationClip(name, (info.frames.length - 1) * info.step, on.flatMap((p) => partTracks(p, info.frames, info.step)));
    clip.userData = { idtech: info };
    clips.push(clip);
  };
  if (animations?.form === 'player') {
    for (const a of animations.animations) {
      if (a.numFrames <= 0 || a.name.startsWith('FLAG_')) continue;
      const channel = a.name.startsWith('LEGS_') ? 'legs' : a.name.startsWith('TORSO_') ? 'torso' : 'both';
      const { frames, loop, partial } = cfgClipFrames(a);
      if (partial) warnings.push({ code: 'PARTIAL_LOOP', message: `${a.name} loops its last ${a.loopFrames} of ${a.numFrames} frames: three.js loops a clip whole, so its first frames repeat too`, offset: 0 });
      const info: MorphClipInfo = { format: 'player', frames: frames.length === 1 ? [frames[0], frames[0]] : frames, step: Math.max(1, a.frameLerpMs) / 1000, loop, channel };
      add(a.name, info, channel === 'legs' ? [lower] : channel === 'torso' ? [upper] : [lower, upper]);
    }
  } else {
    for (const [p, channel] of [[lower, 'legs'], [upper, 'torso']] as const) {
      if (p.model.frameCount > 1) add(p.part, { format: 'player', frames: loopingFrames(0, p.model.frameCount), step: 1 / MD3_DEFAULT_FPS, loop: 'repeat', channel }, [p]);
    }
  }
  return { root, parts, clips, warnings };
}

/**
 * The clips of an IQM model set, one list for every door that plays or exports it (the playable, the three.js view,
 * the glTF export), so they agree on names, frames and rates:
 *
 * - the model's own anims — or, with a DarkPlaces `.framegroups` beside it, its groups over the model's frames
 *   instead (model_shared.c `Mod_FrameGroupify` replaces the anims);
 * - then each companion: a clip an `iqm.cfg` names (Tesseract skelmodel.h `setanim`: the named anim of the file, else
 *   its first, cut by the line's start / end offsets, `clipFrames`; at the line's rate — animmodel.h `calcanim`:
 *   `1000 / speed` ms a frame, 100 ms (10 fps) when the line gives none, whatever the file says), named as the config
 *   names it (a second line of one name and part is a variant: `name (2)`; a name in the second animation part, after
 *   `iqmanimpart`, is `name (part 2)`); or a file handed in by path: each of its
 *   anims, named after the file (`file/anim` for a file of several), at the anim's own rate;
 * - a name an earlier clip has is told apart as a variant is: `name (2)`, `name (3)` …
 */
import type { IqmModel } from '../../base/model.js';
import type { Companion } from '../../load/format.js';
import { overLimit, resourceLimits } from '../../base/resource-limits.js';
import type { IqmClipDetail } from './companions.js';
import { boundFrameGroups, parseFrameGroups } from './framegroups.js';
import { IQM_DEFAULT_FPS } from '../../pose/iqm-anim-match.js';

/** The frames [first, first + count) of a clip over an anim of `frames` frames starting at `firstFrame` (skelmodel.h setanim's offsets). */
export function clipFrames(clip: { startOffset: number; endOffset: number }, firstFrame: number, frames: number): { first: number; count: number } {
  let start = firstFrame;
  let end = frames;
  if (clip.startOffset > 0) start += Math.min(clip.startOffset, end - 1);
  else if (clip.startOffset < 0) start += Math.max(end + clip.startOffset, 0);
  end -= start - firstFrame;
  if (clip.endOffset > 0) end = Math.min(end, clip.endOffset);
  else if (clip.endOffset < 0) end = Math.max(end + clip.endOffset, 1);
  return { first: start, count: end };
}

/** One clip: frames [firstFrame, firstFrame + frameCount) of `file`'s stored frames at `fps`. */
export interface IqmClip {
  name: string;
  /** The file whose frames it plays: the model itself, or an animation file. */
  file: IqmModel;
  firstFrame: number;
  frameCount: number;
  fps: number;
  /** Whether the file says it loops (IQM_LOOP, a framegroup's loop flag); a config's clip: its anim's flag. */
  loop: boolean;
}

/** What the clips are read from: a model set's model, companions and side files. */
export interface IqmClipInput {
  data: IqmModel;
  companions: readonly Companion[];
  sideFiles: readonly { path: string; origin?: string; bytes: Uint8Array }[];
}

/** An anim's frames clamped to the file's stored frames (at least one). */
function animFrames(file: IqmModel, a: IqmModel['anims'][number]): { first: number; count: number } {
  const first = Math.min(a.firstFrame, Math.max(0, file.frameCount - 1));
  return { first, count: Math.max(1, Math.min(a.frameCount, file.frameCount - first)) };
}

/** Every anim of `file` as a clip, named `prefix` (`prefix/anim` for a file of several) or, without one, the anim's name. */
function ownClips(file: IqmModel, prefix: string): IqmClip[] {
  return file.anims.map((a) => {
    const { first, count } = animFrames(file, a);
    const name = prefix ? `${prefix}${file.anims.length > 1 ? `/${a.name}` : ''}` : a.name;
    return { name, file, firstFrame: first, frameCount: count, fps: a.framerate > 0 ? a.framerate : IQM_DEFAULT_FPS, loop: a.loop };
  });
}

/** The set's clips, in order (see the file's comment). Companions are assumed checked against the mesh. */
export function iqmClips(set: IqmClipInput): IqmClip[] {
  const model = set.data;
  const clips: IqmClip[] = [];
  const groupsFile = set.sideFiles.find((f) => f.path.toLowerCase().endsWith('.framegroups'));
  // the model's frames play only where its poses are its joints (a file of 1 pose for 3 joints has no frames of them)
  const ownFrames = model.frameCount > 0 && model.poses.count === model.joints.count;
  if (groupsFile && ownFrames) {
    // bounded before the groups are made: each is an animation of every joint in every door
    const max = resourceLimits().maxAnimationClips;
    const { groups, complete } = parseFrameGroups(groupsFile.bytes, { maxGroups: max });
    if (!complete) throw overLimit(`more than ${max} frame groups`, 'maxAnimationClips', max).inFile(groupsFile.origin ?? groupsFile.path);
    boundFrameGroups(groups, model.frameCount).forEach((g, i) => {
      // Xonotic writes a clip's name as the line's comment; DarkPlaces itself names it groupified_<i>_anim
      const name = g.name === `groupified_${i}_anim` && g.comment ? g.comment : g.name;
      clips.push({ name, file: model, firstFrame: g.firstFrame, frameCount: g.frameCount, fps: g.fps, loop: g.loop });
    });
  } else if (ownFrames) for (const c of ownClips(model, '')) clips.push(c); // not push(...): 140,000 anims are too many arguments
  for (const c of set.companions) {
    const file = c.data as IqmModel;
    // the model's own file named by a config: its frames play only where the model's do (Tesseract: no anim to load)
    if (file === model && !ownFrames) continue;
    const detail = c.detail as IqmClipDetail | undefined;
    if (!detail) {
      for (const clip of ownClips(file, c.name)) clips.push(clip);
      continue;
    }
    const anim = (detail.anim ? file.anims.find((a) => a.name === detail.anim) : undefined) ?? file.anims[0];
    const base = anim ? animFrames(file, anim) : { first: 0, count: Math.max(1, file.frameCount) };
    const { first, count } = clipFrames(detail, base.first, base.count);
    // a name is unique per animation part (a second part after `iqmanimpart`: the upper body's own `idle`)
    const name = `${c.name}${detail.part ? ` (part ${detail.part + 1})` : ''}${detail.variant ? ` (${detail.variant + 1})` : ''}`;
    clips.push({ name, file, firstFrame: first, frameCount: count, fps: c.fps ?? IQM_DEFAULT_FPS, loop: anim?.loop ?? true });
  }
  return distinctNames(clips);
}

/**
 * Clips of a name an earlier clip has are told apart as a config's variants are (`name (2)`, `name (3)` …), in one
 * pass: each name's next number is kept, so no clip looks at the others. Every door then sees distinct names; the
 * glTF export's own de-duplication appended a quote per earlier clip of the name (5,000 groups of one name in a
 * `.framegroups`: 197 s).
 */
function distinctNames(clips: IqmClip[]): IqmClip[] {
  const used = new Set<string>();
  const next = new Map<string, number>();
  for (const c of clips) {
    if (!used.has(c.name)) {
      used.add(c.name);
      continue;
    }
    let k = next.get(c.name) ?? 2;
    while (used.has(`${c.name} (${k})`)) k++;
    next.set(c.name, k + 1);
    c.name = `${c.name} (${k})`;
    used.add(c.name);
  }
  return clips;
}

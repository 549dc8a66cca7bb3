/**
 * A tagged view (`formats/model-view.ts`: a Quake 3 player) as one three.js group: each part an object holding its
 * mesh (`morph-mesh.ts`) and its tag objects (`tags.ts`), each part hung on its parent's tag object, so three's scene
 * graph composes the chain every frame (ioquake3's CG_Player chain for a player: upper on lower's `tag_torso`, head
 * on upper's `tag_head`, a weapon on upper's `tag_weapon`). A tag the parent lacks is the identity in the game
 * (R_LerpTag): the child then hangs on the parent itself, at its origin (the model's warnings say so).
 *
 * Clips move the parts they name — each part's mesh influences and tags — and carry their channels in
 * `userData.idtech.channels`: a player's LEGS_* clips occupy `legs`, TORSO_* `torso`, BOTH_* both, so a legs clip
 * and a torso clip play at once (`IdTechModel.play`), as the game runs its legs and torso lerp frames. Frames,
 * rates and loops are the view's (animation.cfg's, as ioquake3 plays them).
 */
import { Object3D, type AnimationClip, type Group, type KeyframeTrack, type Material, type Mesh } from 'three';
import type { ParseWarning } from '../base/errors.js';
import type { MorphModelView, TaggedModelView, TaggedPartView } from '../formats/model-view.js';
import { clipInfo, influenceTracks, keyTimes, morphClip, type MorphClipInfo } from './morph-clips.js';
import { MorphPoserMesh, type MorphMode } from './morph-mesh.js';
import { morphMesh, morphWarnings } from './morph-model.js';
import { reservedNames, uniqueNames } from './names.js';
import { zUpGroup } from './space.js';
import { tagObjects, tagTracks } from './tags.js';

export interface TaggedThreeOptions {
  name: string;
  /** The id of the model's format (what its clips' `userData.idtech.format` says). */
  format: string;
  mode: MorphMode;
  quantize: boolean;
  /** Per part (by name), one material per group of its view. */
  materials: Readonly<Record<string, Material[]>>;
}

/** One part in the scene: its object (what the parts hanging on it hang under), mesh and tag objects by tag name. */
export interface TaggedPartObjects {
  part: string;
  object: Object3D;
  mesh: Mesh | MorphPoserMesh;
  tags: Record<string, Object3D>;
  view: MorphModelView;
}

export interface TaggedThree {
  root: Group;
  /** The parts by name, in the view's order. */
  parts: Record<string, TaggedPartObjects>;
  clips: AnimationClip[];
  warnings: ParseWarning[];
}

function buildPart(p: TaggedPartView, options: TaggedThreeOptions, taken: Set<string>, warnings: ParseWarning[]): TaggedPartObjects {
  const { view } = p;
  const tagNames = view.tags?.names ?? [];
  const object = new Object3D();
  const [objectName, meshName, ...objectNames] = uniqueNames([p.name, `${p.name}_mesh`, ...tagNames.map((t, k) => `${p.name}_${t || `tag${k}`}`)], 'tag', taken);
  object.name = objectName;
  warnings.push(...view.warnings, ...morphWarnings(view.frameCount, [], options.mode));
  const mesh = morphMesh(view, { mode: options.mode, quantize: options.quantize, materials: options.materials[p.name] ?? [] });
  mesh.name = meshName;
  const tags = view.tags ? tagObjects(view.tags, objectNames, view.frameCount, warnings) : [];
  if (view.tags && mesh instanceof MorphPoserMesh) mesh.attachTags(view.tags, tags);
  object.add(mesh, ...tags);
  return { part: p.name, object, mesh, tags: Object.fromEntries(tagNames.map((t, k) => [t, tags[k]])), view };
}

/** Tracks that play `info` on one part: its mesh's influences and its tags. */
function partTracks(p: TaggedPartObjects, info: MorphClipInfo): KeyframeTrack[] {
  const tracks = influenceTracks([p.mesh.name], info);
  if (p.view.tags) tracks.push(...tagTracks(p.view.tags, Object.values(p.tags).map((o) => o.name), info.frames, keyTimes(info)));
  return tracks;
}

export function taggedToThree(view: TaggedModelView, options: TaggedThreeOptions): TaggedThree {
  const warnings: ParseWarning[] = [...view.warnings, ...morphWarnings(0, view.clips, options.mode)];
  const parts: Record<string, TaggedPartObjects> = {};
  const taken = reservedNames(options.name);
  for (const p of view.parts) parts[p.name] = buildPart(p, options, taken, warnings);
  const root = zUpGroup(options.name);
  for (const p of view.parts) {
    const parent = p.on ? parts[p.on.part] : undefined;
    if (parent) (parent.tags[p.on!.tag] ?? parent.object).add(parts[p.name].object);
    else root.add(parts[p.name].object);
  }
  const clips = view.clips.map((c) => {
    const info = clipInfo(options.format, c, c.channels);
    return morphClip(c.name, info, c.parts.flatMap((name) => (parts[name] ? partTracks(parts[name], info) : [])));
  });
  return { root, parts, clips, warnings };
}

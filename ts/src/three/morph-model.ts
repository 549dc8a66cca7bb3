/**
 * A morph view (`formats/model-view.ts`: an MD2, an MD3, any vertex-animated format) as three.js objects: one
 * mesh (`morph-mesh.ts`, morph targets or poser-driven) under the model's Z-up group, its tags beside it
 * (`tags.ts`), and one clip per view clip (`morph-clips.ts`) moving the mesh's influences and the tags. The
 * clips' frames, rates and loops are the view's (MD2's frame-name groups at 10 fps, a lone MD3's at 15 …).
 */
import type { AnimationClip, Group, Material, Mesh, Object3D } from 'three';
import type { ParseWarning } from '../base/errors.js';
import type { MorphClipView, MorphModelView } from '../formats/model-view.js';
import { clipInfo, influenceTracks, keyTimes, morphClip } from './morph-clips.js';
import { MorphPoserMesh, morphTargetMesh, type MorphMode } from './morph-mesh.js';
import { distinct, reservedNames, uniqueNames } from './names.js';
import { zUpGroup } from './space.js';
import { tagObjects, tagTracks } from './tags.js';

export interface MorphThreeOptions {
  name: string;
  /** The id of the model's format (what its clips' `userData.idtech.format` says). */
  format: string;
  mode: MorphMode;
  /** int16 / snorm8 morph targets (default) or float32; the poser mode keeps the file's frames either way. */
  quantize: boolean;
  /** One per view group (surface, skin). */
  materials: Material[];
}

export interface MorphThree {
  root: Group;
  mesh: Mesh | MorphPoserMesh;
  tags: Object3D[];
  clips: AnimationClip[];
  warnings: ParseWarning[];
}

/** A mesh of `view` in `mode` (the targets mode decodes every frame once and frees the view's poser). */
export function morphMesh(view: MorphModelView, options: Pick<MorphThreeOptions, 'mode' | 'quantize' | 'materials'>): Mesh | MorphPoserMesh {
  return options.mode === 'poser' ? new MorphPoserMesh(view, options.materials) : morphTargetMesh(view, options.materials, options.quantize);
}

/** What three cannot play of a model in `mode`: more frames than WebGL 2 promises texture layers for (one per morph target), clips looping only their last frames. */
export function morphWarnings(frameCount: number, clips: readonly MorphClipView[], mode: MorphMode): ParseWarning[] {
  const out: ParseWarning[] = [];
  if (mode === 'targets' && frameCount > 256) {
    out.push({ code: 'MANY_MORPH_TARGETS', message: `${frameCount} frames as morph targets: WebGL 2 guarantees 256 texture layers (MAX_ARRAY_TEXTURE_LAYERS) and three uses one per target; morph: 'poser' has no such limit`, offset: 0 });
  }
  for (const c of clips) {
    if (c.partialLoop) out.push({ code: 'PARTIAL_LOOP', message: `${c.name} loops its last ${c.partialLoop.loopFrames} of ${c.partialLoop.frameCount} frames: three.js loops a clip whole, so its first frames repeat too`, offset: 0 });
  }
  return out;
}

export function morphToThree(view: MorphModelView, options: MorphThreeOptions): MorphThree {
  const warnings = [...view.warnings, ...morphWarnings(view.frameCount, view.clips, options.mode)];
  const mesh = morphMesh(view, options);
  const [meshName, ...tagNames] = uniqueNames([`${options.name}_mesh`, ...(view.tags?.names ?? [])], 'tag', reservedNames(options.name));
  mesh.name = meshName;
  const tags = view.tags ? tagObjects(view.tags, tagNames, view.frameCount, warnings) : [];
  if (view.tags && mesh instanceof MorphPoserMesh) mesh.attachTags(view.tags, tags);
  const root = zUpGroup(options.name);
  root.add(mesh, ...tags);
  const names = distinct(view.clips.map((c) => c.name), 'clip');
  const clips = view.clips.map((c, i) => {
    const info = clipInfo(options.format, c);
    return morphClip(names[i], info, [...influenceTracks([meshName], info), ...(view.tags ? tagTracks(view.tags, tagNames, info.frames, keyTimes(info)) : [])]);
  });
  return { root, mesh, tags, clips, warnings };
}

/**
 * An MD2 or a single MD3 as three.js objects: one mesh (`morph-mesh.ts`, morph targets or poser-driven) under the
 * model's Z-up group, an MD3's tags beside it (`md3-tags.ts`), and one clip per frame group — MD2 frame names
 * (`stand01…`) at Quake 2's 10 fps, MD3 frame names at 15 fps (a lone .md3 has no clip table; players take theirs
 * from animation.cfg, `player.ts`). Clips loop, the last frame blending back into the first (`clipBlend`).
 */
import type { AnimationClip, Group, Material, Mesh, Object3D } from 'three';
import type { ParseWarning } from '../base/errors.js';
import type { Md2Model, Md3Model } from '../base/model.js';
import { groupClips } from '../formats/md2/clips.js';
import type { PoseBackend } from '../kernels/backend.js';
import { MD2_DEFAULT_FPS, MD3_DEFAULT_FPS } from '../pose/timing.js';
import { tagObjects, tagTracks } from './md3-tags.js';
import { morphClip, type MorphClipInfo } from './morph-clips.js';
import { MorphPoserMesh, morphTargetMesh, type MorphMode } from './morph-mesh.js';
import { md2Source, md3Source, type MorphSource } from './morph-source.js';
import { distinct, reservedNames, uniqueNames } from './names.js';
import { zUpGroup } from './space.js';

export interface MorphThreeOptions {
  name: string;
  backend: PoseBackend;
  mode: MorphMode;
  /** int16 / snorm8 morph targets (default) or float32; the poser mode keeps the file's frames either way. */
  quantize: boolean;
  /** One per surface (MD3) or one (MD2). */
  materials: Material[];
}

export interface MorphThree {
  root: Group;
  mesh: Mesh | MorphPoserMesh;
  tags: Object3D[];
  clips: AnimationClip[];
  warnings: ParseWarning[];
}

/** A mesh of `source` in `mode` (the targets mode decodes every frame once and frees the poser). */
export function morphMesh(source: MorphSource, options: Pick<MorphThreeOptions, 'mode' | 'quantize' | 'materials'>): Mesh | MorphPoserMesh {
  return options.mode === 'poser' ? new MorphPoserMesh(source, options.materials) : morphTargetMesh(source, options.materials, options.quantize);
}

/** Frames first … first + count − 1, then the first again one step later (the loop's blend back). */
export function loopingFrames(first: number, count: number): number[] {
  return [...Array.from({ length: count }, (_, k) => first + k), first];
}

/** Warns when a model has more frames than WebGL 2 promises texture layers for (three's morph texture has one per frame). */
function frameLimitWarning(frameCount: number, mode: MorphMode): ParseWarning[] {
  if (mode !== 'targets' || frameCount <= 256) return [];
  return [{ code: 'MANY_MORPH_TARGETS', message: `${frameCount} frames as morph targets: WebGL 2 guarantees 256 texture layers (MAX_ARRAY_TEXTURE_LAYERS) and three uses one per target; morph: 'poser' has no such limit`, offset: 0 }];
}

export function md2ToThree(model: Md2Model, options: MorphThreeOptions): MorphThree {
  const source = md2Source(options.backend, model);
  const mesh = morphMesh(source, options);
  const [meshName] = uniqueNames([`${options.name}_mesh`], 'mesh', reservedNames(options.name));
  mesh.name = meshName;
  const root = zUpGroup(options.name);
  root.add(mesh);
  const names = distinct(model.clips.map((c) => c.name), 'clip');
  const clips = model.frameCount > 1
    ? model.clips.map((c, i) => {
      const info: MorphClipInfo = { format: 'md2', frames: loopingFrames(c.firstFrame, c.frameCount), step: 1 / MD2_DEFAULT_FPS, loop: 'repeat' };
      return morphClip(names[i], [meshName], info);
    })
    : [];
  return { root, mesh, tags: [], clips, warnings: frameLimitWarning(model.frameCount, options.mode) };
}

export function md3ToThree(model: Md3Model, options: MorphThreeOptions): MorphThree {
  const warnings = frameLimitWarning(model.frameCount, options.mode);
  const source = md3Source(options.backend, model);
  const mesh = morphMesh(source, options);
  const [meshName, ...tagNames] = uniqueNames([`${options.name}_mesh`, ...model.tagNames], 'tag', reservedNames(options.name));
  mesh.name = meshName;
  const tags = tagObjects(model, tagNames, warnings);
  if (mesh instanceof MorphPoserMesh) mesh.attachTags(model, tags);
  const root = zUpGroup(options.name);
  root.add(mesh, ...tags);
  const groups = groupClips(model.frameNames);
  const names = distinct(groups.map((c) => c.name), 'clip');
  const step = 1 / MD3_DEFAULT_FPS;
  const clips = model.frameCount > 1
    ? groups.map((c, i) => {
      const info: MorphClipInfo = { format: 'md3', frames: loopingFrames(c.firstFrame, c.frameCount), step, loop: 'repeat' };
      return morphClip(names[i], [meshName], info, tagTracks(model, tagNames, info.frames, step));
    })
    : [];
  return { root, mesh, tags, clips, warnings };
}

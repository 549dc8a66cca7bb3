/**
 * The Quake re-release's MD5 models, as the Quake source ports that draw them load them: QuakeSpasm-Spiked's
 * `Mod_LoadMD5MeshModel` (gl_model.c), which vkQuake took over (read through the search tool: QSS's code and a
 * vkQuake-derived `Mod_LoadModel`; the vkQuake tree stored there predates its MD5 code). docs/md5-replacements.md.
 *
 * - For `progs/x.mdl`: `progs/x.md5mesh` (the model's name, its extension changed), from the same or a
 *   higher-priority search path than the MDL (`FileSystem.searchPath`: a mounted game's folders; any other file system
 *   is one search path). The md5anim beside it,
 *   `progs/x.md5anim`, is optional (`MD5Anim_Begin` reads it when it is there): without it the mesh stands in its
 *   bind pose.
 * - Frames: the md5anim's frame k is the model's frame k (one pose each, 0.1 s apart); an entity's frame number is
 *   the MDL's frame record (a frame group is one frame), and a number past the anim's last frame draws frame 0
 *   (`R_SetupAliasFrame`: "no such frame"). So the replacement plays the MDL's clips over the anim's frames of the
 *   same numbers, at 10 a second, a frame group's clip one frame.
 * - Skins: each mesh's `shader` names its images, `progs/<shader>_SS_FF` (`"progs/%s_%02u_%02u"`: skin number SS,
 *   its animation frame FF); the entity's skin 0, frame 0 (`progs/<shader>_00_00`) is what a model shows by default.
 */
import type { ParseWarning } from '../../base/errors.js';
import type { MdlModel } from '../../base/model.js';
import type { CompanionRef, Replacement } from '../../load/format.js';
import { frameOfPose } from './clips.js';

/** The rate the MD5 frames play at: each one's interval, 0.1 s (Mod_LoadMD5MeshModel). */
const QUAKE_FPS = 10;

export function mdlMd5Replacement(path: string, model?: Pick<MdlModel, 'frameCount' | 'frames' | 'clips'>): Replacement {
  const p = path.replace(/\\/g, '/');
  const base = p.replace(/\.[^./]*$/, '');
  const name = p.slice(p.lastIndexOf('/') + 1);
  const anim = `${base}.md5anim`;
  const paths = { model: `${base}.md5mesh`, companions: [anim], companionsOptional: true, notFromLowerSearchPath: true, by: 'vkQuake (QuakeSpasm-Spiked Mod_LoadMD5MeshModel), the Quake re-release' };
  if (!model) return paths;
  return {
    ...paths,
    companions: mdlClips(anim, model),
    skinOf: (shader) => `progs/${shader}_00_00`,
    check: (r) => framesCheck(r, model.frameCount, name),
  };
}

/**
 * The anim as the MDL's clips: each clip's poses (base/frame-clips.ts groups them over every pose, groups expanded)
 * become the frame records holding them, which the anim's frames of the same numbers draw, frame 0 past its end.
 */
function mdlClips(anim: string, model: Pick<MdlModel, 'frames' | 'clips'>): CompanionRef[] {
  const out: CompanionRef[] = [];
  for (const c of model.clips) {
    const first = frameOfPose(model.frames, c.firstFrame);
    const last = frameOfPose(model.frames, c.firstFrame + c.frameCount - 1);
    if (first < 0 || last < first) continue;
    out.push({ path: anim, name: c.name || 'frames', fps: QUAKE_FPS, detail: { frames: { first, count: last - first + 1, beyond: 'first' } } });
  }
  return out.length ? out : [anim];
}

/** An anim with fewer frames than the MDL: its frames past the anim's end draw frame 0. */
function framesCheck(r: { companions: readonly { path: string; data: unknown }[] }, modelFrames: number, modelName: string): ParseWarning[] {
  const anim = r.companions[0];
  const frames = (anim?.data as { frameCount?: number } | undefined)?.frameCount;
  if (frames === undefined || frames >= modelFrames) return [];
  return [{ code: 'REPLACEMENT_FRAMES', message: `${anim.path.slice(anim.path.lastIndexOf('/') + 1)} has fewer frames than ${modelName} (${frames} < ${modelFrames}): vkQuake draws frames ${frames} and on as frame 0 (R_SetupAliasFrame)`, offset: 0 }];
}

/**
 * The Quake re-release's MD5 models, as vkQuake loads them (`Quake/gl_model.c`, followed from issue 40's reading; the
 * stored vkQuake source here predates its MD5 code): for `progs/x.mdl` it draws `progs/x.md5mesh` with
 * `progs/x.md5anim` when both are there (from the same or a higher-priority search path than the MDL: one file system
 * here is one search path), keeping the MDL's frame numbers (frame f draws anim frame f mod numFrames) and its skin
 * numbers, each skin an image `progs/x_SS_KK` (`_%02d_%02d`: surface SS, skin KK) beside it — not applied here (no
 * `skins`: that numbering was not checked against vkQuake's code), the md5mesh keeps its shaders. docs/md5-replacements.md.
 */
import type { MdlModel } from '../../base/model.js';
import type { Replacement } from '../../load/format.js';

export function mdlMd5Replacement(path: string, model?: Pick<MdlModel, 'skins' | 'frameCount'>): Replacement {
  const p = path.replace(/\\/g, '/');
  const base = p.replace(/\.[^./]*$/, '');
  const name = p.slice(p.lastIndexOf('/') + 1);
  const paths = { model: `${base}.md5mesh`, companions: [`${base}.md5anim`], by: 'vkQuake, the Quake re-release' };
  if (!model) return paths;
  return {
    ...paths,
    check: (r) => {
      const anim = r.companions[0];
      const frames = (anim?.data as { frameCount?: number } | undefined)?.frameCount;
      if (frames === undefined || frames >= model.frameCount) return [];
      return [{ code: 'REPLACEMENT_FRAMES', message: `${anim.path.slice(anim.path.lastIndexOf('/') + 1)} has fewer frames than ${name} (${frames} < ${model.frameCount}): frame f draws anim frame f mod ${frames}`, offset: 0 }];
    },
  };
}

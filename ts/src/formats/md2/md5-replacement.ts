/**
 * The Quake II re-release's MD5 models, as q2pro loads them (`src/refresh/models.c` MOD_LoadMD5, after the MD2 loaded):
 * for `models/x/tris.md2` it reads `models/x/md5/tris.md5mesh` and `models/x/md5/tris.md5anim` — both, or neither is
 * used and the MD2 is drawn — and, beside the anim, the optional `tris.md5scale` (MD5_LoadScales). The MD2 keeps its
 * bounds and frame numbers (the anim's bounds are skipped): frame f draws anim frame f mod numFrames, and an anim with
 * fewer frames than the MD2 is only warned about. Skins are the MD2's, each looked up in an `md5/` folder beside it
 * (MD5_LoadSkins: `models/x/skin.pcx` → `models/x/md5/skin.pcx`); the md5mesh's own shaders are not read.
 * docs/md5-replacements.md.
 */
import type { ParseWarning } from '../../base/errors.js';
import type { Md2Model } from '../../base/model.js';
import type { CompanionRef, Replacement } from '../../load/format.js';
import { groupClips } from './clips.js';

/** Quake II's server frame rate: the game advances an entity's frame ten times a second. */
const Q2_FPS = 10;

const splitPath = (path: string): { dir: string; name: string } => {
  const cut = path.lastIndexOf('/') + 1;
  return { dir: path.slice(0, cut), name: path.slice(cut) };
};

export function md2Md5Replacement(path: string, model?: Pick<Md2Model, 'skins' | 'frameCount' | 'frameNames'>): Replacement {
  const { dir, name } = splitPath(path.replace(/\\/g, '/'));
  const base = `${dir}md5/${name.replace(/\.[^.]*$/, '')}`;
  return {
    model: `${base}.md5mesh`,
    // the MD2's clips (from its frame names) over the anim's frames, frame f showing anim frame f mod numFrames
    companions: model ? md2Clips(`${base}.md5anim`, model.frameNames) : [`${base}.md5anim`],
    sideFiles: [`${base}.md5scale`],
    by: 'q2pro MOD_LoadMD5, the Quake II re-release',
    ...(model
      ? {
          skins: model.skins.map((s) => {
            const skin = splitPath(s.name.replace(/\\/g, '/'));
            return `${skin.dir}md5/${skin.name}`;
          }),
          check: (r) => framesCheck(r, model.frameCount, name, 'q2pro'),
        }
      : {}),
  };
}

/** q2pro's warning (MD5_ParseAnim): an anim with fewer frames than the model it replaces (frame f shows f mod N). */
export function framesCheck(r: { companions: readonly { path: string; data: unknown }[] }, modelFrames: number, modelName: string, engine: string): ParseWarning[] {
  const anim = r.companions[0];
  const frames = (anim?.data as { frameCount?: number } | undefined)?.frameCount;
  if (frames === undefined || frames >= modelFrames) return [];
  return [{ code: 'REPLACEMENT_FRAMES', message: `${anim.path.slice(anim.path.lastIndexOf('/') + 1)} has fewer frames than ${modelName} (${frames} < ${modelFrames}): ${engine} draws frame f as anim frame f mod ${frames}`, offset: 0 }];
}

/**
 * The anim as the MD2's clips: a reference per clip, its frames the MD2's (`detail.frames`, which the md5 room cuts
 * out of the anim: formats/md5/set-anims.ts), at Quake II's 10 frames a second. One clip of every frame when the
 * names give none.
 */
function md2Clips(anim: string, frameNames: readonly string[]): CompanionRef[] {
  const clips = groupClips(frameNames);
  if (clips.length === 0) return [anim];
  return clips.map((c) => ({ path: anim, name: c.name || 'frames', fps: Q2_FPS, detail: { frames: { first: c.firstFrame, count: c.frameCount } } }));
}

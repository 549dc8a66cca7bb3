/**
 * Tremulous' model sets (`tremulous-parts.ts`) as views (`model-view.ts`): a non-segmented player is one morph view
 * (nonseg.md3) whose clips are its animation.cfg's NSPA_* lines; a buildable is a tagged view — model 0 at the
 * origin, models 1 and 2 on model 0's `tag_turret`, every part playing the same BANIM_* frame numbers on one channel
 * (CG_Buildable copies model 0's frame, oldframe and backlerp to the others).
 *
 * Each clip's frames are the cgame's CG_RunLerpFrame's (`cfgClipFrames`, as a Quake 3 player's). A part with fewer
 * frames than a clip reaches does not play it: the renderer draws frame 0 of a model asked for a frame it lacks
 * (ioquake3 R_AddMD3Surfaces), which a one-frame turret part is; a clip no part can play is left out (CLIP_RANGE).
 *
 * The buildable's config (`modelScale`, `zOffset`) is applied here, as CG_Buildable applies it: every part's
 * positions scaled about its own origin, model 0 moved up by zOffset, and a part on `tag_turret` placed at the
 * tag's origin taken through model 0's scaled axes, keeping the buildable's orientation (the game replaces its axes
 * by the turret's aim, level with the surface: the identity for a buildable standing on flat ground, unaimed).
 */
import type { ParseWarning } from '../../base/errors.js';
import type { PoseBackend } from '../../kernels/backend.js';
import type { Md3Animation } from './animation-cfg.js';
import { md3View } from '../md3-view.js';
import { cfgClipFrames } from './player-view.js';
import type { TremulousModel } from './tremulous-parts.js';
import type { MorphClipView, MorphModelView, TaggedClipView, TaggedModelView, TaggedPartView } from '../model-view.js';

/** The cfg's animations with frames, as clips (their frames, key step, loop). */
function cfgClips(animations: readonly Md3Animation[]): MorphClipView[] {
  return animations.filter((a) => a.numFrames > 0).map((a) => {
    const { frames, loop, partial } = cfgClipFrames(a);
    return {
      name: a.name,
      frames: frames.length === 1 ? [frames[0], frames[0]] : frames,
      step: Math.max(1, a.frameLerpMs) / 1000,
      loop,
      ...(partial ? { partialLoop: { loopFrames: a.loopFrames, frameCount: a.numFrames } } : {}),
    };
  });
}

const rangeWarning = (clip: string, frame: number, of: string): ParseWarning => ({ code: 'CLIP_RANGE', message: `${clip}: frame ${frame} is past the frames of ${of}: left out`, offset: 0 });

/**
 * `view` drawn as CG_Buildable draws a part: positions scaled by `scale` about the part's origin, then moved by
 * `offset`; the tags in `placed` (what other parts hang on) give their origin only, through the same scale and
 * offset, so a part hung there keeps the buildable's axes.
 */
function scaledView(view: MorphModelView, scale: number, offset: number, placed: ReadonlySet<string>): MorphModelView {
  if (scale === 1 && offset === 0 && placed.size === 0) return view;
  const z = [0, 0, offset];
  let positions = new Float32Array(0);
  const tags = view.tags;
  return {
    ...view,
    bounds: view.bounds && { min: view.bounds.min.map((v, k) => v * scale + z[k]) as [number, number, number], max: view.bounds.max.map((v, k) => v * scale + z[k]) as [number, number, number] },
    grid: { step: view.grid.step * (scale || 1), offset: view.grid.offset.map((v, k) => v * scale + z[k]) as [number, number, number] },
    poser: {
      pose(frame1, frame2, t) {
        const posed = view.poser.pose(frame1, frame2, t);
        if (scale === 1 && offset === 0) return posed;
        if (positions.length !== posed.positions.length) positions = new Float32Array(posed.positions.length);
        const p = posed.positions;
        for (let i = 0; i < p.length; i += 3) {
          positions[i] = p[i] * scale;
          positions[i + 1] = p[i + 1] * scale;
          positions[i + 2] = p[i + 2] * scale + offset;
        }
        return { positions, normals: posed.normals };
      },
      dispose: () => view.poser.dispose(),
    },
    ...(tags
      ? {
          tags: {
            names: tags.names,
            place(k, frame1, frame2, t, out, orthonormal) {
              tags.place(k, frame1, frame2, t, out, orthonormal);
              for (let c = 0; c < 3; c++) out[c] = out[c] * scale + z[c];
              if (placed.has(tags.names[k])) out.set([1, 0, 0, 0, 1, 0, 0, 0, 1], 3);
              return out;
            },
          },
        }
      : {}),
  };
}

export function tremulousView(data: TremulousModel, backend: PoseBackend): MorphModelView | TaggedModelView {
  const clips = cfgClips(data.animations?.animations ?? []);
  if (data.format === 'nonseg') {
    const model = data.parts[0].model;
    const warnings: ParseWarning[] = [];
    const fitting = clips.filter((c) => {
      const bad = c.frames.find((f) => f >= model.frameCount);
      if (bad !== undefined) warnings.push(rangeWarning(c.name, bad, `${data.parts[0].name}.md3 (${model.frameCount})`));
      return bad === undefined;
    });
    const view = md3View(model, backend, fitting);
    return { ...view, warnings: [...view.warnings, ...warnings] };
  }
  const placed = new Set(data.parts.flatMap((p) => (p.on ? [p.on.tag] : [])));
  const parts: TaggedPartView[] = [];
  try {
    for (const p of data.parts) {
      const view = scaledView(md3View(p.model, backend, []), data.scale, p.on ? 0 : data.zOffset, p.on ? new Set() : placed);
      parts.push({ name: p.name, view, ...(p.on ? { on: p.on } : {}) });
    }
  } catch (e) {
    for (const p of parts) p.view.poser.dispose();
    throw e;
  }
  const warnings: ParseWarning[] = [];
  const tagged: TaggedClipView[] = [];
  for (const c of clips) {
    const last = Math.max(...c.frames);
    const playing = data.parts.filter((p) => last < p.model.frameCount).map((p) => p.name);
    if (!playing.length) {
      warnings.push(rangeWarning(c.name, last, `every model (${data.parts.map((p) => `${p.name}: ${p.model.frameCount}`).join(', ')})`));
      continue;
    }
    tagged.push({ ...c, parts: playing, channels: ['buildable'] });
  }
  return { kind: 'tagged', parts, clips: tagged, warnings };
}

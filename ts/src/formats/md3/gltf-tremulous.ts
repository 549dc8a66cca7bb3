/**
 * Tremulous' model sets (`tremulous-parts.ts`) → one glTF scene: each model an MD3 part (`addMd3Part`: morph
 * targets, tag nodes), one animation per animation.cfg line with frames (NSPA_* / BANIM_*, at the cfg's fps, one
 * pass as CG_RunLerpFrame plays it: `cfgFrames`), every part playing the same frame numbers.
 *
 * A buildable's root node carries its config's `modelScale` (scale) and `zOffset` (translation up); a part on
 * model 0's `tag_turret` hangs under a node that follows the tag's origin only (CG_Buildable keeps the buildable's
 * axes for it, `tremulous-view.ts`). A part with fewer frames than a clip reaches is left still in it (the renderer
 * draws frame 0 of a model asked for a frame it lacks); a clip no part can play is not exported (CLIP_RANGE).
 */
import type { ExportContext } from '../../export/gltf-context.js';
import { addTrsChannels, type GltfAnimation } from '../../export/gltf-builder.js';
import { clipTimes, type MorphExportOptions } from '../../export/gltf-morph.js';
import { lerpTag, TAG_FLOATS } from '../../pose/md3-tag.js';
import { MD3_DEFAULT_FPS } from '../../pose/timing.js';
import { addMd3Part, partClipChannels, type Md3Part } from '../../export/gltf-md3.js';
import { cfgFrames } from './gltf-player.js';
import type { TremulousModel } from './tremulous-parts.js';

/** The origin of `tag` of `part`'s model at frame `f`, in glTF axes (the identity's origin without the tag: R_LerpTag). */
function tagOrigin(ctx: ExportContext, part: Md3Part, tag: string, f: number, out: Float32Array, o: number): void {
  const k = part.model.tagNames.indexOf(tag);
  const t = k >= 0 ? lerpTag(part.model, k, f, f, 0, new Float32Array(TAG_FLOATS)) : new Float32Array(3);
  ctx.axes.vec(t[0], t[1], t[2], out, o);
}

export function addTremulous(ctx: ExportContext, data: TremulousModel, name: string, options: MorphExportOptions): { rootNodes: number[] } {
  const b = ctx.builder;
  const parts = new Map<string, Md3Part>();
  /** Per hung part: the node following its parent's tag origin. */
  const pivots: { node: number; parent: Md3Part; tag: string }[] = [];
  for (const p of data.parts) {
    const part = addMd3Part(ctx, p.model, p.name);
    parts.set(p.name, part);
    const parent = p.on ? parts.get(p.on.part) : undefined;
    if (parent && p.on) {
      const translation = [0, 0, 0];
      tagOrigin(ctx, parent, p.on.tag, 0, translation as unknown as Float32Array, 0);
      const node = b.add('nodes', { name: `${p.name}@${p.on.tag}`, translation, children: [part.group] });
      (b.json.nodes[parent.group].children ??= []).push(node);
      pivots.push({ node, parent, tag: p.on.tag });
    }
  }
  const up = [0, 0, 0];
  ctx.axes.vec(0, 0, data.zOffset, up, 0);
  const rootParts = data.parts.filter((p) => !p.on).map((p) => parts.get(p.name)!.group);
  const root = b.add('nodes', {
    name,
    children: rootParts,
    ...(data.zOffset !== 0 ? { translation: up } : {}),
    ...(data.scale !== 1 ? { scale: [data.scale, data.scale, data.scale] } : {}),
  });

  const interpolation = options.interpolation ?? 'LINEAR';
  for (const a of data.animations?.animations ?? []) {
    if (a.numFrames <= 0) continue;
    const frames = cfgFrames(a);
    const last = Math.max(...frames);
    const playing = data.parts.filter((p) => last < p.model.frameCount);
    if (!playing.length) {
      ctx.warnings.push({ code: 'CLIP_RANGE', message: `${a.name}: frame ${last} is past the frames of every model (${data.parts.map((p) => `${p.name}: ${p.model.frameCount}`).join(', ')}): not exported`, offset: 0 });
      continue;
    }
    const clip = { name: a.name, frames, fps: a.fps > 0 ? a.fps : MD3_DEFAULT_FPS };
    const anim: GltfAnimation = { name: a.name, channels: [], samplers: [] };
    const input = clipTimes(b, clip);
    for (const p of playing) partClipChannels(ctx, parts.get(p.name)!, clip, input, interpolation, anim);
    for (const pv of pivots) {
      if (!playing.some((p) => parts.get(p.name) === pv.parent) || pv.parent.model.frameCount <= 1) continue;
      const t = new Float32Array(frames.length * 3), r = new Float32Array(frames.length * 4);
      frames.forEach((f, i) => {
        tagOrigin(ctx, pv.parent, pv.tag, f, t, i * 3);
        r[i * 4 + 3] = 1;
      });
      addTrsChannels(b, anim, pv.node, input, t, r, interpolation);
    }
    if (anim.channels.length) b.add('animations', anim);
  }
  return { rootNodes: [root] };
}

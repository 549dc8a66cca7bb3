/**
 * MD2 → glTF 2.0. MD2 triangles index positions and texture coordinates separately, so the mesh is un-welded
 * first (`md2Unwelded`: one glTF vertex per distinct (xyz, st) pair). Then, by default, the frames become morph
 * targets and each clip one animation driving the mesh's `weights` (gltf-morph.ts). With `md2Frames: 'nodes'`
 * each frame is baked into a mesh of its own under one node per frame instead, and a clip is an animation that
 * shows one frame node at a time (STEP `scale` channels, 1 for the frame on screen, 0 for the others): the
 * form for tools without morph-target support.
 *
 * Clips default to the model's (frame names with their trailing digits stripped) at Quake 2's 10 frames per
 * second; the material is named after the first skin.
 */
import { md2Unwelded, type Md2Unwelded } from './geometry.js';
import { Md2Poser } from '../../pose/md2-poser.js';
import type { Md2Model } from '../../base/model.js';
import { MD2_DEFAULT_FPS } from '../../pose/timing.js';
import type { ExportContext } from '../../export/gltf-context.js';
import { addMorphMesh, boundMorphVertices, clipFrames, clipTimes, weightsSampler, type MorphExportOptions, type MorphFrame } from '../../export/gltf-morph.js';
import { frameGetter, md2Grid } from '../../export/quake-grid.js';
import type { Md2ExportOptions } from '../../export/gltf.js';

export function addMd2(ctx: ExportContext, model: Md2Model, name: string, options: Md2ExportOptions): { rootNodes: number[] } {
  const un = md2Unwelded(model);
  boundMorphVertices('the model', un.sourceVertex.length, model.vertexCount, model.frameCount);
  const poser = new Md2Poser(ctx.backend, model);
  try {
    return addFrames(ctx, model, name, options, un, frameGetter(poser, un.sourceVertex));
  } finally {
    poser.dispose();
  }
}

function addFrames(ctx: ExportContext, model: Md2Model, name: string, options: Md2ExportOptions, un: Md2Unwelded, frame: (f: number) => MorphFrame): { rootNodes: number[] } {
  const b = ctx.builder;
  const material = ctx.materials.index(model.skins[0]?.name ?? '', { index: 0 });
  const clips = clipFrames(options.clips ?? model.clips, model.frameCount, options.fps ?? MD2_DEFAULT_FPS, ctx);
  const interpolation = options.interpolation ?? 'LINEAR';
  const vertexCount = un.sourceVertex.length;
  if (vertexCount === 0) {
    ctx.warnings.push({ code: 'EMPTY_MESH', message: 'the model has no triangles: nothing to export', offset: 0 });
    return { rootNodes: [] };
  }

  const grid = ctx.quantize ? md2Grid(ctx.axes, model.frameCount, frame, options.md2Grid ?? 'source', model.frameScales) : undefined;
  if (options.md2Frames !== 'nodes') {
    const added = addMorphMesh(b, ctx.axes, { name, vertexCount, frameCount: model.frameCount, frame, uvs: un.uvs, triangles: un.indices, material }, grid);
    const node = b.add('nodes', { name, mesh: added.mesh, ...added.node });
    if (model.frameCount > 1) {
      for (const clip of clips) {
        const input = clipTimes(b, clip);
        b.add('animations', { name: clip.name, channels: [{ sampler: 0, target: { node, path: 'weights' } }], samplers: [weightsSampler(b, clip, model.frameCount, input, interpolation, ctx.quantize, added.frame0)] });
      }
    }
    return { rootNodes: [node] };
  }

  // One node per frame, frame 0 visible at rest.
  let shared: { uvs: number; indices: number } | undefined;
  const frameNodes: number[] = [];
  for (let f = 0; f < model.frameCount; f++) {
    const label = model.frameNames[f] || `frame${f}`;
    const one = (k: number) => frame(f + k);
    const added = addMorphMesh(b, ctx.axes, { name: label, vertexCount, frameCount: 1, frame: one, uvs: un.uvs, triangles: un.indices, material, shared }, grid);
    shared = { uvs: added.uvs, indices: added.indices };
    const hidden = f === 0 ? {} : { scale: [0, 0, 0] };
    // the animated scale shows or hides the frame; a quantised mesh's own grid transform sits on a child node
    const shown = grid ? { children: [b.add('nodes', { mesh: added.mesh, ...added.node })] } : { mesh: added.mesh };
    frameNodes.push(b.add('nodes', { name: label, ...shown, ...hidden }));
  }
  const root = b.add('nodes', { name, children: frameNodes });
  for (const clip of clips) {
    const input = clipTimes(b, clip);
    const shown = new Set(clip.frames);
    const channels: { sampler: number; target: { node: number; path: 'scale' } }[] = [];
    const samplers: { input: number; output: number; interpolation: 'STEP' }[] = [];
    for (let f = 0; f < model.frameCount; f++) {
      if (!shown.has(f) && f !== 0) continue; // hidden at rest and not in this clip: stays hidden
      const scale = new Float32Array(clip.frames.length * 3);
      clip.frames.forEach((g, k) => {
        if (g === f) scale.fill(1, k * 3, k * 3 + 3);
      });
      channels.push({ sampler: samplers.length, target: { node: frameNodes[f], path: 'scale' } });
      samplers.push({ input, output: b.accessor(scale, 'VEC3'), interpolation: 'STEP' });
    }
    b.add('animations', { name: clip.name, channels, samplers });
  }
  return { rootNodes: [root] };
}

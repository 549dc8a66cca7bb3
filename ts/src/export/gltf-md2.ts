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
import { md2Unwelded, type Md2Unwelded } from '../formats/md2/geometry.js';
import { Md2Poser } from '../pose/md2-poser.js';
import type { Md2Model } from '../base/model.js';
import { MD2_DEFAULT_FPS } from '../pose/timing.js';
import type { ExportContext } from './gltf-context.js';
import { addMorphMesh, boundMorphVertices, clipFrames, clipTimes, weightsSampler, type MorphExportOptions, type MorphFrame } from './gltf-morph.js';
import { fitGrid, MD2_GRID_STEPS, md2SourceGrid, type PositionGrid } from './gltf-quantize.js';
import type { Axes } from './gltf-axes.js';

export interface Md2ExportOptions extends MorphExportOptions {
  /** 'morph' (default): one mesh with a morph target per frame; 'nodes': one node (and mesh) per frame. */
  md2Frames?: 'morph' | 'nodes';
  /**
   * The quantised position grid (with `quantize`, the default): 'source' (default) is fine enough that every frame
   * reads back onto the file's own per-frame grid (gltf-quantize.ts `md2SourceGrid`); 'box' is 255 steps over the
   * box every frame fits in — smaller, but coarser than the file where the model moves far across its frames.
   */
  md2Grid?: 'source' | 'box';
}

/** Frame f of the model, un-welded (vertex i takes file vertex sourceVertex[i]), decoded by an `Md2Poser` (or an `MdlPoser`). */
export function frameGetter(poser: Md2Poser, sourceVertex: Uint16Array): (f: number) => MorphFrame {
  return (f) => {
    poser.poseFrame(f);
    const all = { positions: poser.positions, normals: poser.normals };
    const n = sourceVertex.length;
    const positions = new Float32Array(n * 3), normals = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) {
      const s = sourceVertex[i] * 3;
      for (let k = 0; k < 3; k++) {
        positions[i * 3 + k] = all.positions[s + k];
        normals[i * 3 + k] = all.normals[s + k];
      }
    }
    return { positions, normals };
  };
}

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

/**
 * The grid of a quantised MD2 or MDL export (glTF axes): 'box' = MD2_GRID_STEPS steps over the longest side of the
 * box every frame fits in; 'source' = as fine as `md2SourceGrid` asks from the file's own scales (gltf-quantize.ts),
 * undefined (float positions) when SHORT cannot hold it.
 */
export function md2Grid(axes: Axes, frameCount: number, frame: (f: number) => MorphFrame, kind: 'source' | 'box', scales: ArrayLike<number>): PositionGrid | undefined {
  // The box in the file's axes, then turned: the axis map only permutes and negates, so the turned corners' per-axis
  // extremes are exactly the box of the turned frames, without turning every frame here.
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let f = 0; f < frameCount; f++) {
    const p = frame(f).positions;
    for (let i = 0; i < p.length; i++) {
      const k = i % 3;
      if (p[i] < lo[k]) lo[k] = p[i];
      if (p[i] > hi[k]) hi[k] = p[i];
    }
  }
  const a = [0, 0, 0], b = [0, 0, 0];
  axes.vec(lo[0], lo[1], lo[2], a, 0);
  axes.vec(hi[0], hi[1], hi[2], b, 0);
  const min = a.map((x, k) => Math.min(x, b[k])), max = a.map((x, k) => Math.max(x, b[k]));
  return kind === 'box' ? fitGrid(min, max, MD2_GRID_STEPS) : md2SourceGrid(min, max, scales);
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

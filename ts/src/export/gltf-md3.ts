/**
 * MD3 → glTF 2.0 (any model in MD3's data shape, `Md3Model`: an MD3, an MDC once decoded by formats/mdc/to-md3.ts —
 * hence on the export floor, shared by both rooms): each surface is a mesh whose morph targets are the model's frames (gltf-morph.ts), each tag
 * an empty node whose translation and rotation follow the tag frame by frame, and each clip one animation that
 * drives every surface's `weights` and every tag's TRS together. A model is one group node holding its surface
 * and tag nodes, so the player exporter can hang a part under another part's tag node.
 *
 * Tags: a point p of an attached model lands at origin + Σ p[i]·axis[i] (ioquake3 R_LerpTag / CG_PositionEntityOnTag),
 * i.e. the rotation matrix whose columns are the stored axes. The stored axes are orthonormalised first
 * (`lerpTag`'s Gram–Schmidt) so the quaternion is a true rotation.
 *
 * Clips default to frame-name groups (as MD2; real MD3 frame names are often one exporter string, which makes
 * one clip of every frame) at 15 frames per second. Materials are named after the surface's first shader, or
 * the surface name when it has none (player models take their skins from .skin files).
 */
import { groupClips } from '../base/frame-clips.js';
import { lerpTag, TAG_FLOATS, tagQuaternion } from '../pose/md3-tag.js';
import { Md3Poser } from '../pose/md3-poser.js';
import type { Md3Model } from '../base/model.js';
import { MD3_DEFAULT_FPS } from '../pose/timing.js';
import type { ExportContext } from './gltf-context.js';
import { addMorphMesh, clipFrames, clipTimes, weightsSampler, type ClipFrames, type MorphExportOptions, type MorphFrame, type MorphInterpolation } from './gltf-morph.js';
import { addTrsChannels, setRotationKey, type GltfAnimation } from './gltf-builder.js';
import { MD3_XYZ_SCALE } from '../kernels/layout.js';
import type { PositionGrid } from './gltf-quantize.js';

/** MD3's own grid: the file's int16 positions in 1/64 units (MD3_XYZ_SCALE), written back exactly. */
const MD3_GRID: PositionGrid = { origin: [0, 0, 0], step: MD3_XYZ_SCALE };

/** An MD3 model in the document: its group node, surface nodes and tag nodes (tag order as in the file). */
export interface Md3Part {
  model: Md3Model;
  group: number;
  surfaceNodes: number[];
  /** Per surface node: frame 0 is a morph target too (addMorphMesh `frame0`), which shifts its weights by one. */
  surfaceFrame0: boolean[];
  tagNodes: number[];
}

/** Tag `k` at frame `f` as glTF translation + rotation (in glTF axes). */
function tagTrs(ctx: ExportContext, model: Md3Model, k: number, f: number, mirrored: Set<number>) {
  const tag = lerpTag(model, k, f, f, 0, new Float32Array(TAG_FLOATS), { orthonormalize: true });
  const a = tag.subarray(3, 12);
  const det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) + a[2] * (a[3] * a[7] - a[4] * a[6]);
  if (det < 0 && !mirrored.has(k)) {
    // a quaternion cannot mirror: flip axis[2] to the proper rotation nearest to it, and say so
    mirrored.add(k);
    ctx.warnings.push({ code: 'TAG_MIRRORED', message: `tag "${model.tagNames[k]}" has mirrored axes (first at frame ${f}): exported as the rotation with its third axis flipped`, offset: 0 });
  }
  if (det < 0) for (let i = 6; i < 9; i++) a[i] = -a[i];
  const translation = [0, 0, 0], rotation = [0, 0, 0, 1];
  ctx.axes.vec(tag[0], tag[1], tag[2], translation, 0);
  ctx.axes.quat(...tagQuaternion(a), rotation, 0);
  return { translation, rotation };
}

/** Adds the model's surfaces and tags under one new group node (not yet placed in a scene). */
export function addMd3Part(ctx: ExportContext, model: Md3Model, name: string): Md3Part {
  const b = ctx.builder;
  const surfaceNodes: number[] = [];
  const surfaceFrame0: boolean[] = [];
  const frames = surfaceFrames(ctx, model);
  model.surfaces.forEach((s, i) => {
    const label = s.name || `surface${i}`;
    if (s.vertexCount === 0 || s.triangleCount === 0) {
      ctx.warnings.push({ code: 'EMPTY_MESH', message: `${name}: surface ${i} ("${label}") has no ${s.vertexCount === 0 ? 'vertices' : 'triangles'}: not exported`, offset: 0 });
      return;
    }
    const added = addMorphMesh(b, ctx.axes, {
      name: label,
      vertexCount: s.vertexCount,
      frameCount: model.frameCount,
      frame: (f) => frames[f][i],
      uvs: s.st,
      triangles: s.triangles,
      material: ctx.materials.index(s.shaders[0]?.name || label, { index: i, part: name }),
    }, ctx.quantize ? MD3_GRID : undefined);
    surfaceNodes.push(b.add('nodes', { name: label, mesh: added.mesh, ...added.node }));
    surfaceFrame0.push(added.frame0);
  });
  const mirrored = new Set<number>();
  const tagNodes = model.tagNames.map((tagName, k) => b.add('nodes', { name: tagName || `tag${k}`, ...tagTrs(ctx, model, k, 0, mirrored) }));
  const group = b.add('nodes', { name, children: [...surfaceNodes, ...tagNodes] });
  return { model, group, surfaceNodes, surfaceFrame0, tagNodes };
}

/** Every frame of every surface decoded once by an `Md3Poser` (what the morph targets hold anyway): [frame][surface]. */
function surfaceFrames(ctx: ExportContext, model: Md3Model): MorphFrame[][] {
  const poser = new Md3Poser(ctx.backend, model);
  try {
    const out: MorphFrame[][] = [];
    for (let f = 0; f < model.frameCount; f++) {
      poser.poseFrame(f);
      const { positions, normals } = poser;
      out.push(model.surfaces.map((_, i) => {
        const from = poser.surfaceVertexStart[i] * 3, to = poser.surfaceVertexStart[i + 1] * 3;
        return { positions: positions.slice(from, to), normals: normals.slice(from, to) };
      }));
    }
    return out;
  } finally {
    poser.dispose();
  }
}

/** Channels and samplers that play `clip` on one part (surface weights + tag TRS); `input` holds its key times. */
export function partClipChannels(ctx: ExportContext, part: Md3Part, clip: ClipFrames, input: number, interpolation: MorphInterpolation, anim: GltfAnimation): void {
  const b = ctx.builder;
  const { model } = part;
  if (model.frameCount <= 1) return;
  // every surface has the model's frames as targets: one output accessor serves all whose frame 0 is (or is not) a target
  const outputs = new Map<boolean, ReturnType<typeof weightsSampler>>();
  part.surfaceNodes.forEach((node, i) => {
    const frame0 = part.surfaceFrame0[i];
    if (!outputs.has(frame0)) outputs.set(frame0, weightsSampler(b, clip, model.frameCount, input, interpolation, ctx.quantize, frame0));
    anim.channels.push({ sampler: anim.samplers.length, target: { node, path: 'weights' } });
    anim.samplers.push({ ...outputs.get(frame0)! });
  });
  const mirrored = new Set<number>([...Array(model.tagCount).keys()]); // warned once, when the part was added
  part.tagNodes.forEach((node, k) => {
    const t = new Float32Array(clip.frames.length * 3), r = new Float32Array(clip.frames.length * 4);
    clip.frames.forEach((f, i) => {
      const trs = tagTrs(ctx, model, k, f, mirrored);
      t.set(trs.translation, i * 3);
      setRotationKey(r, i, trs.rotation);
    });
    addTrsChannels(b, anim, node, input, t, r, interpolation);
  });
}

/** One MD3 model: its part at the scene root and one animation per clip. */
export function addMd3(ctx: ExportContext, model: Md3Model, name: string, options: MorphExportOptions): { rootNodes: number[] } {
  const part = addMd3Part(ctx, model, name);
  const clips = clipFrames(options.clips ?? groupClips(model.frameNames), model.frameCount, options.fps ?? MD3_DEFAULT_FPS, ctx);
  if (model.frameCount > 1) {
    for (const clip of clips) {
      const anim: GltfAnimation = { name: clip.name, channels: [], samplers: [] };
      partClipChannels(ctx, part, clip, clipTimes(ctx.builder, clip), options.interpolation ?? 'LINEAR', anim);
      ctx.builder.add('animations', anim);
    }
  }
  return { rootNodes: [part.group] };
}

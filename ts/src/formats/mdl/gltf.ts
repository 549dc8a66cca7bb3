/**
 * MDL → glTF 2.0: the drawn vertices of the engine's GL renderer (formats/mdl/geometry.ts: onseam vertices of
 * backward triangles split off with s moved to the skin's back half), every pose a morph target in the compact
 * quantised form MD2 uses (gltf-morph.ts, gltf-quantize.ts: MD2's grid over the box of every pose), each clip an
 * animation (poses named `stand1`..`stand9` make a `stand` clip, played at Quake's 10 fps; a clip that is one frame
 * group plays at the group's own intervals). The material shows the skin (formats/mdl/materials.ts: decoded through the
 * palette, its fullbright texels as the emissive texture); given no `textures`, the embedded skins are decoded
 * with LibreQuake's palette. The model's flags (EF_ROTATE, the trails) and the rest of its header go to the node's
 * `extras.quake`, for engines and tools that act on them.
 */
import type { MdlModel } from '../../base/model.js';
import { clipGroupIntervals } from './clips.js';
import { mdlDrawVertices } from './geometry.js';
import { mdlEffects } from './limits.js';
import { mdlEmbeddedMaterials } from './materials.js';
import { MdlPoser } from './poser.js';
import { MDL_DEFAULT_FPS } from '../../pose/timing.js';
import type { GltfBuilder } from '../../export/gltf-builder.js';
import type { ExportContext } from '../../export/gltf-context.js';
import { frameGetter, md2Grid } from '../../export/quake-grid.js';
import { addMorphMesh, boundMorphVertices, clipFrames, clipTimes, weightsSampler, type ClipFrames, type MorphExportOptions } from '../../export/gltf-morph.js';
import type { ResolvedTextures } from '../../export/textures.js';
import { imageConverter } from '../../export/image-convert.js';
import type { MdlExportOptions } from '../../export/gltf.js';


/** The embedded skins as textures (LibreQuake's palette), for a model exported without resolved textures. */
export function mdlEmbeddedTextures(model: MdlModel, name: string): ResolvedTextures {
  const { materials, pixels } = mdlEmbeddedMaterials(model, name);
  return { materials, images: new Map(), pixels, convert: imageConverter };
}

export { mdlEffects };

/** Key times of a clip: a clip that is exactly one frame group's poses starts each pose where the one before ends. */
function mdlClipTimes(b: GltfBuilder, model: MdlModel, clip: ClipFrames): number {
  const iv = clipGroupIntervals(model.frames, clip.frames[0], clip.frames.length);
  if (!iv) return clipTimes(b, clip);
  const times = new Float32Array(clip.frames.length);
  for (let k = 1; k < times.length; k++) times[k] = iv[k - 1];
  return b.accessor(times, 'SCALAR', { bounds: true });
}

export function addMdl(ctx: ExportContext, model: MdlModel, name: string, options: MdlExportOptions): { rootNodes: number[] } {
  const b = ctx.builder;
  const g = mdlDrawVertices(model);
  const vertexCount = g.sourceVertex.length;
  if (vertexCount === 0) {
    ctx.warnings.push({ code: 'EMPTY_MESH', message: 'the model has no triangles: nothing to export', offset: 0 });
    return { rootNodes: [] };
  }
  boundMorphVertices('the model', vertexCount, model.vertexCount, model.poseCount);
  const skin = options.mdlSkin ?? 0;
  // Without resolved textures (a game folder's replacement skins), the skins the file carries, decoded.
  ctx.materials.carry(() => mdlEmbeddedTextures(model, name));
  const material = ctx.materials.index(`${name}/skin${skin}`, { index: skin });
  const poser = new MdlPoser(ctx.backend, model);
  try {
    const frame = frameGetter(poser, g.sourceVertex);
    const grid = ctx.quantize ? md2Grid(ctx.axes, model.poseCount, frame, 'source', model.scale) : undefined;
    const added = addMorphMesh(b, ctx.axes, { name, vertexCount, frameCount: model.poseCount, frame, uvs: g.uvs, triangles: g.indices, material }, grid);
    const extras = {
      quake: {
        flags: model.flags,
        effects: mdlEffects(model.flags),
        synctype: model.synctype,
        eyePosition: [...model.eyePosition],
        radius: model.radius,
        size: model.size,
        skins: model.skins.length,
        frames: model.frames.map((f) => ({ firstPose: f.firstPose, poses: f.poseCount, ...(f.type !== 0 ? { intervals: [...f.intervals] } : {}) })),
      },
    };
    const node = b.add('nodes', { name, mesh: added.mesh, ...added.node, extras });
    if (model.poseCount > 1) {
      const clips = clipFrames(options.clips ?? model.clips, model.poseCount, options.fps ?? MDL_DEFAULT_FPS, ctx);
      for (const clip of clips) {
        const input = mdlClipTimes(b, model, clip);
        b.add('animations', { name: clip.name, channels: [{ sampler: 0, target: { node, path: 'weights' } }], samplers: [weightsSampler(b, clip, model.poseCount, input, options.interpolation ?? 'LINEAR', ctx.quantize, added.frame0)] });
      }
    }
    return { rootNodes: [node] };
  } finally {
    poser.dispose();
  }
}

/**
 * The capabilities of a vertex-animated format, made from one description of its model: surfaces (triangles,
 * texture coordinates, a material name) whose vertices take their positions and normals from frames, a way to decode
 * a blend of two frames, and named clips. A new vertex-animated format registers its parser and a `MorphView`, and
 * gets glTF export (morph targets, one animation per clip), OBJ of any frame, a playable form and a renderer's view
 * (`model-view.ts`: what `IdTechLoader` builds) from here — the same shapes the MD2/MD3 exporters write, without
 * format code in the pipeline.
 */
import type { PoseBackend } from '../kernels/backend.js';
import type { ModelSet } from '../load/model-set.js';
import type { GltfAnimation } from '../export/gltf-builder.js';
import { addMorphMesh, clipFrames, clipTimes, weightsSampler, type MorphFrame } from '../export/gltf-morph.js';
import { fmt, objFace, objHeader, objUseMaterial, objVector } from '../export/obj.js';
import { concatUvs, partsBackToBack, type Clip, type PlayableModel } from '../playable/playable.js';
import type { FormatEntry, GltfAdd } from './entry.js';
import { growBounds, gridOver, loopingFrames, type MorphModelView, type ViewBounds, type ViewExtras } from './model-view.js';

export interface MorphViewSurface {
  name: string;
  vertexCount: number;
  /** 3 per triangle into the surface's own vertices, clockwise seen from the front (as the id formats store them). */
  triangles: ArrayLike<number>;
  /** 2 per vertex, t growing downward (as the id formats store them). */
  uvs: Float32Array;
  /** The shader, skin or material name its engine looks the surface's texture up by. */
  material: string;
}

/** What a vertex-animated model is made of: its surfaces, its frames and its clips. */
export interface MorphShape {
  surfaces: readonly MorphViewSurface[];
  frameCount: number;
  clips: readonly { name: string; firstFrame: number; frameCount: number; fps: number }[];
  /** What the engine does with the model beyond its frames (a spin, its flags, the skins it carries): passed to the view. */
  extras?: ViewExtras;
}

/** Decodes a model's frames (a format whose frames the kernels decode does it on the backend it is given). */
export interface MorphPosing {
  /** Frames `frame1` and `frame2` blended by `t` into `out` (surfaces back to back, 3 floats per vertex each). */
  pose(frame1: number, frame2: number, t: number, out: MorphFrame): void;
  /** Releases what decoding holds (a poser's buffers). */
  dispose?(): void;
}

export interface MorphView<D> {
  shape(data: D): MorphShape;
  posing(data: D, backend: PoseBackend): MorphPosing;
}

const vertexTotal = (v: MorphShape) => v.surfaces.reduce((n, s) => n + s.vertexCount, 0);

function frameOf(shape: MorphShape, posing: MorphPosing, f: number): MorphFrame {
  const n = vertexTotal(shape) * 3;
  const out = { positions: new Float32Array(n), normals: new Float32Array(n) };
  posing.pose(f, f, 0, out);
  return out;
}

/**
 * The renderer's view of a model described by `shape`, posed by `posing`: surfaces back to back, the box of every
 * frame (each decoded once here) and a grid over it, clips looping at their rate (all frames as one clip at 10 fps
 * when the format names none).
 */
function shapeView(shape: MorphShape, posing: MorphPosing): MorphModelView {
  const { indices, parts, vertexCount } = partsBackToBack(shape.surfaces.map((s) => ({ name: s.name, vertexCount: s.vertexCount, triangles: s.triangles })));
  const out = { positions: new Float32Array(vertexCount * 3), normals: new Float32Array(vertexCount * 3) };
  let bounds: ViewBounds | null = null;
  for (let f = 0; f < shape.frameCount; f++) {
    posing.pose(f, f, 0, out);
    bounds = growBounds(bounds, out.positions);
  }
  const named = shape.clips.length ? shape.clips : [{ name: 'all frames', firstFrame: 0, frameCount: shape.frameCount, fps: 10 }];
  return {
    kind: 'morph',
    vertexCount,
    frameCount: shape.frameCount,
    frameNames: [],
    triangles: indices,
    st: concatUvs(shape.surfaces.map((s) => s.uvs)),
    groups: shape.surfaces.map((s, i) => ({ name: s.name, material: s.material, start: parts[i].firstIndex, count: parts[i].indexCount })),
    bounds,
    grid: gridOver(bounds),
    clips: shape.frameCount > 1 ? named.map((c) => ({ name: c.name, frames: loopingFrames(c.firstFrame, c.frameCount), step: 1 / c.fps, loop: 'repeat' as const })) : [],
    poser: {
      pose(frame1, frame2, t) {
        posing.pose(frame1, frame2, t, out);
        return out;
      },
      dispose: () => posing.dispose?.(),
    },
    warnings: [],
    ...(shape.extras ? { extras: shape.extras } : {}),
  };
}

/** glTF export, OBJ of a frame, the playable form and the renderer's view of a vertex-animated format, from its `MorphView`. */
export function morphCapabilities<D>(view: MorphView<D>): Required<Pick<FormatEntry<D>, 'gltf' | 'obj' | 'playable' | 'view'>> {
  return {
    view: async (set, backend) => shapeView(view.shape(set.data), view.posing(set.data, backend)),
    gltf: {
      uses: ['clips', 'fps', 'step'],
      // the shape's own code is the exporter: nothing to load
      load: async (): Promise<GltfAdd<D>> => (ctx, data, name, options) => {
        const shape = view.shape(data);
        const posing = view.posing(data, ctx.backend);
        try {
          const frames = Array.from({ length: shape.frameCount }, (_, f) => frameOf(shape, posing, f));
          const starts: number[] = [];
          shape.surfaces.reduce((at, s) => (starts.push(at), at + s.vertexCount), 0);
          const nodes = shape.surfaces.map((s, i) => {
            const from = starts[i] * 3, to = from + s.vertexCount * 3;
            const added = addMorphMesh(ctx.builder, ctx.axes, {
              name: s.name || `surface${i}`,
              vertexCount: s.vertexCount,
              frameCount: shape.frameCount,
              frame: (f) => ({ positions: frames[f].positions.subarray(from, to), normals: frames[f].normals.subarray(from, to) }),
              uvs: s.uvs,
              triangles: s.triangles,
              material: ctx.materials.index(s.material || s.name, { index: i }),
            });
            return ctx.builder.add('nodes', { name: s.name || `surface${i}`, mesh: added.mesh });
          });
          const clips = clipFrames(options.clips ?? shape.clips.map((c) => ({ ...c })), shape.frameCount, options.fps ?? shape.clips[0]?.fps ?? 10, ctx);
          if (shape.frameCount > 1) {
            for (const clip of clips) {
              const anim: GltfAnimation = { name: clip.name, channels: [], samplers: [] };
              const input = clipTimes(ctx.builder, clip);
              for (const node of nodes) {
                anim.channels.push({ sampler: anim.samplers.length, target: { node, path: 'weights' } });
                anim.samplers.push(weightsSampler(ctx.builder, clip, shape.frameCount, input, options.interpolation ?? 'LINEAR'));
              }
              ctx.builder.add('animations', anim);
            }
          }
          return [ctx.builder.add('nodes', { name, children: nodes })];
        } finally {
          posing.dispose?.();
        }
      },
    },
    obj: {
      frames: (set: ModelSet<D>) => ({ count: view.shape(set.data).frameCount, of: set.path }),
      async write(set, o) {
        const shape = view.shape(set.data);
        const posing = view.posing(set.data, o.backend);
        try {
          const frame = o.frame ?? 0;
          const { positions, normals } = frameOf(shape, posing, frame);
          const out = objHeader({ comment: o.comment(`${set.path} frame ${frame}`), materials: o.materials });
          let base = 0;
          shape.surfaces.forEach((s, i) => {
            out.push(`o ${(s.name || `surface${i}`).replace(/\s+/g, '_')}`);
            objUseMaterial(out, o, i);
            for (let v = 0; v < s.vertexCount; v++) out.push(objVector('v', positions, (base + v) * 3, o.yUp));
            for (let v = 0; v < s.vertexCount; v++) out.push(`vt ${fmt(s.uvs[v * 2])} ${fmt(1 - s.uvs[v * 2 + 1])}`);
            for (let v = 0; v < s.vertexCount; v++) out.push(objVector('vn', normals, (base + v) * 3, o.yUp));
            for (let t = 0; t + 2 < s.triangles.length; t += 3) out.push(objFace(base + s.triangles[t] + 1, base + s.triangles[t + 1] + 1, base + s.triangles[t + 2] + 1, true));
            base += s.vertexCount;
          });
          out.push('');
          const vertices = vertexTotal(shape);
          return { text: out.join('\n'), facts: [`${shape.surfaces.length} ${shape.surfaces.length === 1 ? 'mesh' : 'meshes'}`, `${vertices} ${vertices === 1 ? 'vertex' : 'vertices'}`, `frame ${frame}`] };
        } finally {
          posing.dispose?.();
        }
      },
    },
    async playable(set): Promise<PlayableModel> {
      const shape = view.shape(set.data);
      const { indices, parts, vertexCount } = partsBackToBack(shape.surfaces.map((s) => ({ name: s.name, vertexCount: s.vertexCount, triangles: s.triangles })));
      const clips: (Clip & { firstFrame: number })[] = shape.clips.length
        ? shape.clips.map((c) => ({ name: c.name, firstFrame: c.firstFrame, frameCount: c.frameCount, frameRate: c.fps, closesOnLastFrame: false }))
        : [{ name: 'all frames', firstFrame: 0, frameCount: shape.frameCount, frameRate: 10, closesOnLastFrame: false }];
      return {
        format: set.format,
        vertexCount,
        indices,
        parts,
        clips,
        summary: `${set.format}: ${shape.frameCount} frames, ${shape.surfaces.length} surfaces, ${vertexCount} vertices, ${indices.length / 3} triangles, ${clips.length} clips`,
        uvs: concatUvs(shape.surfaces.map((s) => s.uvs)),
        materials: [],
        textureWarnings: [],
        model: set.data as PlayableModel['model'],
        createPlayer(backend) {
          const posing = view.posing(set.data, backend);
          const out = { positions: new Float32Array(vertexCount * 3), normals: new Float32Array(vertexCount * 3) };
          let first = clips[0].firstFrame;
          let disposed = false;
          return {
            backend,
            setClip: (index) => void (first = clips[index]?.firstFrame ?? 0),
            poseBlend(frame1, frame2, t) {
              if (disposed) throw new Error('this player was disposed');
              posing.pose(first + frame1, first + frame2, t, out);
            },
            get positions() {
              return out.positions;
            },
            get normals() {
              return out.normals;
            },
            dispose() {
              disposed = true;
              posing.dispose?.();
            },
          };
        },
      };
    },
  };
}

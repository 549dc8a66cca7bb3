/**
 * A made-up format, "TOYM", as a format's room holds it — this one file — registered only by the test's list
 * (`[...DEFAULT_FORMATS, toy]`): a few lines of parser over a toy binary layout, and its capabilities built on the
 * shared floors alone (`export/gltf-morph.ts` morph targets, `export/obj.ts`, `playable/playable.ts`,
 * `formats/model-view.ts`), from one description of the model (surfaces, frames, clips). Its material rule is its
 * own, as an engine's would be: the one surface draws `skin.png` beside the model, so the texture resolver, the
 * exporters and the three.js adapter have an image to find.
 *
 * Nothing in ts/src names it: `new-format.test.ts` runs it through every consumer the registry claims.
 */
import { ErrorCode, ModelParseError } from '../../src/base/errors.js';
import { byteChunks, type ByteSource } from '../../src/base/source.js';
import type { GltfAnimation } from '../../src/export/gltf-builder.js';
import { addMorphMesh, clipFrames, clipTimes, weightsSampler, type MorphFrame } from '../../src/export/gltf-morph.js';
import { fmt, objFace, objHeader, objUseMaterial, objVector } from '../../src/export/obj.js';
import type { FormatEntry, GltfAdd } from '../../src/formats/entry.js';
import { growBounds, gridOver, loopingFrames, type MorphModelView, type ViewBounds, type ViewExtras } from '../../src/formats/model-view.js';
import type { PoseBackend } from '../../src/kernels/backend.js';
import { hasMagic } from '../../src/load/format.js';
import type { ModelSet } from '../../src/load/model-set.js';
import type { MaterialSet } from '../../src/materials/resolver.js';
import type { ResolvedImage, ResolvedMaterial } from '../../src/materials/types.js';
import type { FileSystem } from '../../src/vfs/file-system.js';
import { concatUvs, partsBackToBack, type Clip, type PlayableModel } from '../../src/playable/playable.js';

interface MorphViewSurface {
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
interface MorphShape {
  surfaces: readonly MorphViewSurface[];
  frameCount: number;
  clips: readonly { name: string; firstFrame: number; frameCount: number; fps: number }[];
  /** What the engine does with the model beyond its frames (a spin, its flags, the skins it carries): passed to the view. */
  extras?: ViewExtras;
}

/** Decodes a model's frames (a format whose frames the kernels decode does it on the backend it is given). */
interface MorphPosing {
  /** Frames `frame1` and `frame2` blended by `t` into `out` (surfaces back to back, 3 floats per vertex each). */
  pose(frame1: number, frame2: number, t: number, out: MorphFrame): void;
  /** Releases what decoding holds (a poser's buffers). */
  dispose?(): void;
}

interface MorphView<D> {
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

/** glTF export, OBJ of a frame, the playable form and the renderer's view of the toy, from its `MorphView`. */
function morphCapabilities<D>(view: MorphView<D>): Required<Pick<FormatEntry<D>, 'gltf' | 'obj' | 'playable' | 'view'>> {
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

/** The toy layout: 'TOYM', u32 vertices, u32 triangles, u32 frames; u16 × 3 per triangle; f32 × 2 uv per vertex; f32 × 3 per vertex per frame. */
export interface Toy {
  format: 'toy';
  vertexCount: number;
  frameCount: number;
  triangles: Uint32Array;
  uvs: Float32Array;
  positions: Float32Array;
}

export async function parseToy(source: ByteSource): Promise<Toy> {
  const parts: Uint8Array[] = [];
  for await (const c of byteChunks(source)) parts.push(c.slice());
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
  if (!hasMagic(bytes, 'TOYM')) throw new ModelParseError(ErrorCode.BadMagic, 'not TOYM', { offset: 0 });
  const dv = new DataView(bytes.buffer);
  const [v, t, f] = [dv.getUint32(4, true), dv.getUint32(8, true), dv.getUint32(12, true)];
  let at = 16;
  const triangles = Uint32Array.from({ length: t * 3 }, (_, i) => dv.getUint16(at + i * 2, true));
  at += t * 6;
  const uvs = Float32Array.from({ length: v * 2 }, (_, i) => dv.getFloat32(at + i * 4, true));
  at += v * 8;
  const positions = Float32Array.from({ length: v * 3 * f }, (_, i) => dv.getFloat32(at + i * 4, true));
  return { format: 'toy', vertexCount: v, frameCount: f, triangles, uvs, positions };
}

/** The toy's one surface's image: `skin.png` in the model's folder. */
export const toySkin = (path: string) => `${path.replace(/[^/]*$/, '')}skin.png`;

/** The toy's material rule: its one surface draws `skin.png` beside it, opaque; a warning when it is not there. */
async function toyMaterials(fs: FileSystem, path: string): Promise<MaterialSet> {
  const name = toySkin(path);
  const found = await fs.file(name);
  const image: ResolvedImage = { role: 'diffuse', name, path: found ? found.path : null, origin: found ? found.origin : null, builtin: null, program: null, writtenAt: null, tried: [name] };
  const material: ResolvedMaterial = {
    index: 0, surface: 'body', shaderName: name, nameSource: { kind: 'model' }, definition: { kind: 'implicit' },
    diffuse: image, normal: null, specular: null, emissive: null, animation: null, others: [],
    blend: null, blendMode: 'opaque', alphaTest: null, sides: 'front', doubleSided: false, nodraw: false, translucent: false, clamp: false,
  };
  return { materials: [material], warnings: found ? [] : [{ code: 'IMAGE_NOT_FOUND', message: `no ${name}`, path: name }] };
}

export const toy: FormatEntry<Toy> = {
  id: 'toy',
  title: 'toy model (TOYM)',
  extensions: ['.toy'],
  test: (head) => hasMagic(head, 'TOYM'),
  role: 'model',
  animation: 'vertex',
  parseStream: parseToy,
  owns: (d): d is Toy => (d as Toy | null)?.format === 'toy',
  async inspect(source) {
    const m = await parseToy(source);
    return { summary: { format: 'toy', vertices: m.vertexCount, triangles: m.triangles.length / 3, frames: m.frameCount }, materialsOf: m };
  },
  async headerFrames(file) {
    const m = await parseToy(file.stream());
    return m.frameCount;
  },
  materials: (resolver, _model, path) => toyMaterials(resolver.fs, path),
  ...morphCapabilities<Toy>({
    shape: (m) => ({
      surfaces: [{ name: 'body', vertexCount: m.vertexCount, triangles: m.triangles, uvs: m.uvs, material: 'body' }],
      frameCount: m.frameCount,
      clips: [{ name: 'wobble', firstFrame: 0, frameCount: m.frameCount, fps: 5 }],
    }),
    posing: (m) => ({
      pose(f1, f2, t, out) {
        const n = m.vertexCount * 3;
        for (let i = 0; i < n; i++) out.positions[i] = m.positions[f1 * n + i] * (1 - t) + m.positions[f2 * n + i] * t;
        out.normals.fill(0);
        for (let i = 2; i < n; i += 3) out.normals[i] = 1;
      },
    }),
  }),
};

/** A tetrahedron whose apex rises over three frames. */
export function toyFile(): Uint8Array {
  const tris = [0, 2, 1, 0, 1, 3, 1, 2, 3, 2, 0, 3];
  const uvs = [0, 0, 1, 0, 0, 1, 1, 1];
  const frames = [0, 1, 2].flatMap((f) => [0, 0, 0, 10, 0, 0, 0, 10, 0, 3, 3, 5 + f * 4]);
  const out = new DataView(new ArrayBuffer(16 + tris.length * 2 + uvs.length * 4 + frames.length * 4));
  [0x54, 0x4f, 0x59, 0x4d].forEach((b, i) => out.setUint8(i, b));
  out.setUint32(4, 4, true);
  out.setUint32(8, 4, true);
  out.setUint32(12, 3, true);
  let at = 16;
  for (const x of tris) (out.setUint16(at, x, true), (at += 2));
  for (const x of [...uvs, ...frames]) (out.setFloat32(at, x, true), (at += 4));
  return new Uint8Array(out.buffer);
}

/**
 * Vertex animation (MD2, MD3) as glTF morph targets, shared by the MD2, MD3 and player exporters.
 *
 * A mesh's base is the model's frame 0; frame f > 0 is morph target f − 1 (POSITION and NORMAL deltas from the
 * base), so weights all 0 show frame 0 and a one-hot weight vector shows any other frame exactly. A clip is one
 * animation: key k (at k / fps seconds) is the one-hot vector of the clip's k-th frame; LINEAR blends two
 * neighbouring one-hots, (1 − t)·A + t·B, which is the engines' vertex lerp. Normals are lerped without
 * renormalising (renderers normalise per pixel anyway).
 */
import { counterClockwise, type Axes } from './gltf-axes.js';
import { BufferTarget, type GltfBuilder } from './gltf-builder.js';
import type { ExportContext } from './gltf-context.js';

/** One frame's float geometry in the file's axes, 3 floats per vertex. */
export interface MorphFrame {
  positions: Float32Array;
  normals: Float32Array;
}

export interface MorphMeshInput {
  name: string;
  vertexCount: number;
  frameCount: number;
  /** Frame f's positions and normals in file axes (called once per frame, in order). */
  frame: (f: number) => MorphFrame;
  uvs: Float32Array;
  /** 3 per triangle, wound as the file has them (clockwise from the front: written (a, c, b)). */
  triangles: ArrayLike<number>;
  material: number;
  /** Reuse the UV / index accessors of another mesh of the same topology. */
  shared?: { uvs: number; indices: number };
}

/** The file's vector data in glTF axes, as a new Float32Array. */
export function convertVectors(axes: Axes, v: ArrayLike<number>): Float32Array {
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i += 3) axes.vec(v[i], v[i + 1], v[i + 2], out, i);
  return out;
}

/** glTF requires unit normals; a zero normal (degenerate source data) becomes the up vector. */
function unitNormals(axes: Axes, n: Float32Array): Float32Array {
  const out = convertVectors(axes, n);
  for (let i = 0; i < out.length; i += 3) {
    const len = Math.hypot(out[i], out[i + 1], out[i + 2]);
    if (len > 0) {
      out[i] /= len; out[i + 1] /= len; out[i + 2] /= len;
    } else axes.vec(0, 0, 1, out, i);
  }
  return out;
}

/** Adds a mesh whose base is frame 0 and whose morph targets are frames 1..frameCount − 1. */
export function addMorphMesh(b: GltfBuilder, axes: Axes, m: MorphMeshInput): { mesh: number; uvs: number; indices: number } {
  const V = BufferTarget.ArrayBuffer;
  const base = m.frame(0);
  const basePositions = convertVectors(axes, base.positions);
  const baseNormals = unitNormals(axes, base.normals);
  const targets: Record<string, number>[] = [];
  for (let f = 1; f < m.frameCount; f++) {
    const fr = m.frame(f);
    const dp = convertVectors(axes, fr.positions);
    const dn = unitNormals(axes, fr.normals);
    for (let i = 0; i < dp.length; i++) {
      dp[i] -= basePositions[i];
      dn[i] -= baseNormals[i];
    }
    targets.push({ POSITION: b.accessor(dp, 'VEC3', { target: V, bounds: true }), NORMAL: b.accessor(dn, 'VEC3', { target: V }) });
  }
  const uvs = m.shared?.uvs ?? b.accessor(m.uvs, 'VEC2', { target: V });
  const indices = m.shared?.indices ?? b.accessor(counterClockwise(m.triangles, m.vertexCount), 'SCALAR', { target: BufferTarget.ElementArrayBuffer });
  const mesh = b.add('meshes', {
    name: m.name,
    primitives: [{
      attributes: {
        POSITION: b.accessor(basePositions, 'VEC3', { target: V, bounds: true }),
        NORMAL: b.accessor(baseNormals, 'VEC3', { target: V }),
        TEXCOORD_0: uvs,
      },
      indices,
      material: m.material,
      mode: 4,
      ...(targets.length ? { targets } : {}),
    }],
    ...(targets.length ? { weights: new Array<number>(targets.length).fill(0), extras: { targetNames: targets.map((_, i) => `frame${i + 1}`) } } : {}),
  });
  return { mesh, uvs, indices };
}

/** The frames a clip shows, in play order, and its rate. */
export interface ClipFrames {
  name: string;
  frames: number[];
  fps: number;
}

export type MorphInterpolation = 'LINEAR' | 'STEP';

/** A named frame range; `fps` defaults to the format's rate. */
export interface GltfClip {
  name: string;
  firstFrame: number;
  frameCount: number;
  fps?: number;
}

export interface MorphExportOptions {
  /** Clips to export as animations (default: the model's own, see each format). */
  clips?: GltfClip[];
  /** Frames per second of clips that give none. */
  fps?: number;
  /** How glTF moves between frames: LINEAR (default; the engines lerp) or STEP (frame by frame). */
  interpolation?: MorphInterpolation;
}

/** Clip ranges checked against the model and turned into frame lists. */
export function clipFrames(clips: GltfClip[], frameCount: number, fps: number, ctx: Pick<ExportContext, 'warnings'>): ClipFrames[] {
  const out: ClipFrames[] = [];
  clips.forEach((c, i) => {
    if (!(Number.isInteger(c.firstFrame) && Number.isInteger(c.frameCount) && c.firstFrame >= 0 && c.frameCount > 0 && c.firstFrame + c.frameCount <= frameCount)) {
      ctx.warnings.push({ code: 'CLIP_RANGE', message: `clip "${c.name}" (frames ${c.firstFrame}..${c.firstFrame + c.frameCount - 1}) is outside the model's ${frameCount} frames: not exported`, offset: 0 });
      return;
    }
    const rate = c.fps && c.fps > 0 ? c.fps : fps;
    out.push({ name: c.name || `clip${i}`, frames: Array.from({ length: c.frameCount }, (_, k) => c.firstFrame + k), fps: rate });
  });
  return out;
}


/** Key times k / fps for a clip (shared by every channel of its animation). */
export function clipTimes(b: GltfBuilder, clip: ClipFrames): number {
  const times = new Float32Array(clip.frames.length);
  for (let k = 0; k < times.length; k++) times[k] = k / clip.fps;
  return b.accessor(times, 'SCALAR', { bounds: true });
}

/** A `weights` sampler over a clip for a mesh with frameCount − 1 targets (frame f → one-hot at f − 1). */
export function weightsSampler(b: GltfBuilder, clip: ClipFrames, frameCount: number, input: number, interpolation: MorphInterpolation) {
  const targets = frameCount - 1;
  const out = new Float32Array(clip.frames.length * targets);
  clip.frames.forEach((f, k) => {
    if (f > 0) out[k * targets + f - 1] = 1;
  });
  return { input, output: b.accessor(out, 'SCALAR'), interpolation };
}

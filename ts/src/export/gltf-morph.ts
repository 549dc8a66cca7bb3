/**
 * Vertex animation (MD2, MD3) as glTF morph targets, shared by the MD2, MD3 and player exporters.
 *
 * A mesh's base is the model's frame 0; frame f > 0 is morph target f − 1 (POSITION and NORMAL deltas from the
 * base), so weights all 0 show frame 0 and a one-hot weight vector shows any other frame exactly. A clip is one
 * animation: key k (at k / fps seconds) is the one-hot vector of the clip's k-th frame; LINEAR blends two
 * neighbouring one-hots, (1 − t)·A + t·B, which is the engines' vertex lerp. Normals are lerped without
 * renormalising (renderers normalise per pixel anyway).
 */
import { ErrorCode } from '../base/errors.js';
import { overLimit, resourceLimits } from '../base/resource-limits.js';
import { counterClockwise } from '../pose/winding.js';
import { vertexTangents } from './gltf-tangents.js';
import type { Axes } from './gltf-axes.js';
import { BufferTarget, type GltfBuilder } from './gltf-builder.js';
import type { ExportContext } from './gltf-context.js';
import { gridValues, KHR_MESH_QUANTIZATION, packIntegers, quantizeNormals, type PositionGrid } from './gltf-quantize.js';

/** One frame's float geometry in the file's axes, 3 floats per vertex. */
export interface MorphFrame {
  positions: Float32Array;
  normals: Float32Array;
}

export interface MorphMeshInput {
  name: string;
  vertexCount: number;
  frameCount: number;
  /** Frame f's positions and normals in file axes (called once per frame, in order; kept only until the mesh is added). */
  frame: (f: number) => MorphFrame;
  uvs: Float32Array;
  /** 3 per triangle, wound as the file has them (clockwise from the front: written (a, c, b)). */
  triangles: ArrayLike<number>;
  material: number;
  /** Reuse the UV / index accessors of another mesh of the same topology. */
  shared?: { uvs: number; indices: number };
}

/** glTF requires unit normals; a zero normal (degenerate source data) becomes the up vector. */
function unitNormals(axes: Axes, n: Float32Array): Float32Array {
  const out = axes.vectors(n);
  for (let i = 0; i < out.length; i += 3) {
    const x = out[i], y = out[i + 1], z = out[i + 2];
    const len = Math.sqrt(x * x + y * y + z * z); // not Math.hypot: a builtin call per vertex, 2.3% of a batch's CPU
    if (len > 0) {
      out[i] /= len; out[i + 1] /= len; out[i + 2] /= len;
    } else axes.vec(0, 0, 1, out, i);
  }
  return out;
}

/** What a morph mesh's node carries: the grid's dequantisation (KHR_mesh_quantization), or nothing for floats. */
export type MorphNodeTransform = { translation?: number[]; scale?: number[] };

/** An added morph mesh: its accessors to share, its node's transform, and whether frame 0 is a target too (`frame0`). */
export interface AddedMorphMesh {
  mesh: number;
  uvs: number;
  indices: number;
  node: MorphNodeTransform;
  /** Target f is frame f (the default weights show frame 0) instead of target f − 1 (gltf-quantize.ts quantizeNormals). */
  frame0: boolean;
}

/**
 * Adds a mesh whose base is frame 0 and whose morph targets are frames 1..frameCount − 1. With a `grid`, positions are
 * integers on it and normals snorm8 (gltf-quantize.ts); `node` is then the transform the mesh's node must carry.
 */
export function addMorphMesh(b: GltfBuilder, axes: Axes, m: MorphMeshInput, grid?: PositionGrid): AddedMorphMesh {
  const V = BufferTarget.ArrayBuffer;
  const frames: MorphFrame[] = [];
  for (let f = 0; f < m.frameCount; f++) {
    const fr = m.frame(f);
    frames.push({ positions: axes.vectors(fr.positions), normals: unitNormals(axes, fr.normals) });
  }
  const q = grid && quantized(b, frames, grid);
  const base = frames[0];
  const targets = q?.targets ?? targetAccessors(b, frames.slice(1).map((fr) => floatDeltas(fr.positions, base.positions)), frames.slice(1).map((fr) => floatDeltas(fr.normals, base.normals)), false);
  const frame0 = q?.frame0 ?? false;
  const uvs = m.shared?.uvs ?? b.accessor(m.uvs, 'VEC2', { target: V });
  const wound = counterClockwise(m.triangles, m.vertexCount);
  const indices = m.shared?.indices ?? b.accessor(wound, 'SCALAR', { target: BufferTarget.ElementArrayBuffer });
  // tangents where a normal map needs them, of the base frame (gltf-tangents.ts)
  const tangents: Record<string, number> = b.json.materials?.[m.material]?.normalTexture ? { TANGENT: b.accessor(vertexTangents(base.positions, base.normals, m.uvs, wound), 'VEC4', { target: V }) } : {};
  const mesh = b.add('meshes', {
    name: m.name,
    primitives: [{
      attributes: {
        POSITION: q?.position ?? b.accessor(base.positions, 'VEC3', { target: V, bounds: true }),
        NORMAL: q?.normal ?? b.accessor(base.normals, 'VEC3', { target: V }),
        ...tangents,
        TEXCOORD_0: uvs,
      },
      indices,
      material: m.material,
      mode: 4,
      ...(targets.length ? { targets } : {}),
    }],
    ...(targets.length ? {
      weights: targets.map((_, i) => (frame0 && i === 0 ? 1 : 0)),
      extras: { targetNames: targets.map((_, i) => `frame${frame0 ? i : i + 1}`) },
    } : {}),
  });
  const node = q && grid ? { translation: [...grid.origin], scale: [grid.step, grid.step, grid.step] } : {};
  return { mesh, uvs, indices, node, frame0 };
}

/**
 * The quantised base and targets (KHR_mesh_quantization): positions on the grid — the base in the smallest integer
 * type that holds it, each target's deltas as BYTE or SHORT where they fit, else floats (exact integers all the same)
 * — and normals as quantizeNormals makes them. Undefined when frame 0 fits no integer type (the mesh stays float).
 */
function quantized(b: GltfBuilder, frames: MorphFrame[], grid: PositionGrid) {
  const V = BufferTarget.ArrayBuffer;
  const q = frames.map((fr) => gridValues(fr.positions, grid));
  const basePositions = packIntegers(q[0], false);
  if (!basePositions) return undefined;
  b.useExtension(KHR_MESH_QUANTIZATION, true);
  const normals = quantizeNormals(frames.map((fr) => fr.normals));
  const positions = normals.targets.map((_, t) => {
    const f = normals.frame0 ? t : t + 1;
    const d = new Float64Array(q[f].length);
    for (let i = 0; i < d.length; i++) d[i] = q[f][i] - q[0][i];
    return packIntegers(d, true) ?? Float32Array.from(d);
  });
  const targets = targetAccessors(b, positions, normals.targets, true);
  return {
    position: b.accessor(basePositions, 'VEC3', { target: V, bounds: true }),
    normal: b.accessor(normals.base, 'VEC3', { target: V, normalized: true }),
    targets,
    frame0: normals.frame0,
  };
}

/** `frame − base` as float32. */
function floatDeltas(frame: Float32Array, base: Float32Array): Float32Array {
  const d = new Float32Array(frame.length);
  for (let i = 0; i < d.length; i++) d[i] = frame[i] - base[i];
  return d;
}

/**
 * The targets' POSITION and NORMAL accessors, every target's data of one kind (and component type) in one shared
 * bufferView: two views a mesh instead of two a target.
 */
function targetAccessors(b: GltfBuilder, positions: (Float32Array | Int8Array | Int16Array | Uint8Array | Uint16Array)[], normals: (Float32Array | Int8Array)[], normalized: boolean): Record<string, number>[] {
  const p = b.sharedAccessors(positions, 'VEC3', { bounds: true });
  const n = b.sharedAccessors(normals, 'VEC3', normalized ? { normalized } : {});
  return p.map((POSITION, i) => ({ POSITION, NORMAL: n[i] }));
}

/**
 * Bounds what a morph export of a model whose triangles pair positions with texture coordinates apart (MDL, MD2)
 * decodes, before any frame is: `drawn` vertices (the distinct pairs) × `frames`, each a position and normal per
 * frame, several copies deep. The file stores `stored` vertices a frame, 4 bytes each: up to twice as many drawn (the
 * onseam rule's doubling) is memory in proportion to the file and passes whatever its size; more is the st table's
 * amplification (one stored vertex drawn once per st it is paired with), held to `maxMorphVertices`
 * (docs/security.md).
 */
export function boundMorphVertices(what: string, drawn: number, stored: number, frames: number): void {
  const total = drawn * frames, max = resourceLimits().maxMorphVertices;
  if (total > max && total > 2 * stored * frames) {
    throw overLimit(`${what}: ${drawn} drawn vertices (the file stores ${stored}) × ${frames} frames are ${total} vertex positions`, 'maxMorphVertices', max, 0, ErrorCode.Unwritable);
  }
}

/** The frames a clip shows, in play order, and its rate. */
export interface ClipFrames {
  name: string;
  frames: number[];
  fps: number;
}

export type MorphInterpolation = 'LINEAR' | 'STEP';

/** A named frame range; `fps` defaults to the format's rate; `reversed` plays it last frame first (animation.cfg). */
export interface GltfClip {
  name: string;
  firstFrame: number;
  frameCount: number;
  fps?: number;
  reversed?: boolean;
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
    const frames = Array.from({ length: c.frameCount }, (_, k) => c.firstFrame + k);
    out.push({ name: c.name || `clip${i}`, frames: c.reversed ? frames.reverse() : frames, fps: rate });
  });
  return out;
}


/** Key times k / fps for a clip (shared by every channel of its animation). */
export function clipTimes(b: GltfBuilder, clip: ClipFrames): number {
  const times = new Float32Array(clip.frames.length);
  for (let k = 0; k < times.length; k++) times[k] = k / clip.fps;
  return b.accessor(times, 'SCALAR', { bounds: true });
}

/** Morph weights each glTF being built holds so far (`maxMorphWeights` bounds their sum). */
const weightsWritten = new WeakMap<GltfBuilder, number>();

/**
 * A `weights` sampler over a clip for a mesh of a model with `frameCount` frames: frame f → one-hot at target f − 1, or at
 * target f when frame 0 is a target too (`frame0`, see addMorphMesh).
 */
export function weightsSampler(b: GltfBuilder, clip: ClipFrames, frameCount: number, input: number, interpolation: MorphInterpolation, quantize = false, frame0 = false) {
  const shift = frame0 ? 0 : 1;
  const targets = frameCount - shift;
  // a weight per target per key, over every clip of one glTF: bounded before it is allocated (docs/security.md)
  const max = resourceLimits().maxMorphWeights;
  const total = (weightsWritten.get(b) ?? 0) + clip.frames.length * targets;
  if (total > max) throw overLimit(`the animations' morph weights reach ${total} (this clip: ${clip.frames.length} keyframes × ${targets} targets)`, 'maxMorphWeights', max, 0, ErrorCode.Unwritable);
  weightsWritten.set(b, total);
  // one-hot keys: 0 and 1 are exact as normalised bytes (255 / 255), which KHR_mesh_quantization allows for weights
  const out = quantize ? new Uint8Array(clip.frames.length * targets) : new Float32Array(clip.frames.length * targets);
  clip.frames.forEach((f, k) => {
    if (f - shift >= 0) out[k * targets + f - shift] = quantize ? 255 : 1;
  });
  if (quantize) b.useExtension(KHR_MESH_QUANTIZATION, true);
  return { input, output: b.accessor(out, 'SCALAR', { normalized: quantize }), interpolation };
}

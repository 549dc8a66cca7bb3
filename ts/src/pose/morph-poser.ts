/**
 * Posers for the vertex-animated formats: an MD2 model, or an MD3 model's surfaces, blended between two
 * frames by the backend's `md2Blend` / `md3Blend` kernels (WASM or TS).
 *
 * Frames stay quantised: the model's frame bytes (MD2) or int16 records (MD3) are copied once into kernel
 * buffers at construction, and every pose call decodes only the two frames it blends. Outputs are one
 * `positions` and one `normals` Float32Array (3 floats per vertex; MD3 surfaces back to back), allocated once;
 * like `Md5Poser`'s, they are valid until the next pose call and must be read again after it (WASM memory
 * growth re-creates views).
 */
import { MD2_NORMALS } from '../md2/normals.js';
import type { F32, I16, PoseBackend, U8 } from './backend.js';
import { MD3_ANGLE_TABLE } from './morph-tables.js';

/** A run of frames played as one animation. `fps` defaults to the format's usual rate. */
export interface MorphClip {
  firstFrame: number;
  frameCount: number;
  fps?: number;
  /** Frames at the end that loop (Quake 3 `animation.cfg`); default: the whole clip loops. 0: plays once and holds. */
  loopFrames?: number;
}

/** Which two frames and how far between them. */
export interface MorphBlend {
  frameA: number;
  frameB: number;
  t: number;
}

/** Quake 2 runs its server, and so model animation, at 10 frames per second. */
export const MD2_DEFAULT_FPS = 10;
/** When a clip gives no rate. Quake 3's animation.cfg always gives one; 15 is the common value there. */
export const MD3_DEFAULT_FPS = 15;

/**
 * The blend `seconds` into a clip: frame k of the clip lasts 1/fps; after the last frame the clip loops back
 * over its last `loopFrames` frames (all of them by default), or holds the last frame when `loopFrames` is 0.
 */
export function clipBlend(clip: MorphClip, seconds: number, defaultFps: number): MorphBlend {
  const count = Math.max(1, clip.frameCount | 0);
  const fps = clip.fps && clip.fps > 0 ? clip.fps : defaultFps;
  const loop = Math.min(count, Math.max(0, clip.loopFrames ?? count));
  const f = Math.max(0, Number.isFinite(seconds) ? seconds : 0) * fps;
  const whole = Math.floor(f);
  const t = f - whole;
  const wrap = (k: number) => (k < count ? k : loop === 0 ? count - 1 : count - loop + ((k - (count - loop)) % loop));
  const a = wrap(whole);
  const b = wrap(whole + 1);
  return { frameA: clip.firstFrame + a, frameB: clip.firstFrame + b, t: a === b ? 0 : t };
}

function checkBlend(frameA: number, frameB: number, t: number, frameCount: number): void {
  for (const f of [frameA, frameB]) {
    if (!Number.isInteger(f) || f < 0 || f >= frameCount) throw new RangeError(`frame ${f}: the model has frames 0..${frameCount - 1}`);
  }
  if (!(t >= 0 && t <= 1)) throw new RangeError(`blend factor ${t} is not in [0, 1]`);
}

/** The parts of an `Md2Model` the poser reads. */
export interface Md2Frames {
  vertexCount: number;
  frameCount: number;
  frameScales: Float32Array;
  frameTranslates: Float32Array;
  frameVertices: Uint8Array;
}

export class Md2Poser {
  readonly vertexCount: number;
  readonly frameCount: number;
  private readonly frames: U8;
  private readonly scales: F32;
  private readonly translates: F32;
  private readonly normalTable: F32;
  private readonly out: { positions: F32; normals: F32 };
  private disposed = false;

  constructor(readonly backend: PoseBackend, model: Md2Frames) {
    this.vertexCount = model.vertexCount;
    this.frameCount = model.frameCount;
    if (model.frameVertices.length !== model.frameCount * model.vertexCount * 4 || model.frameScales.length < model.frameCount * 3 || model.frameTranslates.length < model.frameCount * 3) {
      throw new RangeError('Md2Poser: frame arrays disagree with frameCount × vertexCount');
    }
    this.frames = backend.u8(model.frameVertices.length);
    this.frames.view.set(model.frameVertices);
    this.scales = backend.f32(model.frameCount * 3);
    this.scales.view.set(model.frameScales.subarray(0, model.frameCount * 3));
    this.translates = backend.f32(model.frameCount * 3);
    this.translates.view.set(model.frameTranslates.subarray(0, model.frameCount * 3));
    this.normalTable = backend.f32(MD2_NORMALS.length);
    this.normalTable.view.set(MD2_NORMALS);
    this.out = { positions: backend.f32(this.vertexCount * 3), normals: backend.f32(this.vertexCount * 3) };
    this.poseFrame(0);
  }

  /** Positions of the last pose, 3 floats per vertex in file order (`num_xyz` order). */
  get positions(): Float32Array {
    return this.out.positions.view;
  }
  /** Unit normals of the last pose. */
  get normals(): Float32Array {
    return this.out.normals.view;
  }

  poseFrame(frame: number): this {
    return this.poseBlend(frame, frame, 0);
  }

  poseBlend(frameA: number, frameB: number, t: number): this {
    if (this.disposed) throw new Error('Md2Poser: disposed');
    checkBlend(frameA, frameB, t, this.frameCount);
    this.backend.md2Blend(this.frames, this.scales, this.translates, this.vertexCount, frameA, frameB, t, this.normalTable, this.out.positions, this.out.normals, 0);
    return this;
  }

  /** The pose `seconds` into `clip` (default rate 10 fps, looping). */
  poseTime(clip: MorphClip, seconds: number): this {
    const { frameA, frameB, t } = clipBlend(clip, seconds, MD2_DEFAULT_FPS);
    return this.poseBlend(frameA, frameB, t);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const b of [this.frames, this.scales, this.translates, this.normalTable, this.out.positions, this.out.normals]) this.backend.release(b);
  }
}

/** The parts of an `Md3Model` the poser reads. */
export interface Md3Frames {
  frameCount: number;
  surfaces: { vertexCount: number; triangles: Uint32Array; xyzNormals: Int16Array }[];
}

export class Md3Poser {
  readonly frameCount: number;
  readonly vertexCount: number;
  /** Surface s owns vertices [surfaceVertexStart[s], surfaceVertexStart[s + 1]) of the outputs. */
  readonly surfaceVertexStart: Uint32Array;
  /** Every surface's triangles, re-indexed into the combined outputs. */
  readonly indices: Uint32Array;
  private readonly surfaceFrames: I16[];
  private readonly surfaceVertices: number[];
  private readonly angleTable: F32;
  private readonly out: { positions: F32; normals: F32 };
  private disposed = false;

  constructor(readonly backend: PoseBackend, model: Md3Frames) {
    this.frameCount = model.frameCount;
    const n = model.surfaces.length;
    this.surfaceVertexStart = new Uint32Array(n + 1);
    let triangles = 0;
    model.surfaces.forEach((s, i) => {
      if (s.xyzNormals.length !== model.frameCount * s.vertexCount * 4) throw new RangeError(`Md3Poser: surface ${i}'s vertex records disagree with frameCount × vertexCount`);
      this.surfaceVertexStart[i + 1] = this.surfaceVertexStart[i] + s.vertexCount;
      triangles += s.triangles.length;
    });
    this.vertexCount = this.surfaceVertexStart[n];
    this.indices = new Uint32Array(triangles);
    let k = 0;
    model.surfaces.forEach((s, i) => {
      const base = this.surfaceVertexStart[i];
      for (let j = 0; j < s.triangles.length; j++) this.indices[k++] = base + s.triangles[j];
    });
    this.surfaceVertices = model.surfaces.map((s) => s.vertexCount);
    this.surfaceFrames = model.surfaces.map((s) => {
      const b = backend.i16(s.xyzNormals.length);
      b.view.set(s.xyzNormals);
      return b;
    });
    this.angleTable = backend.f32(MD3_ANGLE_TABLE.length);
    this.angleTable.view.set(MD3_ANGLE_TABLE);
    this.out = { positions: backend.f32(this.vertexCount * 3), normals: backend.f32(this.vertexCount * 3) };
    if (this.frameCount > 0) this.poseFrame(0);
  }

  /** Positions of the last pose, 3 floats per vertex, surfaces back to back in file order. */
  get positions(): Float32Array {
    return this.out.positions.view;
  }
  get normals(): Float32Array {
    return this.out.normals.view;
  }

  poseFrame(frame: number): this {
    return this.poseBlend(frame, frame, 0);
  }

  poseBlend(frameA: number, frameB: number, t: number): this {
    if (this.disposed) throw new Error('Md3Poser: disposed');
    checkBlend(frameA, frameB, t, this.frameCount);
    for (let s = 0; s < this.surfaceFrames.length; s++) {
      this.backend.md3Blend(this.surfaceFrames[s], this.surfaceVertices[s], frameA, frameB, t, this.angleTable, this.out.positions, this.out.normals, this.surfaceVertexStart[s]);
    }
    return this;
  }

  /** The pose `seconds` into `clip` (a clip's fps, else 15 as Quake 3's `animation.cfg` files mostly use). */
  poseTime(clip: MorphClip, seconds: number): this {
    const { frameA, frameB, t } = clipBlend(clip, seconds, MD3_DEFAULT_FPS);
    return this.poseBlend(frameA, frameB, t);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const b of [...this.surfaceFrames, this.angleTable, this.out.positions, this.out.normals]) this.backend.release(b);
  }
}

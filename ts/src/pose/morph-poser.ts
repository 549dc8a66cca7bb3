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
import { MD2_NORMALS } from '../formats/md2/normals.js';
import type { F32, I16, KernelBuffer, PoseBackend, Typed, U8 } from '../kernels/backend.js';
import { MD3_ANGLE_TABLE } from '../kernels/tables.js';

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

/**
 * What both posers share: the two outputs, their lifetime, the frame checks and clip timing. Subclasses hold
 * the quantised frames and implement `blend`.
 */
abstract class MorphPoser {
  protected readonly out: { positions: F32; normals: F32 };
  private readonly owned: KernelBuffer<Typed>[] = [];
  private disposed = false;

  protected constructor(readonly backend: PoseBackend, readonly frameCount: number, vertexCount: number, private readonly defaultFps: number) {
    this.out = { positions: this.own(backend.f32(vertexCount * 3)), normals: this.own(backend.f32(vertexCount * 3)) };
  }

  /** Positions of the last pose, 3 floats per vertex. */
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

  /** Frames a and b blended by t ∈ [0, 1] (t = 0 gives a). */
  poseBlend(frameA: number, frameB: number, t: number): this {
    if (this.disposed) throw new Error(`${this.constructor.name}: disposed`);
    checkBlend(frameA, frameB, t, this.frameCount);
    this.blend(frameA, frameB, t);
    return this;
  }

  /** The pose `seconds` into `clip` (see `clipBlend`; the format's default rate when the clip has none). */
  poseTime(clip: MorphClip, seconds: number): this {
    const { frameA, frameB, t } = clipBlend(clip, seconds, this.defaultFps);
    return this.poseBlend(frameA, frameB, t);
  }

  /** Give every buffer back to the backend. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const b of this.owned) this.backend.release(b);
  }

  /** Registers a buffer to release on `dispose`. */
  protected own<B extends KernelBuffer<Typed>>(buffer: B): B {
    this.owned.push(buffer);
    return buffer;
  }

  protected abstract blend(frameA: number, frameB: number, t: number): void;
}

/** The parts of an `Md2Model` the poser reads. */
export interface Md2Frames {
  vertexCount: number;
  frameCount: number;
  frameScales: Float32Array;
  frameTranslates: Float32Array;
  frameVertices: Uint8Array;
}

export class Md2Poser extends MorphPoser {
  readonly vertexCount: number;
  private readonly frames: U8;
  private readonly scales: F32;
  private readonly translates: F32;
  private readonly normalTable: F32;

  constructor(backend: PoseBackend, model: Md2Frames) {
    if (model.frameVertices.length !== model.frameCount * model.vertexCount * 4 || model.frameScales.length < model.frameCount * 3 || model.frameTranslates.length < model.frameCount * 3) {
      throw new RangeError('Md2Poser: frame arrays disagree with frameCount × vertexCount');
    }
    super(backend, model.frameCount, model.vertexCount, MD2_DEFAULT_FPS);
    this.vertexCount = model.vertexCount;
    this.frames = this.own(backend.u8(model.frameVertices.length));
    this.scales = this.own(backend.f32(model.frameCount * 3));
    this.translates = this.own(backend.f32(model.frameCount * 3));
    this.normalTable = this.own(backend.f32(MD2_NORMALS.length));
    // All allocation is done: write the inputs once (views read after the last allocation).
    this.frames.view.set(model.frameVertices);
    this.scales.view.set(model.frameScales.subarray(0, model.frameCount * 3));
    this.translates.view.set(model.frameTranslates.subarray(0, model.frameCount * 3));
    this.normalTable.view.set(MD2_NORMALS);
    this.poseFrame(0);
  }

  protected blend(frameA: number, frameB: number, t: number): void {
    this.backend.md2Blend(this.frames, this.scales, this.translates, this.vertexCount, frameA, frameB, t, this.normalTable, this.out.positions, this.out.normals, 0);
  }
}

/** The parts of an `Md3Model` the poser reads. */
export interface Md3Frames {
  frameCount: number;
  surfaces: { vertexCount: number; triangles: Uint32Array; xyzNormals: Int16Array }[];
}

export class Md3Poser extends MorphPoser {
  readonly vertexCount: number;
  /** Surface s owns vertices [surfaceVertexStart[s], surfaceVertexStart[s + 1]) of the outputs. */
  readonly surfaceVertexStart: Uint32Array;
  /** Every surface's triangles, re-indexed into the combined outputs. */
  readonly indices: Uint32Array;
  private readonly surfaceFrames: I16[];
  private readonly surfaceVertices: number[];
  private readonly angleTable: F32;

  constructor(backend: PoseBackend, model: Md3Frames) {
    const starts = new Uint32Array(model.surfaces.length + 1);
    model.surfaces.forEach((s, i) => {
      if (s.xyzNormals.length !== model.frameCount * s.vertexCount * 4) throw new RangeError(`Md3Poser: surface ${i}'s vertex records disagree with frameCount × vertexCount`);
      starts[i + 1] = starts[i] + s.vertexCount;
    });
    super(backend, model.frameCount, starts[model.surfaces.length], MD3_DEFAULT_FPS);
    this.surfaceVertexStart = starts;
    this.vertexCount = starts[model.surfaces.length];
    this.indices = backToBackIndices(model.surfaces);
    this.surfaceVertices = model.surfaces.map((s) => s.vertexCount);
    this.surfaceFrames = model.surfaces.map((s) => this.own(backend.i16(s.xyzNormals.length)));
    this.angleTable = this.own(backend.f32(MD3_ANGLE_TABLE.length));
    // All allocation is done: write the inputs once (views read after the last allocation).
    model.surfaces.forEach((s, i) => this.surfaceFrames[i].view.set(s.xyzNormals));
    this.angleTable.view.set(MD3_ANGLE_TABLE);
    if (this.frameCount > 0) this.poseFrame(0);
  }

  protected blend(frameA: number, frameB: number, t: number): void {
    for (let s = 0; s < this.surfaceFrames.length; s++) {
      this.backend.md3Blend(this.surfaceFrames[s], this.surfaceVertices[s], frameA, frameB, t, this.angleTable, this.out.positions, this.out.normals, this.surfaceVertexStart[s]);
    }
  }
}

/**
 * One index buffer over pieces whose vertices lie back to back (MD3 surfaces as `Md3Poser` lays them out, MD5
 * meshes as `Md5Poser` does in file order): each piece's triangles offset by the vertices before it.
 */
export function backToBackIndices(pieces: readonly { vertexCount: number; triangles: ArrayLike<number> }[]): Uint32Array {
  const indices = new Uint32Array(pieces.reduce((n, p) => n + p.triangles.length, 0));
  let base = 0, at = 0;
  for (const p of pieces) {
    for (let k = 0; k < p.triangles.length; k++) indices[at++] = base + p.triangles[k];
    base += p.vertexCount;
  }
  return indices;
}

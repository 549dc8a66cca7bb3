/**
 * What the posers of the vertex-animated formats share (`Md2Poser`, `Md3Poser`): the two outputs and their
 * lifetime, the frame checks, clip timing, and `dispose`. Frames stay quantised: a subclass copies the model's
 * frame bytes (MD2) or int16 records (MD3) into kernel buffers once, builds its blend jobs once, and every pose
 * decodes only the two frames it blends. Outputs are one `positions` and one `normals` Float32Array (3 floats per
 * vertex; MD3 surfaces back to back), allocated once; like `Md5Poser`'s, they are valid until the next pose call and
 * must be read again after it (WASM memory growth re-creates views).
 */
import { disposedError, type F32, type KernelBuffer, type PoseBackend, type Typed } from '../kernels/backend.js';
import { clipBlend, type FrameBlend, type MorphClip } from './timing.js';

export abstract class MorphPoser {
  protected readonly out: { positions: F32; normals: F32 };
  private readonly owned: KernelBuffer<Typed>[] = [];
  /** What the last pose showed (one object, updated in place: no allocation per pose). */
  private readonly shown: FrameBlend = { frame1: 0, frame2: 0, t: 0 };
  private disposed = false;
  /** The class name errors give (spelled out: minified bundles rename classes). */
  protected abstract readonly kind: string;

  protected constructor(readonly backend: PoseBackend, readonly frameCount: number, vertexCount: number, private readonly defaultFps: number) {
    this.out = { positions: this.own(backend.memory.f32(vertexCount * 3)), normals: this.own(backend.memory.f32(vertexCount * 3)) };
  }

  /** Positions of the last pose, 3 floats per vertex. */
  get positions(): Float32Array {
    return this.alive().out.positions.view;
  }
  /** Unit normals of the last pose. */
  get normals(): Float32Array {
    return this.alive().out.normals.view;
  }
  /** What the last pose showed. */
  get blend(): FrameBlend {
    return this.alive().shown;
  }

  poseFrame(frame: number): this {
    return this.poseBlend(frame, frame, 0);
  }

  /** Frames 1 and 2 blended by t ∈ [0, 1] (t = 0 gives frame1). */
  poseBlend(frame1: number, frame2: number, t: number): this {
    this.alive();
    this.checkFrame(frame1);
    this.checkFrame(frame2);
    if (!(t >= 0 && t <= 1)) throw new RangeError(`blend factor ${t} is not in [0, 1]`);
    this.run(frame1, frame2, t);
    this.shown.frame1 = frame1;
    this.shown.frame2 = frame2;
    this.shown.t = t;
    return this;
  }

  /**
   * The pose `seconds` into `clip` (see `clipBlend`; the format's default rate when the clip has none). A time that
   * is NaN or infinite is a RangeError (pose/timing.ts).
   */
  poseTime(clip: MorphClip, seconds: number): this {
    this.alive();
    const { frame1, frame2, t } = clipBlend(clip, seconds, this.defaultFps);
    return this.poseBlend(frame1, frame2, t);
  }

  private checkFrame(f: number): void {
    if (!Number.isInteger(f) || f < 0 || f >= this.frameCount) throw new RangeError(`frame ${f}: the model has frames 0..${this.frameCount - 1}`);
  }

  /** Give every buffer back to the backend. Every later call on this poser throws. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.backend.disposed) return;
    for (const b of this.owned) this.backend.memory.release(b);
  }

  protected alive(): this {
    if (this.disposed) throw disposedError(`this ${this.kind}`);
    if (this.backend.disposed) throw disposedError(`the ${this.backend.name} backend of this ${this.kind}`);
    return this;
  }

  /** Registers a buffer to release on `dispose`. */
  protected own<B extends KernelBuffer<Typed>>(buffer: B): B {
    this.owned.push(buffer);
    return buffer;
  }

  /** Blend frames (already checked) into the outputs. */
  protected abstract run(frame1: number, frame2: number, t: number): void;
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

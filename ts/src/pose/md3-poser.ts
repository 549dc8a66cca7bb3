/** Poses an MD3 model's surfaces on a backend: two quantised frames blended by the `md3Blend` kernel (see `morph-poser.ts`). */
import type { Md3BlendJob, PoseBackend } from '../kernels/backend.js';
import { md3NormalBuffer } from '../kernels/tables.js';
import { backToBackIndices, MorphPoser } from './morph-poser.js';
import { MD3_DEFAULT_FPS } from './timing.js';

/** The parts of an `Md3Model` the poser reads. */
export interface Md3Frames {
  frameCount: number;
  surfaces: { vertexCount: number; triangles: Uint32Array; xyzNormals: Int16Array }[];
}

export class Md3Poser extends MorphPoser {
  protected readonly kind = 'Md3Poser';
  readonly vertexCount: number;
  /** Surface s owns vertices [surfaceVertexStart[s], surfaceVertexStart[s + 1]) of the outputs. */
  readonly surfaceVertexStart: Uint32Array;
  /** Every surface's triangles, re-indexed into the combined outputs. */
  readonly indices: Uint32Array;
  /** One blend job per surface, built once. */
  private readonly jobs: Md3BlendJob[];

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
    const m = backend.memory;
    const normalTable = md3NormalBuffer(backend); // the backend's, not this poser's: not owned
    const frames = model.surfaces.map((s) => this.own(m.i16(s.xyzNormals.length)));
    // All allocation is done: write the inputs once (views read after the last allocation).
    model.surfaces.forEach((s, i) => frames[i].view.set(s.xyzNormals));
    this.jobs = model.surfaces.map((s, i) => ({
      xyzNormals: frames[i], normalTable, vertexCount: s.vertexCount, frameA: 0, frameB: 0, t: 0,
      outPositions: this.out.positions, outNormals: this.out.normals, outVertexOffset: starts[i],
    }));
    if (this.frameCount > 0) this.poseFrame(0);
  }

  protected run(frame1: number, frame2: number, t: number): void {
    const k = this.backend.kernels;
    for (const j of this.jobs) {
      j.frameA = frame1;
      j.frameB = frame2;
      j.t = t;
      k.md3Blend(j);
    }
  }
}

/** Poses an MD2 model on a backend: two quantised frames blended by the `md2Blend` kernel (see `morph-poser.ts`). */
import type { Md2BlendJob, PoseBackend } from '../kernels/backend.js';
import { MD2_NORMAL_TABLE } from '../kernels/tables.js';
import { MorphPoser } from './morph-poser.js';
import { MD2_DEFAULT_FPS } from './timing.js';

/** The parts of an `Md2Model` the poser reads. */
export interface Md2Frames {
  vertexCount: number;
  frameCount: number;
  frameScales: Float32Array;
  frameTranslates: Float32Array;
  frameVertices: Uint8Array;
}

export class Md2Poser extends MorphPoser {
  protected readonly kind: string = 'Md2Poser';
  readonly vertexCount: number;
  private readonly job: Md2BlendJob;

  constructor(backend: PoseBackend, model: Md2Frames) {
    if (model.frameVertices.length !== model.frameCount * model.vertexCount * 4 || model.frameScales.length < model.frameCount * 3 || model.frameTranslates.length < model.frameCount * 3) {
      throw new RangeError('Md2Poser: frame arrays disagree with frameCount × vertexCount');
    }
    super(backend, model.frameCount, model.vertexCount, MD2_DEFAULT_FPS);
    this.vertexCount = model.vertexCount;
    const m = backend.memory;
    const frames = this.own(m.u8(model.frameVertices.length));
    const scales = this.own(m.f32(model.frameCount * 3));
    const translates = this.own(m.f32(model.frameCount * 3));
    const normalTable = this.own(m.f32(MD2_NORMAL_TABLE.length));
    // All allocation is done: write the inputs once (views read after the last allocation).
    frames.view.set(model.frameVertices);
    scales.view.set(model.frameScales.subarray(0, model.frameCount * 3));
    translates.view.set(model.frameTranslates.subarray(0, model.frameCount * 3));
    normalTable.view.set(MD2_NORMAL_TABLE);
    this.job = {
      frames, scales, translates, normalTable, vertexCount: model.vertexCount,
      frameA: 0, frameB: 0, t: 0, outPositions: this.out.positions, outNormals: this.out.normals, outVertexOffset: 0,
    };
    this.poseFrame(0);
  }

  protected run(frame1: number, frame2: number, t: number): void {
    const j = this.job;
    j.frameA = frame1;
    j.frameB = frame2;
    j.t = t;
    this.backend.kernels.md2Blend(j);
  }
}

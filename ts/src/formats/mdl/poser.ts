/**
 * Poses an MDL on a backend through MD2's blend kernel: MDL poses are MD2's 4-byte vertices (x, y, z, normal index
 * into the same 162-entry table), with one scale and origin for the whole model instead of one per frame — so each
 * pose is given the model's scale and origin. Frames are numbered over every stored pose (frame groups expanded);
 * `poseFrameTime` plays a frame record as the engine does, a group at its own intervals.
 */
import type { MdlModel } from '../../base/model.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { Md2Poser } from '../../pose/md2-poser.js';
import { mdlGroupBlend } from '../../pose/timing.js';

/** The parts of an `MdlModel` the poser reads. */
export type MdlPoses = Pick<MdlModel, 'vertexCount' | 'poseCount' | 'scale' | 'origin' | 'frameVertices'> & { frames?: MdlModel['frames'] };

/** The model's scale and origin repeated for every pose: the per-frame arrays MD2's kernel reads. */
function perPose(v: Float32Array, poses: number): Float32Array {
  const out = new Float32Array(3 * poses);
  for (let p = 0; p < poses; p++) out.set(v.subarray(0, 3), 3 * p);
  return out;
}

export class MdlPoser extends Md2Poser {
  protected override readonly kind: string = 'MdlPoser';
  private readonly records: MdlModel['frames'];

  constructor(backend: PoseBackend, model: MdlPoses) {
    super(backend, {
      vertexCount: model.vertexCount,
      frameCount: model.poseCount,
      frameScales: perPose(model.scale, model.poseCount),
      frameTranslates: perPose(model.origin, model.poseCount),
      frameVertices: model.frameVertices,
    });
    this.records = model.frames ?? [];
  }

  /**
   * Frame record `frame` (numbered as the file's frames, not poses) `seconds` after it started: a single frame's
   * pose, or a group's poses at its intervals (`mdlGroupBlend`).
   */
  poseFrameTime(frame: number, seconds: number): this {
    const r = this.records[frame];
    if (!r) throw new RangeError(`frame record ${frame}: the model has ${this.records.length}`);
    if (r.poseCount === 1) return this.poseFrame(r.firstPose);
    const b = mdlGroupBlend(r.intervals, r.poseCount, seconds);
    return this.poseBlend(r.firstPose + b.frame1, r.firstPose + b.frame2, b.t);
  }
}

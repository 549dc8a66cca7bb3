/**
 * An IQM mesh's blend weights as a GPU skinning pipeline takes them — four (joint, weight) pairs per vertex — what
 * the glTF exporter (JOINTS_0 / WEIGHTS_0) and the three.js adapter (skinIndex / skinWeight) both build from.
 */
import type { IqmModel } from '../../base/model.js';

/**
 * Four (joint, weight) pairs per vertex of [first, first + count) as glTF and three.js skin them: RB_IQMSurfaceAnim's
 * weights (in order up to the first ≤ 0; bytes ÷ 255) renormalised to sum 1 in float32, the largest share taking the
 * rounding; a vertex whose first weight is ≤ 0 (ioquake3 leaves it unskinned) bound to joint 0 and counted.
 */
export function iqmInfluences(model: IqmModel, first: number, count: number): { joints: Uint8Array | Uint16Array; weights: Float32Array; unskinned: number } {
  const J = model.joints.count;
  const joints = J > 256 ? new Uint16Array(count * 4) : new Uint8Array(count * 4);
  const weights = new Float32Array(count * 4);
  const bi = model.blendIndexes!, bw = model.blendWeights!;
  const byte = bw instanceof Uint8Array;
  let unskinned = 0;
  for (let v = 0; v < count; v++) {
    const o = (first + v) * 4;
    const w = [0, 0, 0, 0];
    let sum = 0;
    for (let k = 0; k < 4; k++) {
      const x = byte ? bw[o + k] / 255 : bw[o + k];
      if (!(x > 0)) break;
      w[k] = x;
      sum += x;
    }
    if (!(sum > 0)) {
      unskinned++;
      weights[v * 4] = 1;
      continue;
    }
    let rest = 0;
    for (let k = 3; k >= 1; k--) {
      if (w[k] > 0) {
        joints[v * 4 + k] = Math.min(bi[o + k], J - 1);
        weights[v * 4 + k] = Math.fround(w[k] / sum);
        rest += weights[v * 4 + k];
      }
    }
    joints[v * 4] = Math.min(bi[o], J - 1);
    weights[v * 4] = 1 - rest;
  }
  return { joints, weights, unskinned };
}

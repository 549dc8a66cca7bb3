/**
 * Vertex blend weights as the IQM SDK's exporter writes them (iqm.cpp `blendcombo`): `addweight` drops a weight
 * ≤ 1e-3 and keeps the four largest, sorted largest first; `finalize` scales them to sum 1; `serialize` rounds each
 * to a byte (0.5 + w · 255) and then moves the rounding error off the bytes, one unit at a time in index order, until
 * they sum to 255. A vertex with no weight left has four zero bytes (ioquake3 then leaves it unskinned).
 */

/** Four joint bytes and four weight bytes for (joint, weight) pairs, written at `out…[at]`. */
export function iqmBlendCombo(joints: ArrayLike<number>, weights: ArrayLike<number>, outJoints: Uint8Array, outWeights: Uint8Array, at: number): void {
  const w = [0, 0, 0, 0], b = [0, 0, 0, 0];
  let sorted = 0;
  for (let i = 0; i < weights.length; i++) {
    const weight = weights[i], bone = joints[i];
    if (!(weight > 1e-3)) continue;
    let placed = false;
    for (let k = 0; k < sorted; k++) {
      if (weight > w[k]) {
        for (let l = Math.min(sorted - 1, 2); l >= k; l--) {
          w[l + 1] = w[l];
          b[l + 1] = b[l];
        }
        w[k] = weight;
        b[k] = bone;
        if (sorted < 4) sorted++;
        placed = true;
        break;
      }
    }
    if (placed || sorted >= 4) continue;
    w[sorted] = weight;
    b[sorted] = bone;
    sorted++;
  }
  if (sorted > 0) {
    let total = 0;
    for (let j = 0; j < sorted; j++) total += w[j];
    const inv = 1 / total;
    for (let j = 0; j < sorted; j++) w[j] *= inv;
  }
  let sum = 0;
  for (let k = 0; k < 4; k++) {
    const v = k < sorted ? Math.min(255, Math.floor(0.5 + w[k] * 255)) : 0;
    outWeights[at + k] = v;
    outJoints[at + k] = k < sorted ? b[k] : 0;
    sum += v;
  }
  if (sorted <= 0) return;
  while (sum > 255) for (let k = 0; k < 4; k++) if (outWeights[at + k] > 0 && sum > 255) (outWeights[at + k]--, sum--);
  while (sum < 255) for (let k = 0; k < 4; k++) if (outWeights[at + k] < 255 && sum < 255) (outWeights[at + k]++, sum++);
}

/**
 * Per-channel quantisation of a pose's frames (the SDK's iqm.cpp stores each animated channel as offset + uint16 ×
 * scale): a channel that does not vary keeps its value as the offset and takes no frame value; one that does spans
 * [min, max] in 65535 steps, each value rounded to the nearest step.
 */
export function quantiseChannel(values: ArrayLike<number>): { offset: number; scale: number; animated: boolean; steps: Uint16Array } {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    lo = Math.min(lo, values[i]);
    hi = Math.max(hi, values[i]);
  }
  const offset = Math.fround(lo);
  const range = hi - offset;
  if (!(range > 1e-10)) return { offset, scale: 0, animated: false, steps: new Uint16Array(0) };
  const scale = Math.fround(range / 0xffff);
  const steps = new Uint16Array(values.length);
  for (let i = 0; i < values.length; i++) steps[i] = Math.min(0xffff, Math.max(0, Math.round((values[i] - offset) / scale)));
  return { offset, scale, animated: true, steps };
}

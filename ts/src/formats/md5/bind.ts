/**
 * An md5mesh's skeleton and weights as a GPU skinning pipeline takes them — what the glTF exporter and the three.js
 * adapter both build from:
 *
 * - the bind joints in object space (rotations normalised) and relative to their parents;
 * - at most four influences per vertex: weights on the same joint are merged first (their biases add: M·(b₁p₁ + b₂p₂)
 *   is one influence); of the rest the 4 largest are kept and renormalised to sum 1, as Doom 3 BFG does when it
 *   converts MD5 to its 4-weight GPU format; what that drops is counted in `InfluenceStats`.
 */
import { quatConjugate, quatMultiply, quatRotate, quatUnit, type Quat } from '../../base/quat.js';
import type { Md5Mesh } from '../../base/model.js';
import type { InfluenceStats } from '../../export/gltf.js';

export type { InfluenceStats };


/** Influences a vertex keeps (glTF JOINTS_0 / WEIGHTS_0, three.js skinIndex / skinWeight). */
export const MAX_INFLUENCES = 4;

/** Object-space bind joints (normalised rotations) and their parent-relative local transforms: the glTF exporter's joint nodes and the three.js adapter's bones. */
export function bindJoints(mesh: Md5Mesh) {
  const { count, parents, positions, orientations } = mesh.joints;
  const world: { t: number[]; q: Quat }[] = [];
  const local: { t: number[]; q: Quat }[] = [];
  for (let j = 0; j < count; j++) {
    const t = [positions[j * 3], positions[j * 3 + 1], positions[j * 3 + 2]];
    const q = quatUnit(orientations[j * 4], orientations[j * 4 + 1], orientations[j * 4 + 2], orientations[j * 4 + 3]);
    world.push({ t, q });
    const p = parents[j];
    if (p < 0) {
      local.push({ t, q });
    } else {
      const inv = quatConjugate(world[p].q);
      const d = [t[0] - world[p].t[0], t[1] - world[p].t[1], t[2] - world[p].t[2]];
      local.push({ t: quatRotate(inv, d), q: quatUnit(...quatMultiply(inv, q)) });
    }
  }
  return { world, local };
}

/** Up to 4 (joint, weight) pairs per vertex of one mesh part, weights summing to 1 in float32: the glTF exporter's JOINTS_0 / WEIGHTS_0 and the three.js adapter's skinIndex / skinWeight. */
export function vertexInfluences(part: Md5Mesh['meshes'][number], stats: InfluenceStats, wide: boolean) {
  const n = part.vertexCount;
  const joints = wide ? new Uint16Array(n * 4) : new Uint8Array(n * 4);
  const weights = new Float32Array(n * 4);
  let nonPositive = 0;
  for (let v = 0; v < n; v++) {
    const js: number[] = [];
    const bs: number[] = [];
    for (let w = part.weightStart[v], end = w + part.weightCount[v]; w < end; w++) {
      const j = part.weightJoints[w];
      const k = js.indexOf(j);
      if (k >= 0) bs[k] += part.weightBiases[w];
      else {
        js.push(j);
        bs.push(part.weightBiases[w]);
      }
    }
    const order = js.map((_, i) => i).sort((a, b) => bs[b] - bs[a]);
    stats.jointsPerVertex[js.length - 1] = (stats.jointsPerVertex[js.length - 1] ?? 0) + 1;
    const kept = order.slice(0, MAX_INFLUENCES).filter((i) => bs[i] > 0);
    const total = bs.reduce((s, b) => s + Math.max(0, b), 0);
    const keptSum = kept.reduce((s, i) => s + bs[i], 0);
    if (js.length > MAX_INFLUENCES) {
      stats.verticesLostWeight++;
      stats.maxLostWeight = Math.max(stats.maxLostWeight, total > 0 ? (total - keptSum) / total : 0);
    }
    const o = v * 4;
    if (!(keptSum > 0)) {
      // no positive bias at all: bind rigidly to the first joint rather than write weights that sum to 0
      nonPositive++;
      joints[o] = js[0];
      weights[o] = 1;
      continue;
    }
    // largest first; the largest absorbs float32 rounding so the stored weights sum to 1
    let rest = 0;
    for (let s = kept.length - 1; s >= 1; s--) {
      joints[o + s] = js[kept[s]];
      weights[o + s] = bs[kept[s]] / keptSum;
      rest += weights[o + s];
    }
    joints[o] = js[kept[0]];
    weights[o] = 1 - rest;
  }
  return { joints, weights, nonPositive };
}

/**
 * What the doors of an MDS (and, in its own room, an MDM on its MDX) share: the model as a skinned mesh bound in
 * frame 0 — the engine has no other reference pose: a vertex is only its weights' offsets in bone space — with every
 * frame as the joints' parent-relative poses (pose/wolf-skeleton.ts), the vertices posed by the kernels
 * (pose/wolf-poser.ts), and four influences a vertex for linear blend skinning (the largest weights, renormalised).
 */
import type { PoseBackend } from '../../kernels/backend.js';
import { MATRIX_STRIDE } from '../../kernels/layout.js';
import { WolfPoser, wolfSkinStream } from '../../pose/wolf-poser.js';
import { parentsFirst, wolfBoneMatrices, wolfLocalPoses, type WolfSkeleton, type WolfSurfaceVertices } from '../../pose/wolf-skeleton.js';
import type { ViewInfluences } from '../model-view.js';

export interface WolfDrawable {
  skeleton: WolfSkeleton;
  surfaces: readonly (WolfSurfaceVertices & { name: string; shader: string; triangles: Uint32Array })[];
  tags: readonly { name: string; boneIndex: number }[];
}

/** The rate frames play at when nothing names one: RtCW's and ET's animation scripts give most clips 20 fps. */
export const WOLF_DEFAULT_FPS = 20;

export interface WolfDraw {
  vertexCount: number;
  /** Surface s's vertices are [surfaceStart[s], surfaceStart[s + 1]); its triangles' indices [indexStart[s], indexStart[s + 1]). */
  surfaceStart: Uint32Array;
  indexStart: Uint32Array;
  /** Every surface's triangles, global vertex indices, as stored (clockwise). */
  triangles: Uint32Array;
  st: Float32Array;
}

export function wolfDraw(d: WolfDrawable): WolfDraw {
  const surfaceStart = new Uint32Array(d.surfaces.length + 1), indexStart = new Uint32Array(d.surfaces.length + 1);
  d.surfaces.forEach((s, i) => {
    surfaceStart[i + 1] = surfaceStart[i] + s.vertexCount;
    indexStart[i + 1] = indexStart[i] + s.triangles.length;
  });
  const V = surfaceStart[d.surfaces.length];
  const triangles = new Uint32Array(indexStart[d.surfaces.length]), st = new Float32Array(V * 2);
  d.surfaces.forEach((s, i) => {
    for (let k = 0; k < s.triangles.length; k++) triangles[indexStart[i] + k] = s.triangles[k] + surfaceStart[i];
    st.set(s.texCoords, surfaceStart[i] * 2);
  });
  return { vertexCount: V, surfaceStart, indexStart, triangles, st };
}

export function wolfPoser(backend: PoseBackend, d: WolfDrawable): WolfPoser {
  return new WolfPoser(backend, d.skeleton, wolfSkinStream(d.surfaces));
}

/** Every frame's joint poses (parent-relative), and frame 0's object matrices (the bind pose). */
export function wolfFrames(skeleton: WolfSkeleton): { translations: Float32Array[]; rotations: Float32Array[]; bind: Float32Array } {
  const J = skeleton.bones.length;
  const order = parentsFirst(skeleton.bones);
  const m = new Float32Array(J * MATRIX_STRIDE);
  const translations: Float32Array[] = [], rotations: Float32Array[] = [];
  let bind = new Float32Array(0);
  for (let f = 0; f < skeleton.frames.length; f++) {
    wolfBoneMatrices(skeleton, { frame: f }, m, order);
    if (f === 0) bind = m.slice();
    const t = new Float32Array(J * 3), r = new Float32Array(J * 4);
    wolfLocalPoses(skeleton.bones, m, t, r);
    translations.push(t);
    rotations.push(r);
  }
  return { translations, rotations, bind };
}

/** Object space → a bone's space in the bind pose (frame 0), column-major 4×4: the inverse of the rigid matrix. */
export function wolfInverseBind(bind: Float32Array, b: number, out: Float64Array, o: number): void {
  const m = b * MATRIX_STRIDE;
  const R = (r: number, c: number) => bind[m + r * 4 + c];
  const t = [bind[m + 3], bind[m + 7], bind[m + 11]];
  // Rᵀ (column-major: element (r, c) at c · 4 + r) and −Rᵀ · t
  for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) out[o + c * 4 + r] = R(c, r);
  for (let r = 0; r < 3; r++) out[o + 12 + r] = -(R(0, r) * t[0] + R(1, r) * t[1] + R(2, r) * t[2]);
  out[o + 3] = 0; out[o + 7] = 0; out[o + 11] = 0; out[o + 15] = 1;
}

/** The four largest weights of each vertex (renormalised), as a four-influence skin takes them. */
export function wolfInfluences(d: WolfDrawable): ViewInfluences {
  const V = d.surfaces.reduce((n, s) => n + s.vertexCount, 0);
  const joints = new Uint16Array(V * 4), weights = new Float32Array(V * 4);
  let dropped = 0, maxWeight = 0, unweighted = 0, v0 = 0;
  for (const s of d.surfaces) {
    for (let v = 0; v < s.vertexCount; v++) {
      const list = [];
      for (let k = s.weightStart[v]; k < s.weightStart[v + 1]; k++) list.push([s.weightBones[k], s.weights[k]] as const);
      list.sort((a, b) => b[1] - a[1]);
      const kept = list.slice(0, 4);
      if (list.length > 4) {
        dropped++;
        maxWeight = Math.max(maxWeight, list.slice(4).reduce((n, w) => n + w[1], 0));
      }
      const sum = kept.reduce((n, w) => n + Math.max(0, w[1]), 0);
      const g = (v0 + v) * 4;
      if (!(sum > 0)) {
        unweighted++;
        joints[g] = kept[0][0];
        weights[g] = 1;
        continue;
      }
      kept.forEach(([j, w], i) => {
        joints[g + i] = j;
        weights[g + i] = Math.max(0, w) / sum;
      });
    }
    v0 += s.vertexCount;
  }
  return { joints, weights, dropped: { vertices: dropped, maxWeight }, unweighted };
}

/**
 * What the doors of an MDS and of an MDM on its MDX share (formats/mds, formats/mdm): the model as a skinned mesh bound in
 * frame 0 — the engine has no other reference pose: a vertex is only its weights' offsets in bone space — with every
 * frame as the joints' parent-relative poses (pose/wolf-skeleton.ts), the vertices posed by the kernels
 * (pose/wolf-poser.ts), and four influences a vertex for linear blend skinning (the largest weights, renormalised).
 */
import { quatFromBasis } from '../base/quat.js';
import type { PoseBackend } from '../kernels/backend.js';
import { MATRIX_STRIDE } from '../kernels/layout.js';
import { WolfPoser, wolfSkinStream } from './wolf-poser.js';
import { parentsFirst, wolfBoneMatrices, wolfLocalPoses, type WolfSkeleton, type WolfSurfaceVertices } from './wolf-skeleton.js';

export interface WolfDrawable {
  skeleton: WolfSkeleton;
  surfaces: readonly (WolfSurfaceVertices & { name: string; shader: string; triangles: Uint32Array })[];
  /** Tags on bones; an MDM's with an offset and axes (rows) in the bone's space (R_MDM_GetBoneTag: M · offset + t, M · axis). */
  tags: readonly { name: string; boneIndex: number; offset?: ArrayLike<number>; axis?: ArrayLike<number> }[];
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

/** Every frame's joint poses (parent-relative: frame f's at f · bones · 3 and f · bones · 4), and frame 0's object matrices. */
export function wolfFrames(skeleton: WolfSkeleton): { translations: Float32Array; rotations: Float32Array; bind: Float32Array } {
  const J = skeleton.bones.length;
  const order = parentsFirst(skeleton.bones);
  const m = new Float32Array(J * MATRIX_STRIDE);
  const F = skeleton.frames.length;
  const translations = new Float32Array(F * J * 3), rotations = new Float32Array(F * J * 4);
  let bind = new Float32Array(0);
  for (let f = 0; f < F; f++) {
    wolfBoneMatrices(skeleton, { frame: f }, m, order);
    if (f === 0) bind = m.slice();
    wolfLocalPoses(skeleton.bones, m, translations.subarray(f * J * 3, (f + 1) * J * 3), rotations.subarray(f * J * 4, (f + 1) * J * 4));
  }
  return { translations, rotations, bind };
}

/**
 * The pose the weights were made in. An MDS or MDM stores no reference pose: each weight is an offset in its bone's
 * space, and a vertex is where its weights' offsets, placed by their bones, average to — so only in the pose its
 * tool measured the offsets in do all of a vertex's weights name one point. A four-influence skin (glTF, three.js)
 * binds each vertex at one point, and is exact only in that pose: frame 0 is not it in general (CesiumMan's frame 24
 * drifts 3 cm from the engine's when bound at frame 0). So each bone's reference is found from the offsets: start at
 * frame 0, place each vertex at its weights' average, fit each bone rigidly to the places its offsets should land
 * (Horn's quaternion fit, weighted), and repeat. A bone no vertex is weighted to keeps its frame-0 matrix. Returns the
 * reference matrices (MATRIX_STRIDE a bone) and the vertices and normals placed by them.
 */
export function wolfRestPose(d: WolfDrawable, frame0: Float32Array, rounds = 16): { bind: Float32Array; positions: Float32Array; normals: Float32Array } {
  const J = d.skeleton.bones.length;
  const bind = frame0.slice();
  const V = d.surfaces.reduce((n, s) => n + s.vertexCount, 0);
  const positions = new Float32Array(V * 3), normals = new Float32Array(V * 3);
  const place = () => {
    let v0 = 0;
    for (const s of d.surfaces) {
      for (let v = 0; v < s.vertexCount; v++) {
        let x = 0, y = 0, z = 0;
        for (let k = s.weightStart[v]; k < s.weightStart[v + 1]; k++) {
          const m = s.weightBones[k] * MATRIX_STRIDE, w = s.weights[k];
          const ox = s.offsets[k * 3], oy = s.offsets[k * 3 + 1], oz = s.offsets[k * 3 + 2];
          x += w * (bind[m] * ox + bind[m + 1] * oy + bind[m + 2] * oz + bind[m + 3]);
          y += w * (bind[m + 4] * ox + bind[m + 5] * oy + bind[m + 6] * oz + bind[m + 7]);
          z += w * (bind[m + 8] * ox + bind[m + 9] * oy + bind[m + 10] * oz + bind[m + 11]);
        }
        positions[(v0 + v) * 3] = x; positions[(v0 + v) * 3 + 1] = y; positions[(v0 + v) * 3 + 2] = z;
        const m = s.weightBones[s.weightStart[v]] * MATRIX_STRIDE, n = s.normals;
        for (let r = 0; r < 3; r++) normals[(v0 + v) * 3 + r] = bind[m + 4 * r] * n[v * 3] + bind[m + 4 * r + 1] * n[v * 3 + 1] + bind[m + 4 * r + 2] * n[v * 3 + 2];
      }
      v0 += s.vertexCount;
    }
  };
  if (V > 0) seedFromPairs(d, bind);
  place();
  if (V === 0) return { bind, positions, normals };
  // per bone: Σw, Σw·a, Σw·b, Σw·a·bᵀ over its weights (a: the offset, b: where the vertex is)
  const acc = new Float64Array(J * 16);
  for (let round = 0; round < rounds; round++) {
    acc.fill(0);
    let v0 = 0;
    for (const s of d.surfaces) {
      for (let v = 0; v < s.vertexCount; v++) {
        const bx = positions[(v0 + v) * 3], by = positions[(v0 + v) * 3 + 1], bz = positions[(v0 + v) * 3 + 2];
        for (let k = s.weightStart[v]; k < s.weightStart[v + 1]; k++) {
          const w = s.weights[k];
          if (!(w > 0)) continue;
          const o = s.weightBones[k] * 16, a = [s.offsets[k * 3], s.offsets[k * 3 + 1], s.offsets[k * 3 + 2]], b = [bx, by, bz];
          acc[o] += w;
          for (let r = 0; r < 3; r++) {
            acc[o + 1 + r] += w * a[r];
            acc[o + 4 + r] += w * b[r];
            for (let c = 0; c < 3; c++) acc[o + 7 + r * 3 + c] += w * a[r] * b[c];
          }
        }
      }
      v0 += s.vertexCount;
    }
    for (let j = 0; j < J; j++) {
      const o = j * 16, W = acc[o];
      if (!(W > 0)) continue;
      const ca = [acc[o + 1] / W, acc[o + 2] / W, acc[o + 3] / W], cb = [acc[o + 4] / W, acc[o + 5] / W, acc[o + 6] / W];
      // S = Σ w (a − ā)(b − b̄)ᵀ
      const S = Array.from({ length: 9 }, (_, i) => acc[o + 7 + i] - W * ca[Math.floor(i / 3)] * cb[i % 3]);
      const R = hornRotation(S, bind, j * MATRIX_STRIDE);
      const m = j * MATRIX_STRIDE;
      for (let r = 0; r < 3; r++) {
        for (let c = 0; c < 3; c++) bind[m + 4 * r + c] = R[r * 3 + c];
        bind[m + 4 * r + 3] = cb[r] - (R[r * 3] * ca[0] + R[r * 3 + 1] * ca[1] + R[r * 3 + 2] * ca[2]);
      }
    }
    place();
  }
  return { bind, positions, normals };
}

/**
 * A first guess of the reference pose in closed form: two bones weighting one vertex place their offsets on one
 * point, so the offsets of every vertex they share fit the one rigid motion between the bones (Horn). Chained over
 * the bones sharing most weight (a maximum spanning tree), from the most weighted bone at its frame-0 matrix.
 */
function seedFromPairs(d: WolfDrawable, bind: Float32Array): void {
  const J = d.skeleton.bones.length;
  // per ordered pair (i < k): Σw, Σw·a (i's offset), Σw·b (k's offset), Σw·a·bᵀ
  const pairs = new Map<number, Float64Array>();
  const weightOf = new Float64Array(J);
  for (const s of d.surfaces) {
    for (let v = 0; v < s.vertexCount; v++) {
      for (let x = s.weightStart[v]; x < s.weightStart[v + 1]; x++) {
        weightOf[s.weightBones[x]] += Math.max(0, s.weights[x]);
        // each weight with the next: the vertex's bones chained (linear in its weights, and enough to join them)
        for (let y = x + 1; y < Math.min(x + 2, s.weightStart[v + 1]); y++) {
          let [p, q] = [x, y];
          if (s.weightBones[p] === s.weightBones[q]) continue;
          if (s.weightBones[p] > s.weightBones[q]) [p, q] = [q, p];
          const w = Math.max(0, s.weights[p]) * Math.max(0, s.weights[q]);
          if (!(w > 0)) continue;
          const key = s.weightBones[p] * J + s.weightBones[q];
          let acc = pairs.get(key);
          if (!acc) pairs.set(key, (acc = new Float64Array(16)));
          const a = [s.offsets[p * 3], s.offsets[p * 3 + 1], s.offsets[p * 3 + 2]], b = [s.offsets[q * 3], s.offsets[q * 3 + 1], s.offsets[q * 3 + 2]];
          acc[0] += w;
          for (let r = 0; r < 3; r++) {
            acc[1 + r] += w * a[r];
            acc[4 + r] += w * b[r];
            for (let c = 0; c < 3; c++) acc[7 + r * 3 + c] += w * a[r] * b[c];
          }
        }
      }
    }
  }
  if (pairs.size === 0) return;
  let start = 0;
  for (let j = 1; j < J; j++) if (weightOf[j] > weightOf[start]) start = j;
  const placed = new Uint8Array(J);
  placed[start] = 1;
  const identity = Float32Array.of(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0);
  for (;;) {
    // the heaviest pair with one bone placed
    let best: [number, number, Float64Array] | null = null;
    for (const [key, acc] of pairs) {
      const i = Math.floor(key / J), k = key % J;
      if (placed[i] === placed[k]) continue;
      if (!best || acc[0] > best[2][0]) best = [i, k, acc];
    }
    if (!best) break;
    const [i, k, acc] = best;
    const W = acc[0];
    const ca = [acc[1] / W, acc[2] / W, acc[3] / W], cb = [acc[4] / W, acc[5] / W, acc[6] / W];
    const S = Array.from({ length: 9 }, (_, n) => acc[7 + n] - W * ca[Math.floor(n / 3)] * cb[n % 3]);
    // T: i's space → k's space (b ≈ T·a); R_i = R_k · T, or R_k = R_i · T⁻¹
    const R = hornRotation(S, identity, 0);
    const t = [0, 1, 2].map((r) => cb[r] - (R[r * 3] * ca[0] + R[r * 3 + 1] * ca[1] + R[r * 3 + 2] * ca[2]));
    const [from, to] = placed[k] ? [k, i] : [i, k];
    // the placed bone's matrix P, and the relative motion Q with R_to = P · Q
    const Q = new Float64Array(12);
    if (from === k) {
      for (let n = 0; n < 9; n++) Q[n] = R[n];
      Q.set(t, 9);
    } else {
      // T⁻¹ = (Rᵀ, −Rᵀ·t)
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) Q[r * 3 + c] = R[c * 3 + r];
      for (let r = 0; r < 3; r++) Q[9 + r] = -(R[r] * t[0] + R[3 + r] * t[1] + R[6 + r] * t[2]);
    }
    const P = from * MATRIX_STRIDE, O = to * MATRIX_STRIDE;
    for (let r = 0; r < 3; r++) {
      for (let c = 0; c < 3; c++) bind[O + 4 * r + c] = bind[P + 4 * r] * Q[c] + bind[P + 4 * r + 1] * Q[3 + c] + bind[P + 4 * r + 2] * Q[6 + c];
      bind[O + 4 * r + 3] = bind[P + 4 * r] * Q[9] + bind[P + 4 * r + 1] * Q[10] + bind[P + 4 * r + 2] * Q[11] + bind[P + 4 * r + 3];
    }
    placed[to] = 1;
  }
}

/**
 * The rotation R (row-major) best taking centred points a onto centred points b (max Σ w bᵀ R a), from
 * S = Σ w a bᵀ: the unit quaternion of the largest eigenvalue of Horn's symmetric 4×4, found by power iteration
 * started at the bone's current rotation (shifted so the iteration finds the largest, not the largest in magnitude).
 */
function hornRotation(S: number[], current: Float32Array, m: number): number[] {
  const [xx, xy, xz, yx, yy, yz, zx, zy, zz] = S;
  const N = [
    [xx + yy + zz, yz - zy, zx - xz, xy - yx],
    [yz - zy, xx - yy - zz, xy + yx, zx + xz],
    [zx - xz, xy + yx, -xx + yy - zz, yz + zy],
    [xy - yx, zx + xz, yz + zy, -xx - yy + zz],
  ];
  const shift = Math.abs(xx) + Math.abs(xy) + Math.abs(xz) + Math.abs(yx) + Math.abs(yy) + Math.abs(yz) + Math.abs(zx) + Math.abs(zy) + Math.abs(zz);
  // the current rotation as (w, x, y, z): columns of the engine matrix are the local axes
  const cur = quatOfRows(current, m);
  let q = [cur[3], cur[0], cur[1], cur[2]];
  for (let it = 0; it < 200; it++) {
    const n = [0, 1, 2, 3].map((r) => N[r][0] * q[0] + N[r][1] * q[1] + N[r][2] * q[2] + N[r][3] * q[3] + shift * q[r]);
    const len = Math.hypot(n[0], n[1], n[2], n[3]);
    if (!(len > 0)) break;
    q = n.map((x) => x / len);
  }
  const [w, x, y, z] = q;
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
}

function quatOfRows(mat: Float32Array, m: number): number[] {
  const col = (c: number) => [mat[m + c], mat[m + 4 + c], mat[m + 8 + c]];
  return quatFromBasis(col(0), col(1), col(2));
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
export function wolfInfluences(d: WolfDrawable): { joints: Uint16Array; weights: Float32Array; dropped: { vertices: number; maxWeight: number }; unweighted: number } {
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

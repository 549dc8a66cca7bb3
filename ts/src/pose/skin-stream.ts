/**
 * Load-time preparation of an md5mesh for the skinning kernels: every mesh's vertices in file order, one
 * after another, each followed by its own weights (shared weights are repeated), pre-scaled so the kernels
 * do no bias multiply. Normals follow the MD5 format document's "weight normals": bind-pose vertex normals
 * (area-weighted face normals) are turned into each weight's joint space once; per frame the joints rotate
 * them back.
 */
import type { Md5Mesh } from '../model.js';
import { POSE_STRIDE, WEIGHT_STRIDE } from './layout.js';
import { poseMatrices, skinPositions } from './ts-kernels.js';

export interface Md5SkinStream {
  jointCount: number;
  /** All meshes' vertices. */
  vertexCount: number;
  /** Weights in the stream (Σ of per-vertex counts). */
  weightTotal: number;
  /** Mesh m's vertices are [meshVertexStart[m], meshVertexStart[m+1]) in the outputs. */
  meshVertexStart: Uint32Array;
  /** Weights per vertex. */
  counts: Uint32Array;
  /** Joint of each stream weight. */
  joints: Uint32Array;
  /** `x·b y·b z·b b` per stream weight. */
  weights: Float32Array;
  /** `nx·b ny·b nz·b 0` per stream weight (the bind normal in the joint's space). */
  normalWeights: Float32Array;
}

/** Mesh joints (object-space bind pose) as a kernel pose: 8 floats per joint. */
export function bindPose(mesh: Md5Mesh): Float32Array {
  const { count, positions, orientations } = mesh.joints;
  const pose = new Float32Array(count * POSE_STRIDE);
  for (let j = 0; j < count; j++) {
    pose.set(positions.subarray(j * 3, j * 3 + 3), j * POSE_STRIDE);
    pose.set(orientations.subarray(j * 4, j * 4 + 4), j * POSE_STRIDE + 4);
  }
  return pose;
}

export function buildSkinStream(mesh: Md5Mesh): Md5SkinStream {
  let vertexCount = 0;
  let weightTotal = 0;
  const meshVertexStart = new Uint32Array(mesh.meshes.length + 1);
  mesh.meshes.forEach((m, i) => {
    meshVertexStart[i] = vertexCount;
    vertexCount += m.vertexCount;
    for (let v = 0; v < m.vertexCount; v++) weightTotal += m.weightCount[v];
  });
  meshVertexStart[mesh.meshes.length] = vertexCount;

  const counts = new Uint32Array(vertexCount);
  const joints = new Uint32Array(weightTotal);
  const weights = new Float32Array(weightTotal * WEIGHT_STRIDE);
  let v0 = 0;
  let k = 0;
  for (const m of mesh.meshes) {
    for (let v = 0; v < m.vertexCount; v++) {
      const start = m.weightStart[v];
      const n = m.weightCount[v];
      counts[v0 + v] = n;
      for (let w = start; w < start + n; w++, k++) {
        const b = m.weightBiases[w];
        joints[k] = m.weightJoints[w];
        weights[k * 4] = m.weightPositions[w * 3] * b;
        weights[k * 4 + 1] = m.weightPositions[w * 3 + 1] * b;
        weights[k * 4 + 2] = m.weightPositions[w * 3 + 2] * b;
        weights[k * 4 + 3] = b;
      }
    }
    v0 += m.vertexCount;
  }

  const stream: Md5SkinStream = {
    jointCount: mesh.joints.count,
    vertexCount,
    weightTotal,
    meshVertexStart,
    counts,
    joints,
    weights,
    normalWeights: new Float32Array(weightTotal * WEIGHT_STRIDE),
  };
  fillNormalWeights(mesh, stream);
  return stream;
}

function fillNormalWeights(mesh: Md5Mesh, s: Md5SkinStream): void {
  const matrices = new Float32Array(mesh.joints.count * 16);
  poseMatrices(bindPose(mesh), matrices);
  const pos = new Float32Array(s.vertexCount * 3);
  skinPositions(matrices, s.counts, s.joints, s.weights, pos);

  const normals = new Float64Array(s.vertexCount * 3);
  mesh.meshes.forEach((m, i) => {
    const base = s.meshVertexStart[i];
    const tri = m.triangles;
    for (let t = 0; t < m.triangleCount; t++) {
      const a = (base + tri[t * 3]) * 3, b = (base + tri[t * 3 + 1]) * 3, c = (base + tri[t * 3 + 2]) * 3;
      const e1x = pos[b] - pos[a], e1y = pos[b + 1] - pos[a + 1], e1z = pos[b + 2] - pos[a + 2];
      const e2x = pos[c] - pos[a], e2y = pos[c + 1] - pos[a + 1], e2z = pos[c + 2] - pos[a + 2];
      // MD5 triangles are wound clockwise seen from the front (Doom 3's convention), hence e2 × e1:
      // the cross product's length is twice the area, so the sum is area-weighted.
      const nx = e2y * e1z - e2z * e1y, ny = e2z * e1x - e2x * e1z, nz = e2x * e1y - e2y * e1x;
      for (const v of [a, b, c]) {
        normals[v] += nx;
        normals[v + 1] += ny;
        normals[v + 2] += nz;
      }
    }
  });

  const q = mesh.joints.orientations;
  let k = 0;
  for (let v = 0; v < s.vertexCount; v++) {
    let nx = normals[v * 3], ny = normals[v * 3 + 1], nz = normals[v * 3 + 2];
    const len = Math.hypot(nx, ny, nz);
    if (len > 0) {
      nx /= len; ny /= len; nz /= len;
    }
    for (let end = k + s.counts[v]; k < end; k++) {
      const j = s.joints[k] * 4;
      // rotate by the conjugate (inverse) of the joint's bind orientation: object → joint space
      const x = -q[j], y = -q[j + 1], z = -q[j + 2], w = q[j + 3];
      const cx = 2 * (y * nz - z * ny), cy = 2 * (z * nx - x * nz), cz = 2 * (x * ny - y * nx);
      const b = s.weights[k * 4 + 3];
      s.normalWeights[k * 4] = (nx + w * cx + (y * cz - z * cy)) * b;
      s.normalWeights[k * 4 + 1] = (ny + w * cy + (z * cx - x * cz)) * b;
      s.normalWeights[k * 4 + 2] = (nz + w * cz + (x * cy - y * cx)) * b;
      s.normalWeights[k * 4 + 3] = 0;
    }
  }
}

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
  /** Weights in the stream (shared weights repeated per vertex). */
  weightTotal: number;
  /** Mesh m's vertices are [meshVertexStart[m], meshVertexStart[m+1]) in file-order outputs. */
  meshVertexStart: Uint32Array;
  /** `groupSizes[c − 1]` = number of vertices with c weights; the stream holds those groups in order. */
  groupSizes: Uint32Array;
  /** Stream (grouped) vertex i is file vertex `streamToFile[i]` (global across meshes, file order inside a group). */
  streamToFile: Uint32Array;
  /** The inverse: file vertex v is stream vertex `fileToStream[v]`. */
  fileToStream: Uint32Array;
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
  let maxCount = 0;
  const meshVertexStart = new Uint32Array(mesh.meshes.length + 1);
  mesh.meshes.forEach((m, i) => {
    meshVertexStart[i] = vertexCount;
    vertexCount += m.vertexCount;
    for (let v = 0; v < m.vertexCount; v++) {
      weightTotal += m.weightCount[v];
      maxCount = Math.max(maxCount, m.weightCount[v]);
    }
  });
  meshVertexStart[mesh.meshes.length] = vertexCount;

  // Counting sort of the vertices by weight count (stable: file order inside each group).
  const groupSizes = new Uint32Array(maxCount);
  mesh.meshes.forEach((m) => {
    for (let v = 0; v < m.vertexCount; v++) groupSizes[m.weightCount[v] - 1]++;
  });
  const nextVertex = new Uint32Array(maxCount);
  const nextWeight = new Uint32Array(maxCount);
  for (let g = 1; g < maxCount; g++) {
    nextVertex[g] = nextVertex[g - 1] + groupSizes[g - 1];
    nextWeight[g] = nextWeight[g - 1] + groupSizes[g - 1] * g;
  }
  const streamToFile = new Uint32Array(vertexCount);
  const fileToStream = new Uint32Array(vertexCount);
  const joints = new Uint32Array(weightTotal);
  const weights = new Float32Array(weightTotal * WEIGHT_STRIDE);
  let file = 0;
  for (const m of mesh.meshes) {
    for (let v = 0; v < m.vertexCount; v++, file++) {
      const n = m.weightCount[v];
      const i = nextVertex[n - 1]++;
      streamToFile[i] = file;
      fileToStream[file] = i;
      let k = nextWeight[n - 1];
      nextWeight[n - 1] += n;
      for (let w = m.weightStart[v]; w < m.weightStart[v] + n; w++, k++) {
        const b = m.weightBiases[w];
        joints[k] = m.weightJoints[w];
        weights[k * 4] = m.weightPositions[w * 3] * b;
        weights[k * 4 + 1] = m.weightPositions[w * 3 + 1] * b;
        weights[k * 4 + 2] = m.weightPositions[w * 3 + 2] * b;
        weights[k * 4 + 3] = b;
      }
    }
  }

  const stream: Md5SkinStream = {
    jointCount: mesh.joints.count,
    vertexCount,
    weightTotal,
    meshVertexStart,
    groupSizes,
    streamToFile,
    fileToStream,
    joints,
    weights,
    normalWeights: new Float32Array(weightTotal * WEIGHT_STRIDE),
  };
  fillNormalWeights(mesh, stream);
  return stream;
}

/** Triangles of all meshes as one index buffer over grouped-order outputs (a poser built with order 'grouped'). */
export function groupedTriangles(mesh: Md5Mesh, stream: Md5SkinStream): Uint32Array {
  const total = mesh.meshes.reduce((n, m) => n + m.triangleCount * 3, 0);
  const out = new Uint32Array(total);
  let o = 0;
  mesh.meshes.forEach((m, i) => {
    const base = stream.meshVertexStart[i];
    for (let t = 0; t < m.triangleCount * 3; t++) out[o++] = stream.fileToStream[base + m.triangles[t]];
  });
  return out;
}

function fillNormalWeights(mesh: Md5Mesh, s: Md5SkinStream): void {
  const matrices = new Float32Array(mesh.joints.count * 16);
  poseMatrices(bindPose(mesh), matrices);
  const pos = new Float32Array(s.vertexCount * 3);
  skinPositions(matrices, s.groupSizes, s.joints, s.weights, s.streamToFile, pos);

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
  let i = 0;
  for (let g = 0; g < s.groupSizes.length; g++) {
    for (const groupEnd = i + s.groupSizes[g]; i < groupEnd; i++) {
      const v = s.streamToFile[i];
      let nx = normals[v * 3], ny = normals[v * 3 + 1], nz = normals[v * 3 + 2];
      const len = Math.hypot(nx, ny, nz);
      if (len > 0) {
        nx /= len; ny /= len; nz /= len;
      }
      for (const end = k + g + 1; k < end; k++) {
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
}

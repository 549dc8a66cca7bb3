/**
 * Load-time preparation of an md5mesh for the skinning kernels: every mesh's vertices in file order, one
 * after another, each followed by its own weights (shared weights are repeated), pre-scaled so the kernels
 * do no bias multiply. Normals follow the MD5 format document's "weight normals": bind-pose vertex normals
 * (area-weighted face normals) are turned into each weight's joint space once; per frame the joints rotate
 * them back. Tangents the same way: bind-pose tangents from the triangles' texture-coordinate gradients
 * (+u direction, made orthogonal to the normal), turned into joint space once, skinned by the normal kernel.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import type { Md5Mesh } from '../base/model.js';
import { MATRIX_STRIDE, POSE_STRIDE, WEIGHT_STRIDE } from '../kernels/layout.js';
import type { PoseBackend } from '../kernels/backend.js';
import { createTsBackend } from '../kernels/ts-backend.js';

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

/**
 * Tangents for a skin stream, built only when a poser asks for them (`buildTangentStream`): they cost as much
 * memory as the normal weights and a second pass over the triangles.
 */
export interface Md5TangentStream {
  /** `tx·b ty·b tz·b 0` per stream weight (the bind tangent, along +u, in the joint's space). */
  tangentWeights: Float32Array;
  /**
   * Per file-order vertex, the bitangent's handedness: bitangent = sign · (normal × tangent) points along +v as
   * stored in the file (Doom 3's v grows downward). Joint rotations keep it, so it holds for every pose.
   */
  tangentSigns: Float32Array;
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

/** How many times over the vertices may reference the declared weights (see the check in `buildSkinStream`). */
export const STREAM_WEIGHT_FACTOR = 4;

/**
 * The skin stream of `mesh`. The bind positions its normals are built from are skinned by `backend`'s kernels
 * (default a TS backend: the stream, and so every poser sharing it, is then the same whatever backend poses it).
 */
export function buildSkinStream(mesh: Md5Mesh, backend?: PoseBackend): Md5SkinStream {
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
  // Each vertex gets its own copy of its weights, so a file whose vertices all share one long weight run would
  // make this stream grow with vertices × weights (a 108 KB file asked for 352 MB). Real files reference each
  // weight about once (at most 2× the larger of their vertex and weight counts); allow 4× and refuse the rest.
  const declared = mesh.meshes.reduce((n, m) => n + Math.max(m.vertexCount, m.weightTotal), 0);
  if (weightTotal > STREAM_WEIGHT_FACTOR * declared) {
    throw new ModelParseError(ErrorCode.BadCount, `the vertices reference ${weightTotal} weights in total, more than ${STREAM_WEIGHT_FACTOR}× the larger of each mesh's vertex and weight counts (${declared})`, { offset: 0 });
  }

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
  toJointSpace(mesh, stream, bindNormals(mesh, stream, bindPositions(mesh, stream, backend)), stream.normalWeights);
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

/** Bind-pose positions of every vertex in file order: the stream skinned by the mesh's own joints, on a backend. */
function bindPositions(mesh: Md5Mesh, s: Md5SkinStream, given?: PoseBackend): Float32Array {
  const backend = given ?? createTsBackend();
  const m = backend.memory;
  const bind = m.f32(mesh.joints.count * POSE_STRIDE);
  const matrices = m.f32(mesh.joints.count * MATRIX_STRIDE);
  const groupSizes = m.u32(s.groupSizes.length);
  const joints = m.u32(s.joints.length);
  const weights = m.f32(s.weights.length);
  const dest = m.u32(s.streamToFile.length);
  const out = m.f32(s.vertexCount * 3);
  const all = [bind, matrices, groupSizes, joints, weights, dest, out];
  try {
    bind.view.set(bindPose(mesh));
    groupSizes.view.set(s.groupSizes);
    joints.view.set(s.joints);
    weights.view.set(s.weights);
    dest.view.set(s.streamToFile);
    backend.kernels.poseMatrices({ object: bind, out: matrices });
    backend.kernels.skinPositions({ matrices, groupSizes, joints, weights, dest, out });
    return out.view.slice();
  } finally {
    if (given) for (const b of all) m.release(b);
    else backend.dispose();
  }
}

/** Unit bind normals in file order: area-weighted face normals (zero where a vertex has no area). */
function bindNormals(mesh: Md5Mesh, s: Md5SkinStream, pos: Float32Array): Float64Array {
  const normals = new Float64Array(s.vertexCount * 3);
  forEachTriangle(mesh, s, pos, (a, b, c, e1x, e1y, e1z, e2x, e2y, e2z) => {
    // MD5 triangles are wound clockwise seen from the front (Doom 3's convention), hence e2 × e1:
    // the cross product's length is twice the area, so the sum is area-weighted.
    const nx = e2y * e1z - e2z * e1y, ny = e2z * e1x - e2x * e1z, nz = e2x * e1y - e2y * e1x;
    for (const v of [a, b, c]) {
      normals[v] += nx; normals[v + 1] += ny; normals[v + 2] += nz;
    }
  });
  for (let o = 0; o < normals.length; o += 3) normalize(normals, o);
  return normals;
}

/** Calls `f` per triangle with its corners' offsets into `pos` (file order) and its two edge vectors. */
function forEachTriangle(
  mesh: Md5Mesh, s: Md5SkinStream, pos: Float32Array,
  f: (a: number, b: number, c: number, e1x: number, e1y: number, e1z: number, e2x: number, e2y: number, e2z: number, mesh: number, t: number) => void,
): void {
  mesh.meshes.forEach((m, i) => {
    const base = s.meshVertexStart[i];
    const tri = m.triangles;
    for (let t = 0; t < m.triangleCount; t++) {
      const a = (base + tri[t * 3]) * 3, b = (base + tri[t * 3 + 1]) * 3, c = (base + tri[t * 3 + 2]) * 3;
      f(a, b, c, pos[b] - pos[a], pos[b + 1] - pos[a + 1], pos[b + 2] - pos[a + 2], pos[c] - pos[a], pos[c + 1] - pos[a + 1], pos[c + 2] - pos[a + 2], i, t);
    }
  });
}

/**
 * Bind tangents for `stream`: per vertex the area-weighted +u gradient of its triangles, made orthogonal to the
 * bind normal, turned into each weight's joint space (skinned by the normal kernel), plus the handedness sign.
 */
export function buildTangentStream(mesh: Md5Mesh, s: Md5SkinStream, backend?: PoseBackend): Md5TangentStream {
  const pos = bindPositions(mesh, s, backend);
  const normals = bindNormals(mesh, s, pos);
  const tangents = new Float64Array(s.vertexCount * 3);
  const bitangents = new Float64Array(s.vertexCount * 3);
  forEachTriangle(mesh, s, pos, (a, b, c, e1x, e1y, e1z, e2x, e2y, e2z, mi, t) => {
    const m = mesh.meshes[mi], uv = m.uvs;
    const ia = m.triangles[t * 3], ib = m.triangles[t * 3 + 1], ic = m.triangles[t * 3 + 2];
    // Texture gradients: e1 = du1·T + dv1·B, e2 = du2·T + dv2·B. Solving without dividing by the
    // determinant keeps the sum area-weighted; its sign keeps the direction.
    const du1 = uv[ib * 2] - uv[ia * 2], dv1 = uv[ib * 2 + 1] - uv[ia * 2 + 1];
    const du2 = uv[ic * 2] - uv[ia * 2], dv2 = uv[ic * 2 + 1] - uv[ia * 2 + 1];
    const r = Math.sign(du1 * dv2 - du2 * dv1);
    const tx = (e1x * dv2 - e2x * dv1) * r, ty = (e1y * dv2 - e2y * dv1) * r, tz = (e1z * dv2 - e2z * dv1) * r;
    const bx = (e2x * du1 - e1x * du2) * r, by = (e2y * du1 - e1y * du2) * r, bz = (e2z * du1 - e1z * du2) * r;
    for (const v of [a, b, c]) {
      tangents[v] += tx; tangents[v + 1] += ty; tangents[v + 2] += tz;
      bitangents[v] += bx; bitangents[v + 1] += by; bitangents[v + 2] += bz;
    }
  });
  const tangentSigns = new Float32Array(s.vertexCount);
  for (let v = 0; v < s.vertexCount; v++) {
    const o = v * 3;
    const n = [normals[o], normals[o + 1], normals[o + 2]];
    // Gram–Schmidt: the tangent's part along the normal removed; a degenerate tangent (no UV gradient)
    // becomes any unit vector orthogonal to the normal, so skinned tangents are always unit and orthogonal.
    const d = tangents[o] * n[0] + tangents[o + 1] * n[1] + tangents[o + 2] * n[2];
    tangents[o] -= d * n[0]; tangents[o + 1] -= d * n[1]; tangents[o + 2] -= d * n[2];
    if (Math.hypot(tangents[o], tangents[o + 1], tangents[o + 2]) < 1e-12) {
      const ax = Math.abs(n[0]) < 0.9 ? 1 : 0, ay = 1 - ax; // a helper axis not parallel to n
      tangents[o] = -n[2] * ay; tangents[o + 1] = n[2] * ax; tangents[o + 2] = n[0] * ay - n[1] * ax; // n × (ax, ay, 0)
    }
    const t = normalize(tangents, o);
    const cx = n[1] * t[2] - n[2] * t[1], cy = n[2] * t[0] - n[0] * t[2], cz = n[0] * t[1] - n[1] * t[0];
    tangentSigns[v] = cx * bitangents[o] + cy * bitangents[o + 1] + cz * bitangents[o + 2] < 0 ? -1 : 1;
  }
  const tangentWeights = new Float32Array(s.weightTotal * WEIGHT_STRIDE);
  toJointSpace(mesh, s, tangents, tangentWeights);
  return { tangentWeights, tangentSigns };
}

/** Normalises the vector at `o` in place (left as is when zero) and returns it. */
function normalize(v: Float64Array, o: number): [number, number, number] {
  const len = Math.hypot(v[o], v[o + 1], v[o + 2]);
  if (len > 0) {
    v[o] /= len; v[o + 1] /= len; v[o + 2] /= len;
  }
  return [v[o], v[o + 1], v[o + 2]];
}

/** Per stream weight: the file-order unit vector rotated into the weight's joint space, times the bias, w = 0. */
function toJointSpace(mesh: Md5Mesh, s: Md5SkinStream, vectors: Float64Array, out: Float32Array): void {
  const q = mesh.joints.orientations;
  let k = 0;
  let i = 0;
  for (let g = 0; g < s.groupSizes.length; g++) {
    for (const groupEnd = i + s.groupSizes[g]; i < groupEnd; i++) {
      const v = s.streamToFile[i];
      const nx = vectors[v * 3], ny = vectors[v * 3 + 1], nz = vectors[v * 3 + 2];
      for (const end = k + g + 1; k < end; k++) {
        const j = s.joints[k] * 4;
        // rotate by the conjugate (inverse) of the joint's bind orientation: object → joint space
        const x = -q[j], y = -q[j + 1], z = -q[j + 2], w = q[j + 3];
        const cx = 2 * (y * nz - z * ny), cy = 2 * (z * nx - x * nz), cz = 2 * (x * ny - y * nx);
        const b = s.weights[k * 4 + 3];
        out[k * 4] = (nx + w * cx + (y * cz - z * cy)) * b;
        out[k * 4 + 1] = (ny + w * cy + (z * cx - x * cz)) * b;
        out[k * 4 + 2] = (nz + w * cz + (x * cy - y * cx)) * b;
        out[k * 4 + 3] = 0;
      }
    }
  }
}

/**
 * MD3 surfaces cut to what ioquake3 draws. R_LoadMD3 refuses a model with a surface of `numVerts >=
 * SHADER_MAX_VERTEXES` (1000) or `numTriangles * 3 >= SHADER_MAX_INDEXES` (6000): the tessellator's buffers. The
 * format itself holds 4096 vertices and 8192 triangles a surface, so glTF meshes come out past the engine's limit
 * often (CesiumMan: 3273 vertices in one surface). A surface is a draw call with one shader, so it can be cut into
 * several with the same shader and frames, and the engine draws the same triangles.
 *
 * The pieces keep the surface's name: Quake 3 `.skin` files map surface names to shaders (R_AddMD3Surfaces matches
 * every surface by name), so `h_head` cut in three still takes the skin's `h_head` line.
 */
import type { Md3Model, Md3Surface } from '../../base/model.js';
import { MD3_LIMITS } from './limits.js';

export interface Md3SplitLimits {
  /** Most vertices a piece may have (default 999: SHADER_MAX_VERTEXES − 1). */
  maxVertices?: number;
  /** Most triangles a piece may have (default 1999: the largest n with 3n < SHADER_MAX_INDEXES). */
  maxTriangles?: number;
}

/**
 * `surface` as pieces within the limits (the surface itself when it fits). Each piece grows over connected
 * triangles (those sharing a vertex with it, breadth first from the first triangle not yet placed), so few vertices
 * are repeated at the cuts; when its neighbourhood is used up it takes the next unplaced triangles in file order
 * that fit. Inside a piece the triangles keep their file order.
 */
export function splitMd3Surface(surface: Md3Surface, frameCount: number, limits: Md3SplitLimits = {}): Md3Surface[] {
  const maxV = limits.maxVertices ?? MD3_LIMITS.shaderMaxVertexes - 1;
  const maxT = limits.maxTriangles ?? Math.floor((MD3_LIMITS.shaderMaxIndexes - 1) / 3);
  if (!(maxV >= 3) || !(maxT >= 1)) throw new RangeError(`split limits must allow a triangle (vertices ≥ 3, triangles ≥ 1), not ${maxV} and ${maxT}`);
  if (surface.vertexCount <= maxV && surface.triangleCount <= maxT) return [surface];

  const T = surface.triangleCount;
  const tri = surface.triangles;
  // triangles of each vertex (CSR)
  const first = new Uint32Array(surface.vertexCount + 1);
  for (let k = 0; k < 3 * T; k++) first[tri[k] + 1]++;
  for (let v = 0; v < surface.vertexCount; v++) first[v + 1] += first[v];
  const fill = first.slice(0, surface.vertexCount);
  const around = new Uint32Array(3 * T);
  for (let k = 0; k < 3 * T; k++) around[fill[tri[k]]++] = Math.floor(k / 3);

  const placed = new Uint8Array(T);
  const inPiece = new Int32Array(surface.vertexCount).fill(-1); // piece number that holds the vertex
  const pieces: Md3Surface[] = [];
  let nextInOrder = 0;
  for (let n = 0; nextInOrder < T; n++) {
    let vertices = 0;
    const members: number[] = [];
    const fresh = (t: number) => {
      let c = 0;
      for (let k = 0; k < 3; k++) {
        const v = tri[3 * t + k];
        if (inPiece[v] !== n && (k < 1 || v !== tri[3 * t]) && (k < 2 || v !== tri[3 * t + 1])) c++;
      }
      return c;
    };
    const take = (t: number) => {
      placed[t] = 1;
      members.push(t);
      for (let k = 0; k < 3; k++) {
        const v = tri[3 * t + k];
        if (inPiece[v] !== n) {
          inPiece[v] = n;
          vertices++;
        }
      }
    };
    const queue: number[] = [];
    let head = 0;
    for (let seed = nextInOrder; seed < T && members.length < maxT; seed++) {
      if (placed[seed] || vertices + fresh(seed) > maxV) continue;
      take(seed);
      queue.push(seed);
      while (head < queue.length && members.length < maxT) {
        const t = queue[head++];
        for (let k = 0; k < 3 && members.length < maxT; k++) {
          const v = tri[3 * t + k];
          for (let a = first[v]; a < first[v + 1] && members.length < maxT; a++) {
            const u = around[a];
            if (placed[u] || vertices + fresh(u) > maxV) continue;
            take(u);
            queue.push(u);
          }
        }
      }
      if (vertices + 1 > maxV) break; // no triangle can add a vertex any more
    }
    while (nextInOrder < T && placed[nextInOrder]) nextInOrder++;
    members.sort((a, b) => a - b);
    pieces.push(piece(surface, frameCount, members));
  }
  return pieces;
}

function piece(s: Md3Surface, frameCount: number, members: number[]): Md3Surface {
  const index = new Map<number, number>();
  const used: number[] = [];
  const tris: number[] = [];
  for (const t of members) {
    for (let k = 0; k < 3; k++) {
      const v = s.triangles[3 * t + k];
      let i = index.get(v);
      if (i === undefined) {
        i = used.length;
        index.set(v, i);
        used.push(v);
      }
      tris.push(i);
    }
  }
  const n = used.length;
  const st = new Float32Array(2 * n);
  const xyzNormals = new Int16Array(4 * n * frameCount);
  used.forEach((v, i) => {
    st[2 * i] = s.st[2 * v];
    st[2 * i + 1] = s.st[2 * v + 1];
  });
  for (let f = 0; f < frameCount; f++) {
    const from = 4 * s.vertexCount * f, to = 4 * n * f;
    used.forEach((v, i) => xyzNormals.set(s.xyzNormals.subarray(from + 4 * v, from + 4 * v + 4), to + 4 * i));
  }
  return {
    name: s.name,
    flags: s.flags,
    vertexCount: n,
    triangleCount: tris.length / 3,
    shaders: s.shaders.map((sh) => ({ ...sh })),
    triangles: Uint32Array.from(tris),
    st,
    xyzNormals,
  };
}

/**
 * `model` with every surface past ioquake3's tessellator limits cut into pieces that fit (`splitMd3Surface`); the
 * other surfaces, frames and tags as they are. More surfaces can then go past MD3_MAX_SURFACES (32), which
 * ioquake3 does not check (docs/limits.md).
 */
export function splitMd3Surfaces(model: Md3Model, limits: Md3SplitLimits = {}): Md3Model {
  const surfaces = model.surfaces.flatMap((s) => splitMd3Surface(s, model.frameCount, limits));
  return surfaces.length === model.surfaces.length ? model : { ...model, surfaces };
}

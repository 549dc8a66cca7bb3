/**
 * Geometry a GPU needs from a parsed MD2: texcoords normalised by the skin size, and the un-welded indexed form (MD2
 * triangles index positions and texcoords separately). Frame positions and normals come from `Md2Poser`.
 *
 * Coordinates stay in the file's Z-up space; texcoords keep the file's t-grows-downward convention (use 1 − v for
 * a bottom-up texture origin, as three.js does).
 */
import type { Md2Model } from '../../base/model.js';

/** The st table as texcoords: s / skinWidth, t / skinHeight, 2 floats per st. */
export function md2TexCoords(model: Md2Model): Float32Array {
  const uv = new Float32Array(model.stCount * 2);
  for (let i = 0; i < model.stCount; i++) {
    uv[i * 2] = model.st[i * 2] / model.skinWidth;
    uv[i * 2 + 1] = model.st[i * 2 + 1] / model.skinHeight;
  }
  return uv;
}

/** GPU-ready vertices: one per distinct (xyz, st) pair the triangles use. */
export interface Md2Unwelded {
  /** Per new vertex: the xyz index it takes its position and normal from (every frame). */
  sourceVertex: Uint16Array;
  /** Per new vertex: its st index. */
  sourceSt: Uint16Array;
  /** Per new vertex: u, v (normalised as {@link md2TexCoords}). */
  uvs: Float32Array;
  /** 3 new-vertex indices per triangle, in file order and winding. */
  indices: Uint16Array | Uint32Array;
}

/**
 * Un-welds the triangles: the distinct (xyz, st) pairs, numbered in order of first use (triangle by triangle, corner
 * by corner), so a pair shared by several triangles is one vertex. Frame positions for the GPU are then
 * `positions[sourceVertex[i]]` of any frame.
 */
export function md2Unwelded(model: Md2Model): Md2Unwelded {
  const corners = model.triangleCount * 3;
  // Open-addressing table keyed by xyz · 2^15 + st. Both are int16 indices in the file, checked non-negative, so each
  // is below 2^15 and the key below 2^30: exact in an int32 whatever num_xyz and num_st declare (num_st has no limit;
  // xyz · num_st + st would wrap an int32 once num_st passes 2^20). Fibonacci hashing takes the product's high bits:
  // its low bits depend on the key's low bits (the st) alone.
  let bits = 4;
  while (2 ** bits < corners * 2) bits++;
  const cap = 1 << bits;
  const shift = 32 - bits;
  const keys = new Int32Array(cap).fill(-1);
  const slots = new Uint32Array(cap);
  const srcXyz = new Uint16Array(corners);
  const srcSt = new Uint16Array(corners);
  const indices = corners <= 0x10000 ? new Uint16Array(corners) : new Uint32Array(corners);
  const xyzOf = model.trianglePositionIndices;
  const stOf = model.triangleStIndices;
  let count = 0;
  for (let c = 0; c < corners; c++) {
    const xyz = xyzOf[c];
    const st = stOf[c];
    const key = xyz * 0x8000 + st;
    let h = Math.imul(key, 0x9e3779b1) >>> shift;
    while (keys[h] !== -1 && keys[h] !== key) h = (h + 1) & (cap - 1);
    if (keys[h] === -1) {
      keys[h] = key;
      slots[h] = count;
      srcXyz[count] = xyz;
      srcSt[count] = st;
      count++;
    }
    indices[c] = slots[h];
  }
  const sourceVertex = srcXyz.slice(0, count);
  const sourceSt = srcSt.slice(0, count);
  const uvs = new Float32Array(count * 2);
  for (let i = 0; i < count; i++) {
    uvs[i * 2] = model.st[sourceSt[i] * 2] / model.skinWidth;
    uvs[i * 2 + 1] = model.st[sourceSt[i] * 2 + 1] / model.skinHeight;
  }
  return { sourceVertex, sourceSt, uvs, indices };
}

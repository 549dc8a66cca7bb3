/**
 * A surface's triangles at a level of detail, as RB_SurfaceAnim draws them: the first `count` vertices are kept
 * (never fewer than the surface's minLod), each later vertex takes the place its collapse map names (an earlier
 * vertex's, itself collapsed in turn), and a triangle two of whose corners fall on one vertex is dropped. The
 * readers refuse a map naming a later vertex, so one pass in order resolves every collapse.
 */
export interface LodSurface {
  vertexCount: number;
  minLod: number;
  triangles: Uint32Array;
  collapseMap: Int32Array;
}

/** How many vertices the engine draws for a LOD fraction (R_CalcMDSLod's 0..1), as RB_SurfaceAnim rounds and clamps it. */
export function lodVertexCount(surface: LodSurface, lod: number): number {
  const n = Math.round(surface.vertexCount * Math.min(1, Math.max(0, lod)));
  return Math.min(surface.vertexCount, Math.max(n, surface.minLod));
}

/** The triangles drawn with the first `count` vertices kept (indices into them). */
export function lodTriangles(surface: LodSurface, count: number): Uint32Array {
  const V = surface.vertexCount;
  if (count >= V) return surface.triangles.slice();
  const collapse = new Int32Array(V);
  for (let j = 0; j < V; j++) collapse[j] = j < count ? j : collapse[surface.collapseMap[j]];
  const out: number[] = [];
  const t = surface.triangles;
  for (let k = 0; k < t.length; k += 3) {
    const a = collapse[t[k]], b = collapse[t[k + 1]], c = collapse[t[k + 2]];
    if (a === b || b === c || c === a) continue;
    out.push(a, b, c);
  }
  return Uint32Array.from(out);
}

/**
 * What is drawn of a studio model: one submodel of each body part (StudioSetupModel: `(body / base) % nummodels`;
 * body 0 by default), each mesh's unrolled triangles made into draw vertices — a corner is a vertex, a normal and
 * texel coordinates, and corners that share all three share a draw vertex (within a mesh: meshes have their own
 * textures). Each draw vertex keeps its bone-local position and normal and the bones they move with: what the
 * skinning kernels bind rigidly (one bone, weight 1).
 */
import type { GoldsrcModel } from './model.js';

export interface GoldsrcDrawMesh {
  /** `part.submodel.mesh`, or the submodel's name with the mesh's index. */
  name: string;
  bodyPart: number;
  submodel: number;
  skinRef: number;
  /** Into `indices`. */
  firstIndex: number;
  indexCount: number;
}

export interface GoldsrcDraw {
  vertexCount: number;
  /** The bone each draw vertex's position moves with, and its bone-local position as `x y z 1` (WEIGHT_STRIDE). */
  vertexBones: Uint32Array;
  positionWeights: Float32Array;
  /** The same for its normal: `nx ny nz 0`. */
  normalBones: Uint32Array;
  normalWeights: Float32Array;
  /** Texel coordinates (s, t) of each draw vertex. */
  texels: Float32Array;
  /** Triangles as GL draws them (strip and fan order). */
  indices: Uint32Array;
  meshes: GoldsrcDrawMesh[];
}

/** The submodel of each body part that `body` selects (Half-Life's StudioSetupModel). */
export function submodelsOf(model: GoldsrcModel, body = 0): number[] {
  return model.bodyParts.map((p) => (p.models.length ? Math.floor(body / Math.max(1, p.base)) % p.models.length : -1));
}

export function goldsrcDraw(model: GoldsrcModel, body = 0): GoldsrcDraw {
  const chosen = submodelsOf(model, body);
  let corners = 0;
  model.bodyParts.forEach((p, i) => {
    if (chosen[i] >= 0) for (const m of p.models[chosen[i]].meshes) corners += m.corners.length / 4;
  });
  // the index per corner; the draw vertices grow as they are found (corners that share one cost it once: a mesh of
  // fans over one vertex is many corners and few vertices)
  const indices = new Uint32Array(corners);
  let cap = Math.min(corners, 1024);
  let vb = new Uint32Array(cap), nb = new Uint32Array(cap);
  let pw = new Float32Array(cap * 4), nw = new Float32Array(cap * 4), st = new Float32Array(cap * 2);
  const grow = () => {
    cap *= 2;
    const more = <T extends Uint32Array | Float32Array>(a: T, n: number): T => {
      const b = new (a.constructor as new (n: number) => T)(cap * n);
      b.set(a);
      return b;
    };
    [vb, nb, pw, nw, st] = [more(vb, 1), more(nb, 1), more(pw, 4), more(nw, 4), more(st, 2)];
  };
  const meshes: GoldsrcDrawMesh[] = [];
  let V = 0, I = 0;
  model.bodyParts.forEach((part, p) => {
    const k = chosen[p];
    if (k < 0) return;
    const sub = part.models[k];
    sub.meshes.forEach((mesh, j) => {
      const first = I;
      const seen = new Map<string, number>();
      const c = mesh.corners;
      for (let o = 0; o < c.length; o += 4) {
        const key = `${c[o]},${c[o + 1]},${c[o + 2]},${c[o + 3]}`;
        let d = seen.get(key);
        if (d === undefined) {
          if (V === cap) grow();
          d = V++;
          seen.set(key, d);
          const v = c[o], n = c[o + 1];
          vb[d] = sub.vertexBones[v];
          pw.set([sub.vertices[v * 3], sub.vertices[v * 3 + 1], sub.vertices[v * 3 + 2], 1], d * 4);
          nb[d] = sub.normalBones[n];
          nw.set([sub.normals[n * 3], sub.normals[n * 3 + 1], sub.normals[n * 3 + 2], 0], d * 4);
          st[d * 2] = c[o + 2];
          st[d * 2 + 1] = c[o + 3];
        }
        indices[I++] = d;
      }
      meshes.push({ name: `${part.name || `part${p}`}/${sub.name || `model${k}`}/${j}`, bodyPart: p, submodel: k, skinRef: mesh.skinRef, firstIndex: first, indexCount: I - first });
    });
  });
  return {
    vertexCount: V,
    vertexBones: vb.slice(0, V),
    positionWeights: pw.slice(0, V * 4),
    normalBones: nb.slice(0, V),
    normalWeights: nw.slice(0, V * 4),
    texels: st.slice(0, V * 2),
    indices,
    meshes,
  };
}

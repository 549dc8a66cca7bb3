/**
 * What a GPU draws from a parsed MDL: the vertices the engine's GL renderer builds, with the onseam rule applied.
 *
 * Quake's skins hold the model's front on their left half and its back on the right, and the two halves share the
 * st vertices along the seam; a vertex on the seam (`onseam` non-zero) used by a triangle facing backwards
 * (`facesfront` 0) takes the back half's texel: s + skinwidth / 2. QuakeSpasm's
 * GL_MakeAliasModelDisplayLists_VBO (gl_mesh.c; Ironwail's is the same) builds one vertex per (vertex, shifted)
 * pair in order of first use, triangle by triangle, corner by corner, and gives it the texture coordinate
 * ((s + shift) + 0.5) / skinwidth, (t + 0.5) / skinheight (GLQuake's BuildTris the same, + 0.5 included). This
 * does exactly that; Hexen II's RAPO, whose triangles index st apart, adds the st index to the pair.
 *
 * Positions stay in the file's Z-up space, t grows downward (as in the file).
 */
import type { MdlModel } from '../../base/model.js';

export interface MdlDrawVertices {
  /** Per drawn vertex: the position (and normal) it takes from every pose. */
  sourceVertex: Uint16Array;
  /** Per drawn vertex: its st index. */
  sourceSt: Uint16Array;
  /** Per drawn vertex: 1 where s was moved to the skin's back half (a backward triangle's seam vertex). */
  seamShifted: Uint8Array;
  /** Per drawn vertex: u, v. */
  uvs: Float32Array;
  /** 3 drawn-vertex indices per triangle, in file order and winding. */
  indices: Uint16Array | Uint32Array;
}

type Geometry = Pick<MdlModel, 'skinWidth' | 'skinHeight' | 'onseam' | 'st' | 'triangleCount' | 'facesFront' | 'triangleVertexIndices' | 'triangleStIndices'>;

/** The engine's drawn vertices and triangles (see the file comment). */
export function mdlDrawVertices(model: Geometry): MdlDrawVertices {
  const corners = model.triangleCount * 3;
  const slots = new Map<number, number>();
  const srcV: number[] = [], srcSt: number[] = [], shifted: number[] = [];
  const indices = corners < 0x10000 ? new Uint16Array(corners) : new Uint32Array(corners);
  for (let c = 0; c < corners; c++) {
    const v = model.triangleVertexIndices[c], s = model.triangleStIndices[c];
    const back = model.facesFront[(c / 3) | 0] === 0 && model.onseam[s] !== 0 ? 1 : 0;
    // (v, st, back) below 2^33: an exact key in a double.
    const key = (v * 0x10000 + s) * 2 + back;
    let slot = slots.get(key);
    if (slot === undefined) {
      slot = srcV.length;
      slots.set(key, slot);
      srcV.push(v);
      srcSt.push(s);
      shifted.push(back);
    }
    indices[c] = slot;
  }
  const n = srcV.length;
  const w = Math.max(1, model.skinWidth), h = Math.max(1, model.skinHeight);
  const half = Math.floor(model.skinWidth / 2);
  const uvs = new Float32Array(2 * n);
  for (let i = 0; i < n; i++) {
    uvs[2 * i] = (model.st[2 * srcSt[i]] + (shifted[i] ? half : 0) + 0.5) / w;
    uvs[2 * i + 1] = (model.st[2 * srcSt[i] + 1] + 0.5) / h;
  }
  return { sourceVertex: Uint16Array.from(srcV), sourceSt: Uint16Array.from(srcSt), seamShifted: Uint8Array.from(shifted), uvs, indices };
}

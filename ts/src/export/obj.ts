/**
 * Wavefront OBJ of a posed MD5 model: per mesh in file order an `o` line, then its vertices (`v`) in file
 * order, `vt`, `vn`, and `f v/vt/vn` lines.
 *
 * - Positions keep the file's own coordinates (id: Z up) unless `yUp` asks for (x, z, −y).
 * - `vt` is (u, 1 − t): Doom 3's t grows downward, OBJ's upward.
 * - MD5 triangles are clockwise seen from the front; OBJ wants counter-clockwise, so each face is written
 *   as (a, c, b).
 */
import type { Md5Mesh } from '../base/model.js';

export interface ObjOptions {
  /** Posed positions for all meshes, 3 floats per vertex (a poser's `positions`). */
  positions: Float32Array;
  /** Posed normals, same layout; omitted → no `vn` lines. */
  normals?: Float32Array;
  /** Rotate Z-up to Y-up: (x, y, z) → (x, z, −y). */
  yUp?: boolean;
  /** First line comment. */
  comment?: string;
  /** A material library (obj-material.ts): `mtllib` names its file, `usemtl` each surface's / mesh's material. */
  materials?: { file: string; nameFor(index: number): string | undefined };
}

/** A number for OBJ: 6 decimals, trailing zeros trimmed. */
export const fmt = (x: number): string => {
  if (x === 0) return '0';
  const s = x.toFixed(6);
  // trim trailing zeros, keep the number readable and exact to 1e-6
  return s.replace(/\.?0+$/, '') || '0';
};

/** A `v` or `vn` line, in Z-up file coordinates or rotated to Y-up. */
export function objVector(tag: 'v' | 'vn', a: ArrayLike<number>, i: number, yUp: boolean): string {
  const x = a[i], y = a[i + 1], z = a[i + 2];
  return yUp ? `${tag} ${fmt(x)} ${fmt(z)} ${fmt(-y)}` : `${tag} ${fmt(x)} ${fmt(y)} ${fmt(z)}`;
}

/** The opening comment lines every OBJ we write starts with. */
export function objHeader(options: Pick<ObjOptions, 'comment' | 'materials'>): string[] {
  const out: string[] = [];
  if (options.comment) out.push(`# ${options.comment.replace(/\n/g, ' ')}`);
  out.push('# written by idtech-models');
  if (options.materials) out.push(`mtllib ${options.materials.file}`);
  return out;
}

/** The `usemtl` line of surface / mesh `index`, when a material library names one. */
export function objUseMaterial(out: string[], options: Pick<ObjOptions, 'materials'>, index: number): void {
  const name = options.materials?.nameFor(index);
  if (name) out.push(`usemtl ${name}`);
}

/**
 * An `f` line for a triangle stored clockwise (all three id formats), written (a, c, b) — counter-clockwise, as OBJ
 * wants. 1-based indices shared by `v`, `vt` and (with normals) `vn`.
 */
export function objFace(a: number, b: number, c: number, withNormals: boolean): string {
  return withNormals ? `f ${a}/${a}/${a} ${c}/${c}/${c} ${b}/${b}/${b}` : `f ${a}/${a} ${c}/${c} ${b}/${b}`;
}

/** Returns the OBJ text. Vertex indices are global across meshes, as OBJ requires. */
export function toObj(mesh: Md5Mesh, options: ObjOptions): string {
  const { positions, normals, yUp = false } = options;
  const out = objHeader(options);
  let base = 0;
  mesh.meshes.forEach((m, i) => {
    const name = (m.name || m.shader.split('/').pop() || `mesh${i}`).replace(/\s+/g, '_');
    out.push(`o ${name || `mesh${i}`}`);
    if (m.shader) out.push(`# shader ${m.shader}`);
    objUseMaterial(out, options, i);
    for (let v = 0; v < m.vertexCount; v++) {
      out.push(objVector('v', positions, (base + v) * 3, yUp));
    }
    for (let v = 0; v < m.vertexCount; v++) out.push(`vt ${fmt(m.uvs[v * 2])} ${fmt(1 - m.uvs[v * 2 + 1])}`);
    if (normals) {
      for (let v = 0; v < m.vertexCount; v++) out.push(objVector('vn', normals, (base + v) * 3, yUp));
    }
    for (let t = 0; t < m.triangleCount; t++) {
      const a = base + m.triangles[t * 3] + 1, b = base + m.triangles[t * 3 + 1] + 1, c = base + m.triangles[t * 3 + 2] + 1;
      out.push(objFace(a, b, c, Boolean(normals)));
    }
    base += m.vertexCount;
  });
  out.push('');
  return out.join('\n');
}

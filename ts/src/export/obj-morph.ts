/**
 * Wavefront OBJ of one posed frame of an MD2 or MD3 (positions from `Md2Poser` / `Md3Poser`); an MDL's is
 * `obj-mdl.ts`.
 *
 * - MD2: the `num_xyz` positions in file order as `v`, the `num_st` texcoords as `vt`, and `f v/vt` — MD2
 *   triangles index positions and texcoords separately, which OBJ keeps as is.
 * - MD3: each surface as an `o` (named after the surface, its shader in a comment), its vertices in file
 *   order as `v`, `vt`, `vn`, and `f v/vt/vn`.
 * - Like MD5, both store triangles clockwise seen from the front (measured: the face normals of every real
 *   file oppose their vertex normals in (a, b, c) order), so faces are written (a, c, b) for OBJ.
 * - `vt` is (s, 1 − t): the files' t grows downward. Coordinates stay Z-up unless `yUp`.
 */
import type { Md2Model, Md3Model } from '../base/model.js';
import { fmt, objFace, objHeader, objUseMaterial, objVector, type ObjOptions } from './obj.js';

export function md2ToObj(model: Md2Model, options: ObjOptions): string {
  const { positions, yUp = false } = options;
  const out = objHeader(options);
  if (model.skins.length) out.push(`# skin ${model.skins[0].name}`);
  out.push('o md2');
  objUseMaterial(out, options, 0);
  for (let v = 0; v < model.vertexCount; v++) out.push(objVector('v', positions, v * 3, yUp));
  const w = model.skinWidth || 1, h = model.skinHeight || 1;
  for (let i = 0; i < model.stCount; i++) out.push(`vt ${fmt(model.st[i * 2] / w)} ${fmt(1 - model.st[i * 2 + 1] / h)}`);
  const p = model.trianglePositionIndices, s = model.triangleStIndices;
  for (let t = 0; t < model.triangleCount * 3; t += 3) {
    out.push(`f ${p[t] + 1}/${s[t] + 1} ${p[t + 2] + 1}/${s[t + 2] + 1} ${p[t + 1] + 1}/${s[t + 1] + 1}`);
  }
  out.push('');
  return out.join('\n');
}

export function md3ToObj(model: Md3Model, options: ObjOptions): string {
  const { positions, normals, yUp = false } = options;
  const out = objHeader(options);
  let base = 0;
  model.surfaces.forEach((surface, i) => {
    out.push(`o ${(surface.name || `surface${i}`).replace(/\s+/g, '_')}`);
    for (const sh of surface.shaders) out.push(`# shader ${sh.name}`);
    objUseMaterial(out, options, i);
    for (let v = 0; v < surface.vertexCount; v++) out.push(objVector('v', positions, (base + v) * 3, yUp));
    for (let v = 0; v < surface.vertexCount; v++) out.push(`vt ${fmt(surface.st[v * 2])} ${fmt(1 - surface.st[v * 2 + 1])}`);
    if (normals) for (let v = 0; v < surface.vertexCount; v++) out.push(objVector('vn', normals, (base + v) * 3, yUp));
    const tri = surface.triangles;
    for (let t = 0; t < surface.triangleCount * 3; t += 3) {
      const a = base + tri[t] + 1, b = base + tri[t + 1] + 1, c = base + tri[t + 2] + 1;
      out.push(objFace(a, b, c, Boolean(normals)));
    }
    base += surface.vertexCount;
  });
  out.push('');
  return out.join('\n');
}

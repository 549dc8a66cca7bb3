/**
 * Wavefront OBJ of one posed frame of a Quake MDL (positions from `MdlPoser`): the `numverts` positions of pose N
 * (numbered over every pose, frame groups expanded) in file order as `v` (and `vn`), the engine's drawn texture
 * coordinates as `vt` (formats/mdl/geometry.ts: a backward triangle's seam vertex takes the skin's back half), and
 * `f v/vt` (`f v/vt/vn` with normals), written (a, c, b) as MD2's (obj-morph.ts). `vt` is (s, 1 − t); coordinates
 * stay Z-up unless `yUp`. Its own file so that OBJ of MD2/MD3 does not carry MDL's geometry.
 */
import type { MdlModel } from '../../base/model.js';
import { mdlDrawVertices } from './geometry.js';
import { fmt, objHeader, objUseMaterial, objVector, type ObjOptions } from '../../export/obj.js';

export function mdlToObj(model: MdlModel, options: ObjOptions): string {
  const { positions, normals, yUp = false } = options;
  const out = objHeader(options);
  out.push('o mdl');
  objUseMaterial(out, options, 0);
  for (let v = 0; v < model.vertexCount; v++) out.push(objVector('v', positions, v * 3, yUp));
  const g = mdlDrawVertices(model);
  for (let i = 0; i < g.sourceVertex.length; i++) out.push(`vt ${fmt(g.uvs[2 * i])} ${fmt(1 - g.uvs[2 * i + 1])}`);
  if (normals) for (let v = 0; v < model.vertexCount; v++) out.push(objVector('vn', normals, v * 3, yUp));
  const p = model.triangleVertexIndices, t = g.indices;
  const corner = (c: number) => (normals ? `${p[c] + 1}/${t[c] + 1}/${p[c] + 1}` : `${p[c] + 1}/${t[c] + 1}`);
  for (let c = 0; c < model.triangleCount * 3; c += 3) out.push(`f ${corner(c)} ${corner(c + 2)} ${corner(c + 1)}`);
  out.push('');
  return out.join('\n');
}

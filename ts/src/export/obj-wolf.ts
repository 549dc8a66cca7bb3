/**
 * An MDS (or an MDM on its MDX) as OBJ: one pose (`convert x.mds [--frame N] -o x.obj`, frame 0 by default), the
 * bones composed as R_CalcBones and the vertices skinned by the kernels on the chosen backend, in the file's
 * coordinates; one group per surface using its material; UVs with v flipped (OBJ's rows go up).
 */
import type { PoseBackend } from '../kernels/backend.js';
import { objFace, objHeader, objUseMaterial, objVector, type ObjOptions } from './obj.js';
import { wolfDraw, wolfPoser, type WolfDrawable } from '../pose/wolf-bind.js';

/** What the OBJ door hands a format's writer (formats/entry.ts ObjFrameOptions), as far as this one reads it. */
export interface WolfObjOptions {
  frame: number | undefined;
  backend: PoseBackend;
  yUp: boolean;
  comment: (what: string) => string;
  materials?: ObjOptions['materials'];
}

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const fmt = (x: number) => String(+x.toFixed(6));

export function writeWolfObj(d: WolfDrawable, path: string, o: WolfObjOptions): { text: string; facts: string[] } {
  const draw = wolfDraw(d);
  const poser = wolfPoser(o.backend, d);
  try {
    const frame = o.frame ?? 0;
    poser.pose({ frame });
    const out = objHeader({ comment: o.comment(`${path} frame ${frame}`), materials: o.materials });
    const V = draw.vertexCount;
    const p = poser.positions, n = poser.normals;
    for (let v = 0; v < V; v++) out.push(objVector('v', p, v * 3, o.yUp));
    for (let v = 0; v < V; v++) out.push(`vt ${fmt(draw.st[v * 2])} ${fmt(1 - draw.st[v * 2 + 1])}`);
    for (let v = 0; v < V; v++) out.push(objVector('vn', n, v * 3, o.yUp));
    d.surfaces.forEach((s, k) => {
      out.push(`g ${(s.name || `surface${k}`).replace(/\s+/g, '_')}`);
      objUseMaterial(out, o, k);
      for (let i = draw.indexStart[k]; i < draw.indexStart[k + 1]; i += 3) out.push(objFace(draw.triangles[i] + 1, draw.triangles[i + 1] + 1, draw.triangles[i + 2] + 1, true));
    });
    return { text: `${out.join('\n')}\n`, facts: [count(d.surfaces.length, 'surface'), count(V, 'vertex', 'vertices'), count(draw.triangles.length / 3, 'triangle'), `frame ${frame}`] };
  } finally {
    poser.dispose();
  }
}

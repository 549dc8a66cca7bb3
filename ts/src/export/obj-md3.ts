/**
 * One posed frame of a model in MD3's data shape (an MD3; an MDC once decoded, formats/mdc/to-md3.ts) as OBJ text
 * and the facts of `convert`'s summary line: shared by both rooms' `obj.write`.
 */
import type { Md3Model } from '../base/model.js';
import type { PoseBackend } from '../kernels/backend.js';
import { Md3Poser } from '../pose/md3-poser.js';
import { md3ToObj } from './obj-morph.js';
import type { ObjOptions } from './obj.js';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** What the registration's `obj.write` hands on (formats/entry.ts `ObjFrameOptions`). */
export interface Md3ObjFrameOptions {
  frame: number | undefined;
  backend: PoseBackend;
  yUp: boolean;
  comment: (what: string) => string;
  materials?: ObjOptions['materials'];
}

export function md3ObjFrame(model: Md3Model, path: string, o: Md3ObjFrameOptions): { text: string; facts: string[] } {
  const frame = o.frame ?? 0;
  const poser = new Md3Poser(o.backend, model).poseFrame(frame);
  try {
    const text = md3ToObj(model, { positions: poser.positions, normals: poser.normals, yUp: o.yUp, comment: o.comment(`${path} frame ${frame}`), materials: o.materials });
    return { text, facts: [count(model.surfaces.length, 'mesh', 'meshes'), count(poser.vertexCount, 'vertex', 'vertices'), `frame ${frame}`] };
  } finally {
    poser.dispose();
  }
}

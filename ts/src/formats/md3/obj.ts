/** MD3 as OBJ: one posed frame (`convert … -o x.obj`). */
import type { Md3Model } from '../../base/model.js';
import type { ModelSet } from '../../load/model-set.js';
import type { ObjFrameOptions } from '../entry.js';
import { Md3Poser } from '../../pose/md3-poser.js';
import { md3ToObj } from '../../export/obj-morph.js';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One posed frame of the set as OBJ (`convert … -o x.obj`), loaded on first use by the registration's `obj.write`. */
export async function writeObjFrame(set: ModelSet<Md3Model>, o: ObjFrameOptions): Promise<{ text: string; facts: string[] }> {
  const model = set.data;
  const frame = o.frame ?? 0;
  const poser = new Md3Poser(o.backend, model).poseFrame(frame);
  try {
    const text = md3ToObj(model, { positions: poser.positions, normals: poser.normals, yUp: o.yUp, comment: o.comment(`${set.path} frame ${frame}`), materials: o.materials });
    return { text, facts: [count(model.surfaces.length, 'mesh', 'meshes'), count(poser.vertexCount, 'vertex', 'vertices'), `frame ${frame}`] };
  } finally {
    poser.dispose();
  }
}

/** MD2 as OBJ: one posed frame (`convert … -o x.obj`). */
import type { Md2Model } from '../../base/model.js';
import type { ModelSet } from '../../load/model-set.js';
import type { ObjFrameOptions } from '../entry.js';
import { Md2Poser } from '../../pose/md2-poser.js';
import { md2ToObj } from '../../export/obj-morph.js';

/** One posed frame of the set as OBJ (`convert … -o x.obj`), loaded on first use by the registration's `obj.write`. */
export async function writeObjFrame(set: ModelSet<Md2Model>, o: ObjFrameOptions): Promise<{ text: string; facts: string[] }> {
  const model = set.data;
  const frame = o.frame ?? 0;
  const poser = new Md2Poser(o.backend, model).poseFrame(frame);
  try {
    const text = md2ToObj(model, { positions: poser.positions, yUp: o.yUp, comment: o.comment(`${set.path} frame ${frame}`), materials: o.materials });
    return { text, facts: ['1 mesh', `${poser.vertexCount} ${poser.vertexCount === 1 ? 'vertex' : 'vertices'}`, `frame ${frame}`] };
  } finally {
    poser.dispose();
  }
}

/** MDL as OBJ: one posed frame (`convert … -o x.obj`). */
import type { MdlModel } from '../../base/model.js';
import type { ModelSet } from '../../load/model-set.js';
import type { ObjFrameOptions } from '../entry.js';
import { MdlPoser } from './poser.js';
import { mdlToObj } from './obj.js';

/** One posed frame of the set as OBJ (`convert … -o x.obj`), loaded on first use by the registration's `obj.write`. */
export async function writeObjFrame(set: ModelSet<MdlModel>, o: ObjFrameOptions): Promise<{ text: string; facts: string[] }> {
  const frame = o.frame ?? 0;
  const poser = new MdlPoser(o.backend, set.data).poseFrame(frame);
  try {
    const text = mdlToObj(set.data, { positions: poser.positions, normals: poser.normals, yUp: o.yUp, comment: o.comment(`${set.path} pose ${frame}`), materials: o.materials });
    return { text, facts: ['1 mesh', `${set.data.vertexCount} ${set.data.vertexCount === 1 ? 'vertex' : 'vertices'}`, `pose ${frame}`] };
  } finally {
    poser.dispose();
  }
}

/** IQM as OBJ: one posed frame (`convert … -o x.obj`). */
import type { IqmModel } from '../../base/model.js';
import type { ModelSet } from '../../load/model-set.js';
import type { ObjFrameOptions } from '../entry.js';
import { IqmPoser } from '../../pose/iqm-poser.js';
import { iqmToObj } from './obj.js';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** One posed frame of the set as OBJ (`convert … -o x.obj`), loaded on first use by the registration's `obj.write`. */
export async function writeObjFrame(set: ModelSet<IqmModel>, o: ObjFrameOptions): Promise<{ text: string; facts: string[] }> {
  const model = set.data;
  const animation = set.companions[0]?.data as IqmModel | undefined;
  const poser = new IqmPoser(o.backend, model);
  try {
    if (o.frame !== undefined) {
      if (animation) poser.setAnimation(animation);
      poser.poseFrame(o.frame);
    } else poser.bindPose();
    const what = o.frame === undefined ? `${set.path} in its bind pose` : `${set.path} frame ${o.frame}${animation ? ` of ${set.companions[0].path}` : ''}`;
    const text = iqmToObj(model, { positions: poser.positions, normals: poser.normals.length ? poser.normals : undefined, yUp: o.yUp, comment: o.comment(what), materials: o.materials });
    return { text, facts: [count(model.meshes.length, 'mesh', 'meshes'), count(poser.vertexCount, 'vertex', 'vertices'), o.frame === undefined ? 'bind pose' : `frame ${o.frame}`] };
  } finally {
    poser.dispose();
  }
}

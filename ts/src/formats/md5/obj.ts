/** MD5 as OBJ: one posed frame (`convert … -o x.obj`). */
import type { Md5Mesh } from '../../base/model.js';
import { md5SetAnims } from './set-anims.js';
import type { ModelSet } from '../../load/model-set.js';
import type { ObjFrameOptions } from '../entry.js';
import { Md5Poser } from '../../pose/md5-poser.js';
import { toObj } from '../../export/obj.js';

/** One posed frame of the set as OBJ (`convert … -o x.obj`), loaded on first use by the registration's `obj.write`. */
export async function writeObjFrame(set: ModelSet<Md5Mesh>, o: ObjFrameOptions): Promise<{ text: string; facts: string[] }> {
  const mesh = set.data;
  const anim = set.companions[0];
  const played = md5SetAnims(set)[0];
  const poser = new Md5Poser(o.backend, mesh);
  try {
    if (anim) {
      poser.setAnim(played.anim).setScales(played.scales ?? null);
      poser.poseFrame(o.frame ?? 0);
    } else poser.poseBind();
    const what = anim ? `${set.path} posed by ${anim.path} frame ${o.frame ?? 0}` : `${set.path} in its bind pose`;
    const text = toObj(mesh, { positions: poser.positions, normals: poser.normals, yUp: o.yUp, comment: o.comment(what), materials: o.materials });
    const pose = anim ? `frame ${o.frame ?? 0} of ${anim.path}` : 'bind pose';
    return { text, facts: [`${mesh.meshes.length} ${mesh.meshes.length === 1 ? 'mesh' : 'meshes'}`, `${poser.vertexCount} ${poser.vertexCount === 1 ? 'vertex' : 'vertices'}`, pose] };
  } finally {
    poser.dispose();
  }
}

/** MD3 as OBJ: one posed frame (`convert … -o x.obj`), through export/obj-md3.ts (shared with MDC). */
import type { Md3Model } from '../../base/model.js';
import type { ModelSet } from '../../load/model-set.js';
import type { ObjFrameOptions } from '../entry.js';
import { md3ObjFrame } from '../../export/obj-md3.js';

/** One posed frame of the set as OBJ (`convert … -o x.obj`), loaded on first use by the registration's `obj.write`. */
export async function writeObjFrame(set: ModelSet<Md3Model>, o: ObjFrameOptions): Promise<{ text: string; facts: string[] }> {
  return md3ObjFrame(set.data, set.path, o);
}

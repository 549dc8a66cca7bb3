/**
 * An object-space joint pose re-expressed as local poses under another hierarchy. Daemon poses an md5mesh with its
 * anim's parents (RE_BuildSkeleton), which may differ from the mesh's (pose/anim-mesh-match.ts); an exporter
 * whose skeleton is the mesh's hierarchy (glTF nodes, three.js bones) needs each frame's locals under the mesh's
 * parents instead: local = parent⁻¹ · object, exact at every frame. Between frames glTF and three.js interpolate
 * these locals, which differs from interpolating the anim's own locals only for joints whose parent differs.
 */
import { quatConjugate, quatMultiply, quatRotate, type Quat } from '../base/quat.js';
import { POSE_STRIDE } from '../kernels/layout.js';

/** `object`: 8 floats per joint (`tx ty tz 0 qx qy qz qw`, Md5Poser.objectPose); `out` gets the locals, same layout. */
export function localPoseUnder(parents: ArrayLike<number>, object: Float32Array, out: Float32Array = new Float32Array(object.length)): Float32Array {
  for (let j = 0; j < parents.length; j++) {
    const o = j * POSE_STRIDE;
    const p = parents[j];
    const q: Quat = [object[o + 4], object[o + 5], object[o + 6], object[o + 7]];
    if (p < 0) {
      out.set(object.subarray(o, o + POSE_STRIDE), o);
      continue;
    }
    const po = p * POSE_STRIDE;
    const pq: Quat = [object[po + 4], object[po + 5], object[po + 6], object[po + 7]];
    const n2 = pq[0] * pq[0] + pq[1] * pq[1] + pq[2] * pq[2] + pq[3] * pq[3] || 1;
    const inv = quatConjugate(pq).map((c) => c / n2) as Quat; // the inverse, even where rounding left |q| ≠ 1
    const t = quatRotate(inv, [object[o] - object[po], object[o + 1] - object[po + 1], object[o + 2] - object[po + 2]]);
    const lq = quatMultiply(inv, q);
    out[o] = t[0];
    out[o + 1] = t[1];
    out[o + 2] = t[2];
    out[o + 3] = 0;
    out.set(lq, o + 4);
  }
  return out;
}

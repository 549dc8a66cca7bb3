/**
 * Bones' matrices in the model's Z-up space (the group `space.ts` makes), parent first: what the exact skinning modes
 * (`md5-poser-mesh.ts`, `iqm-poser-mesh.ts`) hand our kernels each time three's AnimationMixer has moved the bones.
 */
import type { Bone } from 'three';

/** Each bone's object-space matrix (column-major 4×4, affine) into `out` at 16 · j; `parents[j]` < j or −1. */
export function boneObjectMatrices(bones: readonly Bone[], parents: Int32Array, out: Float64Array): void {
  for (let j = 0; j < bones.length; j++) {
    const bone = bones[j];
    if (bone.matrixAutoUpdate) bone.updateMatrix();
    const m = bone.matrix.elements; // column-major
    const p = parents[j];
    const o = j * 16;
    if (p < 0) {
      for (let k = 0; k < 16; k++) out[o + k] = m[k];
    } else {
      // object_j = object_parent · local_j
      const q = p * 16;
      for (let c = 0; c < 4; c++) {
        for (let r = 0; r < 4; r++) out[o + c * 4 + r] = out[q + r] * m[c * 4] + out[q + 4 + r] * m[c * 4 + 1] + out[q + 8 + r] * m[c * 4 + 2] + out[q + 12 + r] * m[c * 4 + 3];
      }
    }
  }
}

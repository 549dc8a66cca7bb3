/**
 * The TS mirror of `crates/core/src/crowd.rs`: a crowd's joint palettes in one call, name for name
 * (`crowd_palettes` → `crowdPalettes`), same layouts, same arithmetic order (the 3×4 product ioquake3's,
 * `iqm::matrix34_multiply`); float64 arithmetic with float32 storage (the scratch and the output are float32, as the
 * Rust side's), as the other TS kernels. One difference, on purpose: the rotation is Doom 3's slerp with `Math.acos` and
 * `Math.sin` (`ts-kernels.ts` `slerpInto`, `quat::slerp`), where the Rust kernel takes polynomials for them
 * (`crowd::slerp_poly`, within 1e-6: four libm calls per joint were a crowd's largest cost in WASM). The parity tests
 * hold both to their tolerance. The TS backend does not carry this kernel (a crowd brings it: backend.ts).
 */
import { CROWD_KEY_STRIDE as K, CROWD_PALETTE_STRIDE as P } from './layout.js';
import { slerpInto } from './ts-kernels.js';
import { refused, type CrowdPalettesJob } from './backend.js';

/** What the kernel poses from: the skeleton, its inverse binds (row-major 3×4) and its keys (key-major). */
export interface CrowdSkeleton {
  parents: Int32Array;
  invBind: Float32Array;
  keys: Float32Array;
}

const q = /* @__PURE__ */ new Float64Array(4), l = /* @__PURE__ */ new Float64Array(12);

/** `out[o…]` = a[ai…] · b[bi…], row-major 3×4 with an implied last row 0 0 0 1 (`iqm::matrix34_multiply`). */
function mul34(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number, out: Float32Array, o: number): void {
  for (let r = 0; r < 12; r += 4) {
    const m0 = a[ai + r], m1 = a[ai + r + 1], m2 = a[ai + r + 2];
    for (let c = 0; c < 4; c++) out[o + r + c] = m0 * b[bi + c] + m1 * b[bi + 4 + c] + m2 * b[bi + 8 + c] + (c === 3 ? a[ai + r + 3] : 0);
  }
}

/**
 * The palettes of the first `count` instances into `out`; false (nothing written) when a buffer is too short for
 * `count` or the keys hold no whole key. Key indices past the keys are clamped to the last; a parent not below its
 * joint is taken as a root.
 */
export function crowdPalettes(sk: CrowdSkeleton, instanceKeys: Uint32Array, instanceBlend: Float32Array, count: number, scratch: Float32Array, out: Float32Array): boolean {
  const { parents, keys, invBind } = sk;
  const joints = parents.length, perKey = joints * K, perInstance = joints * P;
  const keyCount = perKey && Math.floor(keys.length / perKey);
  if (!(count >= 0 && count % 1 === 0) || invBind.length < perInstance || scratch.length < perInstance || instanceKeys.length < count * 2 || instanceBlend.length < count * 2 || out.length < count * perInstance || (joints && !keyCount)) return false;
  for (let i = 0; i < count; i++) {
    const ka = Math.min(instanceKeys[i * 2], keyCount - 1) * perKey, kb = Math.min(instanceKeys[i * 2 + 1], keyCount - 1) * perKey;
    const t = instanceBlend[i * 2], ts = instanceBlend[i * 2 + 1];
    for (let j = 0; j < joints; j++) {
      const a = ka + j * K, b = kb + j * K, o = j * P;
      slerpInto(keys, a + 3, keys, b + 3, t, q, 0);
      const [x, y, z, w] = q;
      // T · R · S (quat::to_columns, each column times its scale), lerped translation and scale
      const sx = keys[a + 7] + (keys[b + 7] - keys[a + 7]) * ts, sy = keys[a + 8] + (keys[b + 8] - keys[a + 8]) * ts, sz = keys[a + 9] + (keys[b + 9] - keys[a + 9]) * ts;
      l[0] = (1 - 2 * (y * y + z * z)) * sx; l[1] = 2 * (x * y - w * z) * sy; l[2] = 2 * (x * z + w * y) * sz;
      l[4] = 2 * (x * y + w * z) * sx; l[5] = (1 - 2 * (x * x + z * z)) * sy; l[6] = 2 * (y * z - w * x) * sz;
      l[8] = 2 * (x * z - w * y) * sx; l[9] = 2 * (y * z + w * x) * sy; l[10] = (1 - 2 * (x * x + y * y)) * sz;
      for (let c = 0; c < 3; c++) l[c * 4 + 3] = keys[a + c] + (keys[b + c] - keys[a + c]) * t;
      const p = parents[j];
      if (p >= 0 && p < j) mul34(scratch, p * P, l, 0, scratch, o);
      else scratch.set(l, o);
      mul34(scratch, o, invBind, o, out, i * perInstance + o);
    }
  }
  return true;
}

/** The kernel as a job on the TS backend's buffers: what a WASM backend's `kernels.crowdPalettes` is (backend.ts). */
export function crowdPalettesJob(j: CrowdPalettesJob): void {
  const sk = { parents: j.parents.view, invBind: j.invBind.view, keys: j.keys.view };
  if (!crowdPalettes(sk, j.instanceKeys.view, j.instanceBlend.view, j.instanceCount, j.scratch.view, j.out.view)) refused('crowdPalettes', `a buffer is too short for ${j.instanceCount} instances, or the keys hold no whole key`);
}

/**
 * The morph kernels' normal decode tables, the only copies in the project (the Rust kernels receive them from here),
 * in the layouts of `crates/core/src/layout.rs`: one 4-float entry per normal (MD2) or per angle step (MD3), so the
 * SIMD kernels read a normal with one vector load (MD2) or two and a multiply (MD3).
 * (The 162 MD2 normals themselves live in `../formats/md2/normals.ts`.)
 */
import { MD2_NORMAL_COUNT, MD2_NORMALS } from '../formats/md2/normals.js';
import { MD2_NORMAL_TABLE_ENTRIES, MD2_NORMAL_TABLE_STRIDE, MD3_NORMAL_TABLE_LEN } from './layout.js';

/** `x y z 0` per entry, one entry per index byte: Quake 2's 162 normals, then the last repeated (the kernels' clamp). */
export const MD2_NORMAL_TABLE: Float32Array = (() => {
  const t = new Float32Array(MD2_NORMAL_TABLE_ENTRIES * MD2_NORMAL_TABLE_STRIDE);
  for (let i = 0; i < MD2_NORMAL_TABLE_ENTRIES; i++) {
    const k = Math.min(i, MD2_NORMAL_COUNT - 1) * 3;
    t.set(MD2_NORMALS.subarray(k, k + 3), i * MD2_NORMAL_TABLE_STRIDE);
  }
  return t;
})();

/** The angle steps of a packed MD3 lat/lng byte pair: k·2π/256. */
export const MD3_ANGLE_STEPS = 256;

/**
 * For each angle step a = k·2π/256: `cos a, sin a, 1, 0` (latitude entries, the first half), then `sin a, sin a, cos a, 0`
 * (longitude entries, the second half). A packed normal (lat, lng) is the componentwise product of entry lat of the first
 * half and entry lng of the second: (cos lat · sin lng, sin lat · sin lng, cos lng).
 */
export const MD3_NORMAL_TABLE: Float32Array = (() => {
  const t = new Float32Array(MD3_NORMAL_TABLE_LEN);
  for (let k = 0; k < MD3_ANGLE_STEPS; k++) {
    const a = (k * 2 * Math.PI) / MD3_ANGLE_STEPS;
    const c = Math.fround(Math.cos(a)), s = Math.fround(Math.sin(a));
    t.set([c, s, 1, 0], k * 4);
    t.set([s, s, c, 0], MD3_NORMAL_TABLE_LEN / 2 + k * 4);
  }
  return t;
})();

/**
 * The morph kernels' normal decode tables, the only copies in the project (the Rust kernels receive them from here),
 * in the layouts of `crates/core/src/layout.rs`: one 4-float entry per MD2 normal index byte, and one per MD3 packed
 * lat/lng value (65536, decoded at run time from the 256 angle steps), so every kernel reads a normal with one vector
 * load. (The 162 MD2 normals themselves live in `quake-normals.ts`.)
 */
import { MD2_NORMAL_COUNT, MD2_NORMALS } from './quake-normals.js';
import type { F32, PoseBackend } from './backend.js';
import { MD2_NORMAL_TABLE_ENTRIES, MD2_NORMAL_TABLE_STRIDE, MD3_DECODED_NORMALS_LEN, MD3_NORMAL_TABLE_LEN } from './layout.js';

/** `x y z 0` per entry, one entry per index byte: Quake 2's 162 normals, then the last repeated (the kernels' clamp). */
export const MD2_NORMAL_TABLE: Float32Array = /* @__PURE__ */ (() => {
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
export const MD3_NORMAL_TABLE: Float32Array = /* @__PURE__ */ (() => {
  const t = new Float32Array(MD3_NORMAL_TABLE_LEN);
  for (let k = 0; k < MD3_ANGLE_STEPS; k++) {
    const a = (k * 2 * Math.PI) / MD3_ANGLE_STEPS;
    const c = Math.fround(Math.cos(a)), s = Math.fround(Math.sin(a));
    t.set([c, s, 1, 0], k * 4);
    t.set([s, s, c, 0], MD3_NORMAL_TABLE_LEN / 2 + k * 4);
  }
  return t;
})();

let decoded: Float32Array | null = null;

/**
 * The decoded MD3 normal table the kernels read (1 MiB, built on first use, ~1 ms): `x y z 0` for each packed value
 * p = lat · 256 + lng, x y z the products of `MD3_NORMAL_TABLE`'s latitude entry lat and longitude entry lng, in f32
 * (cos lat · sin lng, sin lat · sin lng, cos lng).
 */
export function md3DecodedNormals(): Float32Array {
  if (decoded) return decoded;
  const t = new Float32Array(MD3_DECODED_NORMALS_LEN), a = MD3_NORMAL_TABLE, lng0 = MD3_NORMAL_TABLE_LEN / 2;
  for (let p = 0; p < MD3_ANGLE_STEPS * MD3_ANGLE_STEPS; p++) {
    const la = (p >> 8) * 4, ln = lng0 + (p & 255) * 4;
    t[p * 4] = a[la] * a[ln];
    t[p * 4 + 1] = a[la + 1] * a[ln + 1];
    t[p * 4 + 2] = a[ln + 2];
  }
  return (decoded = t);
}

const md3Tables = new WeakMap<PoseBackend, F32>();

/**
 * The decoded MD3 normal table in `backend`'s memory: one copy per backend, shared by every MD3 poser and player on
 * it (each had its own 8 KB angle table before), freed with the backend. Allocate it before other buffers' views are
 * read (it may grow WASM memory).
 */
export function md3NormalBuffer(backend: PoseBackend): F32 {
  let b = md3Tables.get(backend);
  if (!b || backend.disposed) {
    b = backend.memory.f32(MD3_DECODED_NORMALS_LEN);
    b.view.set(md3DecodedNormals());
    md3Tables.set(backend, b);
  }
  return b;
}

/**
 * MDC's 256-entry normal table (`r_anormals`, the renderer's anorms256.h) and MD3's packed lat/lng normal.
 *
 * The table is a sphere in rings of latitude π/16 apart: the equator (32 directions), then the 7 rings below it
 * (z = −sin kπ/16, 32 − 4k directions each), then the 7 above (z = +sin kπ/16), each ring starting at azimuth 0 and
 * going counter-clockwise. It is built here from that rule, not copied: every entry matches the engine's printed
 * 6-decimal table within 1e-6 (ts/test/mdc holds it to the rule's first and last entries and its ring sizes).
 */

export const MDC_NORMAL_COUNT = 256;

let table: Float32Array | null = null;

/** x y z per entry, 256 entries (built on first use). */
export function mdcNormalTable(): Float32Array {
  if (table) return table;
  const out = new Float32Array(MDC_NORMAL_COUNT * 3);
  let i = 0;
  const ring = (k: number, sign: number) => {
    const n = 32 - 4 * k;
    const r = Math.cos((k * Math.PI) / 16);
    const z = sign * Math.sin((k * Math.PI) / 16);
    for (let j = 0; j < n; j++) {
      const a = (j * 2 * Math.PI) / n;
      out[i++] = r * Math.cos(a);
      out[i++] = r * Math.sin(a);
      out[i++] = z;
    }
  };
  ring(0, 1);
  for (let k = 1; k <= 7; k++) ring(k, -1);
  for (let k = 1; k <= 7; k++) ring(k, 1);
  table = out;
  return out;
}

/**
 * The MD3 packed normal (lat << 8 | lng) nearest to unit (x, y, z) under the engine's decode (x = cos lat · sin lng,
 * y = sin lat · sin lng, z = cos lng; 256 steps a turn): how a compressed frame's table normal is kept in the MD3
 * record the MD3 kernels read.
 */
export function packLatLng(x: number, y: number, z: number): number {
  const len = Math.hypot(x, y, z);
  if (!(len > 0)) return 0;
  const lng = Math.round((Math.acos(Math.max(-1, Math.min(1, z / len))) * 256) / (2 * Math.PI)) & 255;
  const lat = Math.round((Math.atan2(y, x) * 256) / (2 * Math.PI)) & 255;
  return (lat << 8) | lng;
}

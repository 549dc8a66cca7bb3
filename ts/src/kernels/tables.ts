/**
 * The MD3 normal decode table, the only copy in the project (the Rust kernel receives it from here):
 * 256 cosines then 256 sines of k·2π/256, the angle steps of a packed lat/lng byte pair.
 * (The 162 MD2 normals live in `../formats/md2/normals.ts`.)
 */
export const MD3_ANGLE_STEPS = 256;

export const MD3_ANGLE_TABLE: Float32Array = (() => {
  const t = new Float32Array(2 * MD3_ANGLE_STEPS);
  for (let k = 0; k < MD3_ANGLE_STEPS; k++) {
    const a = (k * 2 * Math.PI) / MD3_ANGLE_STEPS;
    t[k] = Math.cos(a);
    t[MD3_ANGLE_STEPS + k] = Math.sin(a);
  }
  return t;
})();

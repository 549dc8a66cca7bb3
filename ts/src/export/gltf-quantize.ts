/**
 * KHR_mesh_quantization for the vertex-animated exporters (MD2, MD3, players): positions as integers on a grid whose
 * step and origin the mesh's node carries (node.scale, node.translation: the extension's dequantisation, applied after
 * morphing, so base and targets share it), normals as normalised bytes, morph weights as normalised bytes.
 *
 * - MD3 stores positions as int16 in 1/64 units (ioquake3 qfiles.h MD3_XYZ_SCALE): the grid is exactly that one, and
 *   the file's integers are written back as they are — no rounding at all.
 * - MD2 stores bytes × a per-frame scale + translate (its own grid, per frame and axis), which no single grid
 *   holds. By default (`md2SourceGrid`) the grid's one uniform step (a non-uniform node scale would bend normals) is
 *   MD2_SOURCE_DIVISOR times finer than the file's finest step, so every frame lies within an eighth of its own step
 *   and reads back onto the same bytes (below); asked for (`md2Grid: 'box'`), 255 steps over the box every frame
 *   fits in, which is coarser than the file wherever the model moves far across its frames.
 *
 * Target f holds frame f's grid values minus frame 0's (exact integers): a byte per component when every vertex
 * moves by at most 127 steps, else a short, else floats (still in grid units, still exact).
 */
export const KHR_MESH_QUANTIZATION = 'KHR_mesh_quantization';

/** position = origin + q · step, per component (glTF axes). */
export interface PositionGrid {
  origin: [number, number, number];
  step: number;
}

/** The steps of the compact MD2 grid (`md2Grid: 'box'`) over the longest side of the box of every frame. */
export const MD2_GRID_STEPS = 255;

/**
 * How much finer than the file's finest per-frame step (frame scale s) the default MD2 grid is. A position off by e
 * from its source value v = t + b·s reads back (gltfToMd2: each frame's box / 255 again) onto byte b while
 * e + |Δt| + b·|Δs| < s/2; the box's corners are off by at most e too, so |Δt| ≤ e and b·|Δs| ≤ 2e: 4e < s/2, e < s/8.
 * The grid's rounding gives e ≤ step/2, so the step must be below s/4: 5 is the first whole divisor that is. Every
 * real MD2 then reads back with its own bytes (measured in gltf-quantize.test.ts); the cost is SHORT positions and
 * target deltas where the box's 255 steps had bytes (faerie.md2's glb +41%: docs/gltf.md).
 */
export const MD2_SOURCE_DIVISOR = 5;

/** Integer levels a quantised position can take (unsigned SHORT). */
const SHORT_LEVELS = 65535;

/**
 * The default MD2 grid over the box [min, max] (glTF axes): origin at min, step = the finest positive frame scale /
 * MD2_SOURCE_DIVISOR — no coarser than 255 steps over the box — or undefined when the box needs more levels than a
 * SHORT holds (then positions stay float32).
 */
export function md2SourceGrid(min: ArrayLike<number>, max: ArrayLike<number>, frameScales: ArrayLike<number>): PositionGrid | undefined {
  const extent = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  if (!(extent > 0)) return fitGrid(min, max, MD2_GRID_STEPS);
  let finest = Infinity;
  for (let i = 0; i < frameScales.length; i++) if (frameScales[i] > 0 && frameScales[i] < finest) finest = frameScales[i];
  const step = Math.min(extent / MD2_GRID_STEPS, finest / MD2_SOURCE_DIVISOR);
  if (extent / step > SHORT_LEVELS) return undefined;
  return { origin: [min[0], min[1], min[2]], step };
}

/** Grid values `round((p − origin) / step)`, as float64 (exact integers). */
export function gridValues(p: ArrayLike<number>, grid: PositionGrid): Float64Array {
  const out = new Float64Array(p.length);
  for (let i = 0; i < p.length; i++) out[i] = Math.round((p[i] - grid.origin[i % 3]) / grid.step);
  return out;
}

/** A grid with `steps` steps over the longest side of the box [min, max] (glTF axes), origin at min. */
export function fitGrid(min: ArrayLike<number>, max: ArrayLike<number>, steps: number): PositionGrid {
  const extent = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  return { origin: [min[0], min[1], min[2]], step: extent > 0 ? extent / steps : 1 };
}

type IntArray = Int8Array | Uint8Array | Int16Array | Uint16Array;
type IntCtor = { new (n: number): IntArray; readonly BYTES_PER_ELEMENT: number };

const RANGES: [IntCtor, number, number][] = [
  [Int8Array, -128, 127],
  [Uint8Array, 0, 255],
  [Int16Array, -32768, 32767],
  [Uint16Array, 0, 65535],
];

/**
 * `values` in the smallest integer type that holds them (`signed`: BYTE or SHORT only, as morph-target positions
 * must be), or undefined when none does.
 */
export function packIntegers(values: ArrayLike<number>, signed: boolean): IntArray | undefined {
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  for (const [Ctor, min, max] of RANGES) {
    if (signed && min === 0) continue;
    if (lo >= min && hi <= max) {
      const out = new Ctor(values.length);
      for (let i = 0; i < values.length; i++) out[i] = values[i];
      return out;
    }
  }
  return undefined;
}

/** Unit normals as snorm8 values (round(n · 127), the extension's BYTE normalised: value / 127). */
export function normalValues(n: ArrayLike<number>): Int8Array {
  const out = new Int8Array(n.length);
  for (let i = 0; i < n.length; i++) out[i] = Math.round(n[i] * 127);
  return out;
}

/**
 * The smallest per-vertex factor c a normal target scales its frame's normal by: the direction of c · n rounded to
 * 1/127 steps is off by at most asin(√3 / (254 · c)) — 0.39° at c = 1, 0.93° at this minimum. It is what the balanced
 * base (below) always allows: |127 · c · n_k ∓ 73| ≤ 126.5 holds for every unit n at c = 53.5 / 127.
 */
export const NORMAL_MIN_SCALE = 0.42;

/** The snorm8 value of 1/√3: a balanced base has every component ±73 (length 0.9957). */
const BALANCED = 73;

/**
 * Vertex v's target value over base b (snorm8, 3 components at `o`) for frame normal n (unit): round(127 · c · n) − b
 * with the largest c ≤ 1 that keeps every component within ±127, written to `out` at `o`; false when c would be below
 * NORMAL_MIN_SCALE.
 */
function normalDelta(n: ArrayLike<number>, b: ArrayLike<number>, o: number, out: Int8Array | null): boolean {
  // largest c ≤ 1 with |127 · c · n_k − b_k| ≤ 126.5 for each component k (rounding then stays within ±127)
  let c = 1;
  for (let k = 0; k < 3; k++) {
    const nk = n[o + k], bk = b[o + k];
    if (nk > 0) c = Math.min(c, (bk + 126.5) / (127 * nk));
    else if (nk < 0) c = Math.min(c, (bk - 126.5) / (127 * nk));
  }
  if (!(c >= NORMAL_MIN_SCALE)) return false;
  for (let k = 0; k < 3; k++) {
    const d = Math.round(127 * c * n[o + k]) - b[o + k];
    if (d < -127 || d > 127) return false;
    if (out) out[o + k] = d;
  }
  return true;
}

/**
 * Quantised normals for a morph mesh (snorm8 base + BYTE normalised targets). A normal delta n_f − n_0 reaches ±2 per
 * component, past what a normalised byte holds (±1); but renderers normalise the morphed normal (glTF 2.0 §3.7.2.2:
 * clients SHOULD), so vertex v stores c_v · n_f − b_v with a c_v > 0 of its own instead: the one-hot sum
 * b_v + (c_v · n_f − b_v) points along n_f, and a blend (1 − t, t) of frames a, b gives (1 − t) · c_a · n_a + t · c_b · n_b,
 * on the arc between n_a and n_b (the engines' lerp exactly where c_a = c_b, as it is wherever the plain delta fits).
 *
 * The base b_v is frame 0's normal wherever every frame fits with c ≥ NORMAL_MIN_SCALE; a vertex that turns too far
 * (near-opposite normals) gets the balanced base (±1/√3 per component, signs of frame 0's), which every unit normal
 * fits. Then the rest pose is no longer the base, so frame 0 becomes a target too (`frame0`: target f is frame f, and
 * the mesh's default weights show frame 0); otherwise target f − 1 is frame f.
 */
export function quantizeNormals(frames: ArrayLike<number>[]): { base: Int8Array; targets: Int8Array[]; frame0: boolean } {
  const base = normalValues(frames[0]);
  let frame0 = false;
  for (let o = 0; o < base.length; o += 3) {
    if (frames.every((n) => normalDelta(n, base, o, null))) continue;
    frame0 = true;
    for (let k = 0; k < 3; k++) base[o + k] = frames[0][o + k] < 0 ? -BALANCED : BALANCED;
  }
  const targets = (frame0 ? frames : frames.slice(1)).map((n) => {
    const out = new Int8Array(base.length);
    for (let o = 0; o < base.length; o += 3) normalDelta(n, base, o, out);
    return out;
  });
  return { base, targets, frame0 };
}

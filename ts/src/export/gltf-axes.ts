/**
 * id models are Z-up, glTF is Y-up (glTF 2.0 §3.4: "+Y is up"). Converting is one proper rotation, −90° about
 * X: (x, y, z) → (x, z, −y), the same map as the OBJ exporter's `yUp`. Because it is a rotation (not a
 * mirror), winding, handedness and quaternion conventions survive: a rotation q = (v, w) becomes (C·v, w),
 * and a joint's local transform changes the same way at every level of the hierarchy (C·T·C⁻¹), so local
 * translations and rotations convert independently of their parents. id's forward (+X) stays +X.
 *
 * With `yUp: false` the map is the identity (the file's own axes, for tools that expect Z-up).
 *
 * Winding: id triangles (MD5, MD2, MD3 alike) are clockwise seen from the front, glTF's counter-clockwise
 * (pose/winding.ts turns them).
 */
export interface Axes {
  readonly yUp: boolean;
  /** Vector (x, y, z) written into `out` at `o`. */
  vec(x: number, y: number, z: number, out: ArrayLike<number> & { [i: number]: number }, o: number): void;
  /**
   * Every vector of `v` (x, y, z, x, y, z …) mapped into a new Float32Array. The loop is here rather than calling
   * `vec` per vertex: `vec` writes into every kind of array across the exporters, so where it was inlined into a
   * per-vertex loop its stores were generic, a runtime call each (5% of a batch conversion's CPU).
   */
  vectors(v: ArrayLike<number>): Float32Array;
  /** Quaternion (x, y, z, w) written into `out` at `o`. */
  quat(x: number, y: number, z: number, w: number, out: ArrayLike<number> & { [i: number]: number }, o: number): void;
}

export function axes(yUp: boolean): Axes {
  return {
    yUp,
    vec(x, y, z, out, o) {
      out[o] = x;
      out[o + 1] = yUp ? z : y;
      out[o + 2] = yUp ? -y : z;
    },
    vectors(v) {
      const out = new Float32Array(v.length);
      if (!yUp) out.set(v);
      else
        for (let i = 0; i + 2 < v.length; i += 3) {
          out[i] = v[i];
          out[i + 1] = v[i + 2];
          out[i + 2] = -v[i + 1];
        }
      return out;
    },
    quat(x, y, z, w, out, o) {
      this.vec(x, y, z, out, o);
      out[o + 3] = w;
    },
  };
}

/** The 3×3 axis change C ((x, y, z) → (x, z, −y) for Y-up) applied to a column-major 4×4: C · M · C⁻¹. */
export function convertMatrix(axes: Axes, m: Float64Array, out: Float32Array, o: number): void {
  // columns of M, each converted (C·col), then rows permuted by the same map (· C⁻¹) through the column order
  const col = (c: number) => {
    const v = [0, 0, 0];
    axes.vec(m[c * 4], m[c * 4 + 1], m[c * 4 + 2], v, 0);
    return v;
  };
  const [x, y, z, t] = [col(0), col(1), col(2), col(3)];
  // C⁻¹ maps the new basis back: new x = old x, new y = old z, new z = −old y (for Y-up); identity otherwise
  const cols = axes.yUp ? [x, z, y.map((v) => -v)] : [x, y, z];
  for (let c = 0; c < 3; c++) {
    out[o + c * 4] = cols[c][0];
    out[o + c * 4 + 1] = cols[c][1];
    out[o + c * 4 + 2] = cols[c][2];
    out[o + c * 4 + 3] = 0;
  }
  out[o + 12] = t[0];
  out[o + 13] = t[1];
  out[o + 14] = t[2];
  out[o + 15] = 1;
}

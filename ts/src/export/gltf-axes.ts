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
    quat(x, y, z, w, out, o) {
      this.vec(x, y, z, out, o);
      out[o + 3] = w;
    },
  };
}

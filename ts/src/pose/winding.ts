/**
 * id triangles (MD5, MD2, MD3 alike) are wound clockwise seen from the front; glTF and three.js take counter-clockwise
 * front faces. Turning the winding is the same for every format and every drawer: swap each triangle's last two corners.
 */

/** Triangle indices with the winding turned from clockwise (id) to counter-clockwise (glTF). */
export function counterClockwise(triangles: ArrayLike<number>, vertexCount: number): Uint16Array | Uint32Array {
  const out = vertexCount <= 0xffff ? new Uint16Array(triangles.length) : new Uint32Array(triangles.length);
  for (let t = 0; t + 2 < triangles.length; t += 3) {
    out[t] = triangles[t];
    out[t + 1] = triangles[t + 2];
    out[t + 2] = triangles[t + 1];
  }
  return out;
}

/**
 * Vertex tangents for a glTF primitive with a normal map: glTF says a renderer generates them when the primitive has
 * none (with MikkTSpace), and the validator warns MESH_PRIMITIVE_GENERATED_TANGENT_SPACE, since what each renderer
 * generates may differ. The exporters write them instead (IQM files carry their own: iqm/gltf.ts).
 *
 * Per-vertex tangents as Lengyel derives them ("Computing Tangent Space Basis Vectors for an Arbitrary Mesh", 2001),
 * the method MikkTSpace refines: each triangle's tangent and bitangent from its edges and texture-coordinate deltas,
 * weighted by its area, summed at its vertices; then each vertex's sum made perpendicular to its normal
 * (Gram-Schmidt), normalised, and its w the handedness, +1 where (N × T) points along the summed bitangent, else −1 —
 * glTF's bitangent is `cross(normal, tangent.xyz) * w`. Texture coordinates are used as glTF stores them (v down),
 * as glTF Transform feeds MikkTSpace. Unlike MikkTSpace no vertex is split (the exporters' vertices are the file's,
 * shared with morph targets and skins), so a vertex on a UV mirror seam gets an averaged tangent there. A vertex whose
 * sum is zero or parallel to its normal (no UV area around it) gets any unit tangent perpendicular to its normal:
 * the validator requires unit xyz and w = ±1.
 *
 * Morph-target meshes (MD2, MD3, MDL) get the tangents of their base frame; the frames' own are not written as
 * target deltas (the normal map turns slightly with the surface: a renderer's generated ones would do the same).
 */

/**
 * TANGENT (4 floats a vertex: unit xyz, w = ±1) of a triangle list in glTF winding: `positions` and `normals` 3 floats
 * a vertex (normals of unit length), `uvs` 2, `indices` 3 a triangle.
 */
export function vertexTangents(positions: ArrayLike<number>, normals: ArrayLike<number>, uvs: ArrayLike<number>, indices: ArrayLike<number>): Float32Array {
  const n = Math.floor(positions.length / 3);
  const tan = new Float64Array(n * 3);
  const bit = new Float64Array(n * 3);
  for (let t = 0; t + 2 < indices.length; t += 3) {
    const a = indices[t], b = indices[t + 1], c = indices[t + 2];
    if (a >= n || b >= n || c >= n) continue;
    const e1x = positions[b * 3] - positions[a * 3], e1y = positions[b * 3 + 1] - positions[a * 3 + 1], e1z = positions[b * 3 + 2] - positions[a * 3 + 2];
    const e2x = positions[c * 3] - positions[a * 3], e2y = positions[c * 3 + 1] - positions[a * 3 + 1], e2z = positions[c * 3 + 2] - positions[a * 3 + 2];
    const du1 = uvs[b * 2] - uvs[a * 2], dv1 = uvs[b * 2 + 1] - uvs[a * 2 + 1];
    const du2 = uvs[c * 2] - uvs[a * 2], dv2 = uvs[c * 2 + 1] - uvs[a * 2 + 1];
    const det = du1 * dv2 - du2 * dv1;
    if (det === 0 || !Number.isFinite(det)) continue;
    // sign(det) keeps each triangle's contribution weighted by its area (not divided by its UV area)
    const s = det > 0 ? 1 : -1;
    const tx = (e1x * dv2 - e2x * dv1) * s, ty = (e1y * dv2 - e2y * dv1) * s, tz = (e1z * dv2 - e2z * dv1) * s;
    const bx = (e2x * du1 - e1x * du2) * s, by = (e2y * du1 - e1y * du2) * s, bz = (e2z * du1 - e1z * du2) * s;
    for (const v of [a, b, c]) {
      tan[v * 3] += tx; tan[v * 3 + 1] += ty; tan[v * 3 + 2] += tz;
      bit[v * 3] += bx; bit[v * 3 + 1] += by; bit[v * 3 + 2] += bz;
    }
  }
  const out = new Float32Array(n * 4);
  for (let v = 0; v < n; v++) {
    const nx = normals[v * 3], ny = normals[v * 3 + 1], nz = normals[v * 3 + 2];
    let tx = tan[v * 3], ty = tan[v * 3 + 1], tz = tan[v * 3 + 2];
    const d = nx * tx + ny * ty + nz * tz;
    tx -= nx * d; ty -= ny * d; tz -= nz * d;
    let len = Math.sqrt(tx * tx + ty * ty + tz * tz);
    if (!(len > 1e-12)) {
      // any unit vector perpendicular to the normal: the axis the normal leans least along, made perpendicular
      const ax = Math.abs(nx) < 0.9 ? 1 : 0, ay = ax ? 0 : 1;
      const e = nx * ax + ny * ay;
      tx = ax - nx * e; ty = ay - ny * e; tz = -nz * e;
      len = Math.sqrt(tx * tx + ty * ty + tz * tz) || 1;
    }
    tx /= len; ty /= len; tz /= len;
    // handedness: (N × T) · B
    const cx = ny * tz - nz * ty, cy = nz * tx - nx * tz, cz = nx * ty - ny * tx;
    const w = cx * bit[v * 3] + cy * bit[v * 3 + 1] + cz * bit[v * 3 + 2] < 0 ? -1 : 1;
    out.set([tx, ty, tz, w], v * 4);
  }
  return out;
}

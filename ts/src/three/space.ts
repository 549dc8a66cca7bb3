/**
 * id's space and three.js's, in one place. id models are Z-up (+X forward), three.js is Y-up; the adapter keeps
 * every vertex, bone and tag in the file's own axes (so what three evaluates compares number for number with our
 * posers) under one group that turns Z-up into Y-up: a proper rotation of −90° about X, (x, y, z) → (x, z, −y), the
 * same map as the glTF exporter's (`export/gltf-axes.ts`). The model's outer group is left untouched for the user.
 *
 * Winding: views hold triangles as the id formats store them, clockwise seen from the front (docs/design.md,
 * measured); three.js's front faces are counter-clockwise: indices are written (a, c, b). Texture coordinates: id's
 * t grows downward from the image's top row; three.js uploads images bottom row first (`Texture.flipY`, its
 * default, which TGALoader's textures keep too), so v = 1 − t.
 */
import { Box3, BufferAttribute, Group, Quaternion, Vector3 } from 'three';
import { counterClockwise } from '../pose/winding.js';
import type { ViewBounds } from '../formats/model-view.js';

/** −90° about X: Z-up → Y-up (exact components: no cos(π/2) round-off). */
const Z_UP_TO_Y_UP = /* @__PURE__ */ zUpToThreeUp();

function zUpToThreeUp(): Quaternion {
  return new Quaternion(-Math.SQRT1_2, 0, 0, Math.SQRT1_2);
}

/** The group that holds a model in id's axes and turns them Y-up; `userData.idtech.space` says what it is. */
export function zUpGroup(name: string): Group {
  const g = new Group();
  g.name = `${name}_zup`;
  g.quaternion.copy(Z_UP_TO_Y_UP);
  g.userData.idtech = { space: 'id Z-up (+X forward) turned Y-up: (x, y, z) → (x, z, −y)' };
  return g;
}

/** Triangle indices turned counter-clockwise (the smallest index type that fits `vertexCount`). */
export function indexAttribute(triangles: ArrayLike<number>, vertexCount: number): BufferAttribute {
  return new BufferAttribute(counterClockwise(triangles, vertexCount), 1);
}

/** (s, t) with t down from the top row → three's (u, v) with v up from the bottom row. */
export function uvAttribute(st: ArrayLike<number>): BufferAttribute {
  const uv = new Float32Array(st.length);
  for (let i = 0; i + 1 < st.length; i += 2) {
    uv[i] = st[i];
    uv[i + 1] = 1 - st[i + 1];
  }
  return new BufferAttribute(uv, 2);
}

/** A view's box as three's (an empty box for none). */
export function box3(bounds: ViewBounds | null): Box3 {
  return bounds ? new Box3(new Vector3().fromArray(bounds.min), new Vector3().fromArray(bounds.max)) : new Box3();
}

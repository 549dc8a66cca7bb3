/**
 * three.js's own evaluation of what the adapter built, headless: the mixer set to a time, the scene's matrices
 * updated, vertices read back with `getVertexPosition` (which applies three's morph targets and skinning on the
 * CPU exactly as its shaders do) and carried into the model's Z-up space (the `root` group) — what the parity tests
 * compare with our posers.
 */
import { Matrix4, Vector3, type AnimationMixer, type Group, type Mesh, type MeshStandardMaterial, type Object3D } from 'three';

/** Sets every action of `mixer` to `seconds` and updates the world matrices under `scene`. */
export function setTime(mixer: AnimationMixer, scene: Object3D, seconds: number): void {
  mixer.setTime(seconds);
  scene.updateMatrixWorld(true);
}

/** `object`'s matrix relative to `root` (root⁻¹ · object's world), after `updateMatrixWorld`. */
export function relativeMatrix(object: Object3D, root: Object3D): Matrix4 {
  return new Matrix4().copy(root.matrixWorld).invert().multiply(object.matrixWorld);
}

/** Every vertex of `mesh` as three evaluates it, in `root`'s space, 3 floats each. */
export function threePositions(mesh: Mesh, root: Group): Float32Array {
  const n = mesh.geometry.getAttribute('position').count;
  const out = new Float32Array(n * 3);
  const toRoot = relativeMatrix(mesh, root);
  const v = new Vector3();
  for (let i = 0; i < n; i++) {
    mesh.getVertexPosition(i, v).applyMatrix4(toRoot);
    out[i * 3] = v.x;
    out[i * 3 + 1] = v.y;
    out[i * 3 + 2] = v.z;
  }
  return out;
}

/** Largest distance between matching xyz triples. */
export function maxDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} vs ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; i += 3) {
    const d = Math.hypot(a[i] - b[i], a[i + 1] - b[i + 1], a[i + 2] - b[i + 2]);
    if (!(d <= m)) m = d;
  }
  return m;
}

/** Every material of every mesh under `scene`, in traversal order. */
export function materialsUnder(scene: Object3D): MeshStandardMaterial[] {
  const out: MeshStandardMaterial[] = [];
  scene.traverse((o) => {
    const mesh = o as Mesh;
    if (mesh.isMesh) out.push(...((Array.isArray(mesh.material) ? mesh.material : [mesh.material]) as MeshStandardMaterial[]));
  });
  return out;
}

/**
 * A model's vertices as three.js draws them this frame — morph targets blended by their influences, skinned by
 * their bones — read back on the CPU for the overlays that follow the animation (the box of the frame on show, the
 * normals). three's own `getVertexPosition` blends and skins a position; a normal is blended the same way and
 * carried through the skin by skinning a point a little way along it.
 */
import { Box3, Mesh, Vector3, type BufferAttribute, type Object3D, type SkinnedMesh } from 'three';

/** The meshes of a model (not the overlays hung on it). */
export function modelMeshes(root: Object3D): Mesh[] {
  const out: Mesh[] = [];
  root.traverse((o) => {
    if ((o as Mesh).isMesh && !o.userData.overlay) out.push(o as Mesh);
  });
  return out;
}

const v = new Vector3();

/** The world box of every vertex of `root`'s meshes, posed. */
export function posedBox(root: Object3D, out = new Box3()): Box3 {
  out.makeEmpty();
  root.updateWorldMatrix(true, true);
  for (const mesh of modelMeshes(root)) {
    if (!mesh.visible) continue;
    const count = mesh.geometry.getAttribute('position')?.count ?? 0;
    for (let i = 0; i < count; i++) out.expandByPoint(mesh.getVertexPosition(i, v).applyMatrix4(mesh.matrixWorld));
  }
  return out;
}

const base = new Vector3(), tmp = new Vector3(), along = new Vector3();

/** Vertex `i` of `mesh`, posed: its world position into `p` and its world normal (unit) into `n`. */
export function posedVertex(mesh: Mesh, i: number, p: Vector3, n: Vector3): void {
  const g = mesh.geometry;
  const normal = g.getAttribute('normal') as BufferAttribute | undefined;
  n.set(0, 0, 1);
  if (normal) {
    n.fromBufferAttribute(normal, i);
    const morph = g.morphAttributes.normal as BufferAttribute[] | undefined;
    const w = mesh.morphTargetInfluences;
    if (morph && w) {
      base.copy(n);
      tmp.set(0, 0, 0);
      for (let k = 0; k < morph.length; k++) {
        if (!w[k]) continue;
        along.fromBufferAttribute(morph[k], i);
        if (!g.morphTargetsRelative) along.sub(base);
        tmp.addScaledVector(along, w[k]);
      }
      n.add(tmp);
    }
  }
  const skinned = (mesh as SkinnedMesh).isSkinnedMesh ? (mesh as SkinnedMesh) : null;
  if (skinned) {
    // the unskinned (morphed) position and the point one normal away, both through the bones (a vertex's skin is
    // affine: their difference is the normal through its linear part)
    Mesh.prototype.getVertexPosition.call(skinned, i, p);
    along.copy(p).add(n);
    skinned.applyBoneTransform(i, p);
    skinned.applyBoneTransform(i, along);
    n.copy(along).sub(p);
  } else mesh.getVertexPosition(i, p);
  p.applyMatrix4(mesh.matrixWorld);
  n.transformDirection(mesh.matrixWorld);
}

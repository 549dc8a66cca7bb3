/**
 * Picking with the pointer (the *Pick* switch): a click on the model names the triangle under it and its nearest
 * corner — the surface, the triangle's number in it and its three vertices, the vertex's number, its position and
 * normal as drawn in the file's axes (id's Z up) and its texture coordinates as the file has them, and, on a
 * skinned model, the joints that move it and their weights; a click on a joint of the skeleton overlay names the
 * joint — its number, its parent, where it is now. three's Raycaster does the hit (it blends morph targets and skins,
 * as drawn); nothing here names a format.
 */
import { Matrix3, Matrix4, Quaternion, Raycaster, Vector2, Vector3, type Camera, type Mesh } from 'three';
import type { IdTechModel } from 'idtech-models/three';
import { posedVertex } from './posed.js';
import { surfaceLabel, type Surface } from './surfaces.js';
import { el } from './text.js';

export type Picked =
  | {
      kind: 'vertex';
      surface: Surface;
      /** The triangle's number in its surface, and its corners (the model's vertex numbers). */
      triangle: number;
      corners: number[];
      vertex: number;
      position: number[];
      normal: number[];
      st: number[];
      /** The joints that move the vertex and their weights (a skinned model). */
      influences: { joint: string; weight: number }[];
    }
  | { kind: 'joint'; index: number; name: string; parent: number; parentName: string | null; position: number[]; rotation: number[] };

const round = (v: number) => Math.round(v * 1e4) / 1e4;

/** The triangle and vertex under `ndc` (−1…1), or null. */
export function pickVertex(ndc: Vector2, camera: Camera, model: IdTechModel, surfaces: readonly Surface[], jointNames: readonly string[]): Picked | null {
  const meshes = [...new Set(surfaces.map((s) => s.mesh).filter((m): m is Mesh => !!m && m.visible))];
  const ray = new Raycaster();
  ray.setFromCamera(ndc, camera);
  model.scene.updateWorldMatrix(true, true);
  const hit = ray.intersectObjects(meshes, false).find((h) => h.face && h.faceIndex !== undefined && h.faceIndex !== null);
  if (!hit || !hit.face) return null;
  const mesh = hit.object as Mesh;
  const at = hit.faceIndex! * 3;
  const group = mesh.geometry.groups.find((g) => at >= g.start && at < g.start + g.count);
  const surface = surfaces.find((s) => s.mesh === mesh && s.slot === (group?.materialIndex ?? 0));
  if (!surface || !group) return null;
  const corners = [hit.face.a, hit.face.b, hit.face.c];
  const toRoot = new Matrix4().copy(model.root.matrixWorld).invert();
  const p = new Vector3(), n = new Vector3();
  let vertex = corners[0], best = Infinity;
  for (const c of corners) {
    posedVertex(mesh, c, p, n);
    const d = p.distanceTo(hit.point);
    if (d < best) (best = d), (vertex = c);
  }
  posedVertex(mesh, vertex, p, n);
  p.applyMatrix4(toRoot);
  n.applyMatrix3(new Matrix3().getNormalMatrix(toRoot)).normalize();
  const influences: { joint: string; weight: number }[] = [];
  const si = mesh.geometry.getAttribute('skinIndex'), sw = mesh.geometry.getAttribute('skinWeight');
  if (si && sw) {
    for (let k = 0; k < 4; k++) {
      const w = sw.getComponent(vertex, k);
      if (w > 0) influences.push({ joint: jointNames[si.getComponent(vertex, k)] ?? String(si.getComponent(vertex, k)), weight: round(w) });
    }
  }
  return {
    kind: 'vertex',
    surface,
    triangle: (at - (mesh.geometry.userData.allGroups ?? mesh.geometry.groups).find((g: { materialIndex?: number }) => g.materialIndex === surface.slot).start) / 3,
    corners: [...corners].sort((a, b) => a - b),
    vertex,
    position: p.toArray().map(round),
    normal: n.toArray().map(round),
    st: [surface.st[vertex * 2], surface.st[vertex * 2 + 1]].map(round),
    influences,
  };
}

/** Joint `index` of the model's skeleton, posed, in the file's axes. */
export function pickJoint(index: number, model: IdTechModel, names: readonly string[], parents: ArrayLike<number>): Picked | null {
  const bone = model.skeleton?.bones[index];
  if (!bone) return null;
  model.scene.updateWorldMatrix(true, true);
  const m = new Matrix4().copy(model.root.matrixWorld).invert().multiply(bone.matrixWorld);
  const position = new Vector3(), rotation = new Quaternion(), scale = new Vector3();
  m.decompose(position, rotation, scale);
  const parent = parents[index] ?? -1;
  return { kind: 'joint', index, name: names[index] ?? bone.name, parent, parentName: parent >= 0 ? (names[parent] ?? null) : null, position: position.toArray().map(round), rotation: rotation.toArray().map(round) };
}

/** Shows `picked` in `root` (its numbers as a list; `data-*` for tests). */
export function showPicked(root: HTMLElement, picked: Picked | null): void {
  for (const k of Object.keys(root.dataset)) delete root.dataset[k];
  if (!picked) {
    root.replaceChildren(el('p', 'nothing there', { class: 'small' }));
    return;
  }
  const dl = el('dl');
  const row = (k: string, v: string) => dl.append(el('dt', k), el('dd', v, { 'data-key': k }));
  root.dataset.kind = picked.kind;
  if (picked.kind === 'vertex') {
    Object.assign(root.dataset, { surface: String(picked.surface.index), triangle: String(picked.triangle), corners: picked.corners.join(' '), vertex: String(picked.vertex), position: picked.position.join(' ') });
    row('surface', `${surfaceLabel(picked.surface)} (#${picked.surface.index})`);
    row('triangle', `${picked.triangle} of ${picked.surface.triangles.length / 3} — vertices ${picked.corners.join(', ')}`);
    row('vertex', String(picked.vertex));
    row('position', picked.position.join(', '));
    row('normal', picked.normal.join(', '));
    row('st', picked.st.join(', '));
    if (picked.influences.length) row('joints', picked.influences.map((i) => `${i.joint} ${i.weight}`).join(', '));
  } else {
    Object.assign(root.dataset, { joint: String(picked.index), name: picked.name, parent: String(picked.parent) });
    row('joint', `${picked.index} ${picked.name}`);
    row('parent', picked.parent >= 0 ? `${picked.parent} ${picked.parentName ?? ''}` : 'none (a root)');
    row('position', picked.position.join(', '));
    row('rotation (x y z w)', picked.rotation.join(', '));
  }
  root.replaceChildren(dl);
}

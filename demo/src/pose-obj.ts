/**
 * The model as it stands on screen — the frame on show, blended and skinned as three.js draws it — as a Wavefront
 * OBJ: each mesh's vertices posed (read back as the overlays read them, `posed.ts`), in the file's own axes (id's
 * Z up, X forward: the model's `root` space, tags' placements applied), with texture coordinates (v up, as OBJ has
 * them) and normals, and one group per surface named as the page names it, `usemtl` its shader. What a modder takes
 * to a modelling tool to trace or kitbash a pose; the whole animated model is the .glb export.
 */
import { Matrix3, Matrix4, Vector3, type Mesh } from 'three';
import type { IdTechModel } from 'idtech-models/three';
import { posedVertex } from './posed.js';
import { surfaceLabel, type Surface } from './surfaces.js';

const num = (x: number) => (Math.abs(x) < 5e-7 ? '0' : String(Math.round(x * 1e6) / 1e6));

export function poseObj(model: IdTechModel, surfaces: readonly Surface[], title: string, shaders: readonly string[]): string {
  model.scene.updateWorldMatrix(true, true);
  const toRoot = new Matrix4().copy(model.root.matrixWorld).invert();
  const lines = [`# ${title}`, `# idtech-models viewer: the pose on screen, in the file's axes (Z up)`];
  const p = new Vector3(), n = new Vector3();
  const base = new Map<Mesh, number>();
  let next = 1;
  for (const s of surfaces) {
    const mesh = s.mesh;
    if (!mesh || base.has(mesh)) continue;
    const normalM = new Matrix3().getNormalMatrix(toRoot);
    const count = mesh.geometry.getAttribute('position').count;
    const uv = mesh.geometry.getAttribute('uv');
    lines.push(`o ${mesh.name}`);
    for (let i = 0; i < count; i++) {
      // posedVertex gives world space; into the root's
      posedVertex(mesh, i, p, n);
      p.applyMatrix4(toRoot);
      n.applyMatrix3(normalM).normalize();
      lines.push(`v ${num(p.x)} ${num(p.y)} ${num(p.z)}`);
      lines.push(`vn ${num(n.x)} ${num(n.y)} ${num(n.z)}`);
      lines.push(uv ? `vt ${num(uv.getX(i))} ${num(uv.getY(i))}` : 'vt 0 0');
    }
    base.set(mesh, next);
    next += count;
  }
  for (const s of surfaces) {
    if (!s.mesh) continue;
    const b = base.get(s.mesh)!;
    lines.push(`g ${surfaceLabel(s).replace(/\s+/g, '_')}`, `usemtl ${(shaders[s.index] || s.name || `surface${s.index}`).replace(/\s+/g, '_')}`);
    // the view's triangles wind as the file does; three's index (and so OBJ's counter-clockwise) is the adapter's
    const index = s.mesh.geometry.getIndex();
    const group = (s.mesh.geometry.userData.allGroups ?? s.mesh.geometry.groups).find((g: { materialIndex?: number }) => g.materialIndex === s.slot);
    if (!index || !group) continue;
    for (let i = group.start; i + 2 < group.start + group.count; i += 3) {
      const a = index.getX(i) + b, c = index.getX(i + 1) + b, d = index.getX(i + 2) + b;
      lines.push(`f ${a}/${a}/${a} ${c}/${c}/${c} ${d}/${d}/${d}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Wavefront OBJ of an IQM, posed: every vertex of the file in file order (`v`, `vt`, `vn`), then per mesh an `o` line
 * and its faces (IQM triangles name the file's vertices; they are clockwise seen from the front, written (a, c, b)).
 * Positions keep the file's own coordinates unless `yUp`; `vt` is (u, 1 − t) (IQM's t grows downward, OBJ's up).
 *
 * `iqmObj` poses first: frame N of the file's stored frames (0 … num_frames − 1 across its anims, or of an
 * animation file played on it), skinned by the LBS kernel through `IqmPoser`; without a frame, the bind pose.
 */
import type { IqmModel } from '../../base/model.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { createTsBackend } from '../../kernels/ts-backend.js';
import { IqmPoser } from '../../pose/iqm-poser.js';
import { fmt, objFace, objHeader, objUseMaterial, objVector, type ObjOptions } from '../../export/obj.js';

/** The OBJ text of `model` with `options.positions` / `normals` (a poser's outputs, the file's vertex order). */
export function iqmToObj(model: IqmModel, options: ObjOptions): string {
  const { positions, normals, yUp = false } = options;
  const out = objHeader(options);
  const V = positions.length / 3;
  for (let v = 0; v < V; v++) out.push(objVector('v', positions, v * 3, yUp));
  const st = model.texcoords;
  for (let v = 0; v < V; v++) out.push(st ? `vt ${fmt(st[v * 2])} ${fmt(1 - st[v * 2 + 1])}` : 'vt 0 1');
  const withNormals = Boolean(normals && normals.length >= V * 3);
  if (withNormals) for (let v = 0; v < V; v++) out.push(objVector('vn', normals!, v * 3, yUp));
  model.meshes.forEach((mesh, i) => {
    out.push(`o ${(mesh.name || `mesh${i}`).replace(/\s+/g, '_')}`);
    if (mesh.material) out.push(`# material ${mesh.material}`);
    objUseMaterial(out, options, i);
    const tri = model.triangles;
    for (let t = mesh.firstTriangle; t < mesh.firstTriangle + mesh.triangleCount; t++) {
      out.push(objFace(tri[t * 3] + 1, tri[t * 3 + 1] + 1, tri[t * 3 + 2] + 1, withNormals));
    }
  });
  out.push('');
  return out.join('\n');
}

export interface IqmObjOptions extends Omit<ObjOptions, 'positions' | 'normals'> {
  /** A stored frame (0 … frameCount − 1 of the animation's frames); omitted: the bind pose. */
  frame?: number;
  /** The file whose frames `frame` counts (an animation-only IQM played on the model); default the model itself. */
  animation?: IqmModel;
  /** The backend whose kernels skin (default: a TS backend, disposed after). */
  backend?: PoseBackend;
}

/** `model` posed at `options.frame` (or in its bind pose) as OBJ text. Throws RangeError for a frame it lacks. */
export function iqmObj(model: IqmModel, options: IqmObjOptions = {}): string {
  const backend = options.backend ?? createTsBackend();
  const poser = new IqmPoser(backend, model);
  try {
    if (options.frame !== undefined) {
      if (options.animation) poser.setAnimation(options.animation);
      poser.poseFrame(options.frame);
    }
    return iqmToObj(model, { ...options, positions: poser.positions, normals: poser.normals.length ? poser.normals : undefined });
  } finally {
    poser.dispose();
    if (!options.backend) backend.dispose();
  }
}

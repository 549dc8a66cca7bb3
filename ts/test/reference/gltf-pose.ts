/**
 * glTF's vertex pipeline written plainly, per call, for the import tests: a primitive's posed positions and normals
 * (glTF axes, world space) — base + Σ weight · morph target, then skinned with JOINTS_0 / WEIGHTS_0
 * (Σ weight · jointWorld · inverseBind) or placed by its node's world matrix. Not shipped: the importers pose with
 * `PrimitivePoser` (import/gltf-sample.ts: attributes read once, every JOINTS_n set), which is tested against this.
 */
import type { Mesh, Node, Primitive } from '@gltf-transform/core';
import { mat4Multiply } from '../../src/base/mat4.js';
import { attribute } from '../../src/import/gltf-sample.js';

/**
 * The primitive's posed positions and normals (glTF axes, world space), 3 floats per vertex. With `local`, only the
 * morph targets apply: the vertices in the mesh's own space, neither skinned nor placed by the node.
 */
export function posedPrimitive(node: Node, mesh: Mesh, prim: Primitive, local = false): { positions: Float32Array; normals: Float32Array } {
  const positions = attribute(prim, 'POSITION') ?? new Float32Array(0);
  const normals = attribute(prim, 'NORMAL') ?? new Float32Array(positions.length);
  const weights = node.getWeights().length ? node.getWeights() : mesh.getWeights();
  prim.listTargets().forEach((target, i) => {
    const w = weights[i] ?? 0;
    if (!w) return;
    for (const [name, out] of [['POSITION', positions], ['NORMAL', normals]] as const) {
      const a = target.getAttribute(name);
      if (!a) continue;
      const el: number[] = [];
      for (let v = 0; v < a.getCount(); v++) {
        a.getElement(v, el);
        for (let k = 0; k < 3; k++) out[3 * v + k] += w * el[k];
      }
    }
  });
  if (local) return { positions, normals };
  const skin = node.getSkin();
  const joints = attribute(prim, 'JOINTS_0');
  const jw = attribute(prim, 'WEIGHTS_0');
  const count = positions.length / 3;
  const perVertex: (v: number) => ArrayLike<number> = (() => {
    if (skin && joints && jw) {
      const ibm = skin.getInverseBindMatrices();
      const mats = skin.listJoints().map((j, i) => mat4Multiply(j.getWorldMatrix(), ibm ? ibm.getElement(i, []) : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]));
      return (v) => {
        const m = new Array<number>(16).fill(0);
        for (let k = 0; k < 4; k++) {
          const w = jw[4 * v + k];
          if (!w) continue;
          const jm = mats[joints[4 * v + k]];
          if (jm) for (let e = 0; e < 16; e++) m[e] += w * jm[e];
        }
        return m;
      };
    }
    const world = node.getWorldMatrix();
    return () => world;
  })();
  for (let v = 0; v < count; v++) {
    const m = perVertex(v);
    const o = 3 * v;
    const [x, y, z] = [positions[o], positions[o + 1], positions[o + 2]];
    const [nx, ny, nz] = [normals[o], normals[o + 1], normals[o + 2]];
    for (let r = 0; r < 3; r++) {
      positions[o + r] = m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r];
      normals[o + r] = m[r] * nx + m[4 + r] * ny + m[8 + r] * nz;
    }
  }
  return { positions, normals };
}


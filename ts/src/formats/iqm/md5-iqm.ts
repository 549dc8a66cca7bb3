/**
 * MD5 (md5mesh + md5anims) → IQM, directly: the move Unvanquished made for its models. What becomes what:
 *
 * - joints: the md5mesh's, with their bind turned parent-relative (translate, rotate; scale 1), names kept;
 * - vertices: the bind pose as `Md5Poser` computes it (file order, meshes back to back: one IQM mesh per `mesh { }`,
 *   named after its `name` or shader, the shader as material), normals and tangents (+u, with the bitangent's
 *   sign as w, as iqm.txt's tangent); uvs as stored (t down in both);
 * - blend indexes / weights: a vertex's weights merged per joint, then iqm.cpp's blendcombo (`iqm-blend.ts`): the
 *   four largest, renormalised, bytes summing to 255. Linear blend skinning of the bind vertex equals MD5's
 *   per-weight positions where a vertex's weights put it at one place (exporters make them agree to their printed
 *   decimals);
 * - anims: each md5anim one IQM anim (its name, frame rate, IQM_LOOP: Doom 3 cycles md5anims), frames appended, each
 *   frame's local joint poses under the mesh's hierarchy (`Md5Poser.meshLocalPose`: the same composition as
 *   playback; an anim Daemon plays with other parents re-expressed under the mesh's, whose parents the IQM joints
 *   keep) quantised per channel. Anims must match the mesh's joints as Daemon matches them (ANIM_MESH_MISMATCH).
 * - triangles: MD5's winding is IQM's (clockwise seen from the front): kept, re-based on each mesh's first vertex.
 */
import { IQM_LOOP, type IqmAnim, type IqmModel, type Md5Anim, type Md5Mesh } from '../../base/model.js';
import { quatConjugate, quatMultiply, quatNormalize, quatRotate, type Quat } from '../../base/quat.js';
import { createTsBackend } from '../../kernels/ts-backend.js';
import type { PoseBackend } from '../../kernels/backend.js';
import { POSE_STRIDE } from '../../kernels/layout.js';
import { Md5Poser } from '../../pose/md5-poser.js';
import { iqmBlendCombo, quantiseChannel } from './blend.js';

export interface Md5ToIqmOptions {
  /** The backend whose kernels pose (default: a TS backend, disposed after). */
  backend?: PoseBackend;
}

/** The joints' parent-relative bind (translate, rotate) from an md5mesh's object-space joints. */
function localBind(mesh: Md5Mesh): { translate: Float32Array; rotate: Float32Array } {
  const { count, parents, positions: p, orientations: o } = mesh.joints;
  const translate = new Float32Array(count * 3), rotate = new Float32Array(count * 4);
  const q = (j: number): Quat => quatNormalize(o.subarray(j * 4, j * 4 + 4));
  for (let j = 0; j < count; j++) {
    const par = parents[j];
    if (par < 0) {
      translate.set([p[j * 3], p[j * 3 + 1], p[j * 3 + 2]], j * 3);
      rotate.set(q(j), j * 4);
      continue;
    }
    const inv = quatConjugate(q(par));
    rotate.set(quatNormalize(quatMultiply(inv, q(j))), j * 4);
    translate.set(quatRotate(inv, [p[j * 3] - p[par * 3], p[j * 3 + 1] - p[par * 3 + 1], p[j * 3 + 2] - p[par * 3 + 2]]), j * 3);
  }
  return { translate, rotate };
}

/** An md5mesh and its md5anims as one IQM model (write it with `writeIqm`). */
export function md5ToIqm(mesh: Md5Mesh, anims: readonly { name: string; anim: Md5Anim }[] = [], options: Md5ToIqmOptions = {}): IqmModel {
  const backend = options.backend ?? createTsBackend();
  const poser = new Md5Poser(backend, mesh, { tangents: true });
  try {
    const J = mesh.joints.count;
    const V = poser.vertexCount;
    poser.poseBind();
    const positions = poser.positions.slice();
    const normals = poser.normals.slice();
    for (let i = 0; i < normals.length; i += 3) if (normals[i] === 0 && normals[i + 1] === 0 && normals[i + 2] === 0) normals[i + 2] = 1;
    const tangents = new Float32Array(V * 4);
    const t3 = poser.tangents!, signs = poser.tangentSigns!;
    for (let v = 0; v < V; v++) tangents.set([t3[v * 3], t3[v * 3 + 1], t3[v * 3 + 2], signs[v]], v * 4);
    const texcoords = new Float32Array(V * 2);
    const blendIndexes = new Uint8Array(V * 4), blendWeights = new Uint8Array(V * 4);
    const triangles: number[] = [];
    const meshes: IqmModel['meshes'] = [];
    let base = 0;
    mesh.meshes.forEach((part, i) => {
      texcoords.set(part.uvs, base * 2);
      for (let v = 0; v < part.vertexCount; v++) {
        const js: number[] = [], ws: number[] = [];
        for (let w = part.weightStart[v], end = w + part.weightCount[v]; w < end; w++) {
          const k = js.indexOf(part.weightJoints[w]);
          if (k >= 0) ws[k] += part.weightBiases[w];
          else {
            js.push(part.weightJoints[w]);
            ws.push(part.weightBiases[w]);
          }
        }
        iqmBlendCombo(js, ws, blendIndexes, blendWeights, (base + v) * 4);
      }
      meshes.push({ name: part.name || part.shader.split('/').pop() || `mesh${i}`, material: part.shader, firstVertex: base, vertexCount: part.vertexCount, firstTriangle: triangles.length / 3, triangleCount: part.triangleCount });
      for (const t of part.triangles) triangles.push(base + t);
      base += part.vertexCount;
    });
    const { translate, rotate } = localBind(mesh);

    // ——— frames: every anim's local joint poses, quantised per joint channel over all frames ———
    const iqmAnims: IqmAnim[] = [];
    const frameValues: number[][] = Array.from({ length: J * 10 }, () => []);
    let frameCount = 0;
    for (const { name, anim } of anims) {
      poser.setAnim(anim);
      const prev = new Float64Array(J * 4);
      for (let f = 0; f < anim.frameCount; f++) {
        const local = poser.meshLocalPose(f);
        for (let j = 0; j < J; j++) {
          const o = j * POSE_STRIDE;
          let q: number[] = quatNormalize(local.subarray(o + 4, o + 8));
          // keep each joint's rotations in one hemisphere: a smaller channel range, finer steps
          if (frameCount + f > 0 && q[0] * prev[j * 4] + q[1] * prev[j * 4 + 1] + q[2] * prev[j * 4 + 2] + q[3] * prev[j * 4 + 3] < 0) q = q.map((c) => -c);
          prev.set(q, j * 4);
          const vals = [local[o], local[o + 1], local[o + 2], ...q, 1, 1, 1];
          for (let c = 0; c < 10; c++) frameValues[j * 10 + c].push(vals[c]);
        }
      }
      iqmAnims.push({ name, firstFrame: frameCount, frameCount: anim.frameCount, framerate: anim.frameRate, flags: IQM_LOOP, loop: true });
      frameCount += anim.frameCount;
    }
    const masks = new Uint32Array(J), offsets = new Float32Array(J * 10), scales = new Float32Array(J * 10);
    const channels: Uint16Array[] = [];
    for (let j = 0; j < J; j++) {
      for (let c = 0; c < 10; c++) {
        const q = quantiseChannel(frameCount ? frameValues[j * 10 + c] : [c >= 7 ? 1 : c < 3 ? translate[j * 3 + c] : rotate[j * 4 + c - 3]]);
        offsets[j * 10 + c] = q.offset;
        scales[j * 10 + c] = q.scale;
        if (q.animated) {
          masks[j] |= 1 << c;
          channels.push(q.steps);
        }
      }
    }
    const frameChannels = channels.length;
    const frames = new Uint16Array(frameCount * frameChannels);
    for (let f = 0; f < frameCount; f++) for (let k = 0; k < frameChannels; k++) frames[f * frameChannels + k] = channels[k][f];
    const parents = Int32Array.from(mesh.joints.parents);
    return {
      format: 'iqm',
      version: 2,
      flags: 0,
      text: new Uint8Array([0]),
      meshes,
      vertexCount: V,
      vertexArrays: [],
      positions,
      texcoords,
      normals,
      tangents,
      blendIndexes: J > 0 ? blendIndexes : null,
      blendWeights: J > 0 ? blendWeights : null,
      colors: null,
      triangleCount: triangles.length / 3,
      triangles: Uint32Array.from(triangles),
      adjacency: null,
      joints: { count: J, names: [...mesh.joints.names], parents, translate, rotate, scale: new Float32Array(J * 3).fill(1) },
      poses: frameCount ? { count: J, parents: parents.slice(), masks, offsets, scales } : { count: 0, parents: new Int32Array(0), masks: new Uint32Array(0), offsets: new Float32Array(0), scales: new Float32Array(0) },
      anims: iqmAnims,
      frameCount,
      frameChannels: frameCount ? frameChannels : 0,
      frames: frameCount ? frames : new Uint16Array(0),
      bounds: null,
      comment: mesh.commandline ? `md5mesh commandline: ${mesh.commandline}` : '',
      extensions: [],
      warnings: [],
    };
  } finally {
    poser.dispose();
    if (!options.backend) backend.dispose();
  }
}

/**
 * Md5Mesh → md5mesh text, in the layout Doom 3's exporter writes (idMD5Mesh's grammar: joints, then one `mesh`
 * block per part with its verts, tris and weights). Floats are printed so they read back bit for bit
 * (`md5-text.ts`). Orientations are written as x y z with w ≤ 0 (the convention of base/model.ts): a joint whose
 * stored w is positive is written as its negation, the same rotation.
 */
import type { Md5Mesh } from '../../base/model.js';
import { refuseEngineLimits, type WriteOptions } from '../../write/engine-limits.js';
import { md5MeshEngineLimits } from './write-limits.js';
import { formatF32, md5Header, quoted, triple } from './write-text.js';
import { need } from '../../write/out.js';

/** Lines of the md5mesh, a mesh block at a time (join them, or write them to a stream as they come). */
export function* md5MeshChunks(mesh: Md5Mesh): Generator<string> {
  const j = mesh.joints;
  need('joint parents', j.parents, j.count);
  need('joint positions', j.positions, 3 * j.count);
  need('joint orientations', j.orientations, 4 * j.count);
  const lines = [md5Header(mesh.version, mesh.commandline), `numJoints ${j.count}\nnumMeshes ${mesh.meshes.length}\n\njoints {\n`];
  const q = new Float32Array(3);
  for (let i = 0; i < j.count; i++) {
    const s = j.orientations[4 * i + 3] > 0 ? -1 : 1;
    for (let k = 0; k < 3; k++) q[k] = s * j.orientations[4 * i + k];
    lines.push(`\t${quoted(j.names[i], `joint ${i} name`)}\t${j.parents[i]} ${triple(j.positions, 3 * i)} ${triple(q, 0)}\n`);
  }
  lines.push('}\n');
  yield lines.join('');

  for (const [n, m] of mesh.meshes.entries()) {
    const what = `mesh ${n}`;
    need(`${what} uvs`, m.uvs, 2 * m.vertexCount);
    need(`${what} weightStart`, m.weightStart, m.vertexCount);
    need(`${what} weightCount`, m.weightCount, m.vertexCount);
    need(`${what} triangles`, m.triangles, 3 * m.triangleCount);
    need(`${what} weightJoints`, m.weightJoints, m.weightTotal);
    need(`${what} weightBiases`, m.weightBiases, m.weightTotal);
    need(`${what} weightPositions`, m.weightPositions, 3 * m.weightTotal);
    const out = ['\nmesh {\n'];
    if (m.name) out.push(`\tname ${quoted(m.name, `${what} name`)}\n`);
    out.push(`\tshader ${quoted(m.shader, `${what} shader`)}\n\n\tnumverts ${m.vertexCount}\n`);
    for (let v = 0; v < m.vertexCount; v++) {
      out.push(`\tvert ${v} ( ${formatF32(m.uvs[2 * v])} ${formatF32(m.uvs[2 * v + 1])} ) ${m.weightStart[v]} ${m.weightCount[v]}\n`);
    }
    out.push(`\n\tnumtris ${m.triangleCount}\n`);
    for (let t = 0; t < m.triangleCount; t++) {
      out.push(`\ttri ${t} ${m.triangles[3 * t]} ${m.triangles[3 * t + 1]} ${m.triangles[3 * t + 2]}\n`);
    }
    out.push(`\n\tnumweights ${m.weightTotal}\n`);
    for (let w = 0; w < m.weightTotal; w++) {
      out.push(`\tweight ${w} ${m.weightJoints[w]} ${formatF32(m.weightBiases[w])} ${triple(m.weightPositions, 3 * w)}\n`);
    }
    out.push('}\n');
    yield out.join('');
  }
}

/**
 * The md5mesh text of `mesh`. UNWRITABLE for a string holding `"` or a line break, NaN, or short arrays, and with
 * `validate` for a mesh Doom 3 refuses (engine-limits.ts).
 */
export function writeMd5Mesh(mesh: Md5Mesh, options: WriteOptions = {}): string {
  if (options.validate) refuseEngineLimits(md5MeshEngineLimits(mesh), 'Doom 3');
  return [...md5MeshChunks(mesh)].join('');
}

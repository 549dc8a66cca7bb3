/**
 * Doom 3's checks on md5 data a writer produced: MD5 has no byte layout to point into, so the checks are on the data
 * (idMD5Anim::LoadAnim, idMD5Anim::CheckModelHierarchy, idRenderModelMD5::LoadModel).
 */
import type { ParseWarning } from '../../base/errors.js';
import type { Md5Anim, Md5Mesh } from '../../base/model.js';
import { finding } from '../../write/engine-limits.js';

/**
 * Doom 3's refusals of an md5mesh's data (idRenderModelMD5::LoadModel, ParseJoint, idMD5Mesh::ParseMesh): a parent
 * at or after its joint, a vertex without weights or with weights past the list, a weight on a joint that does
 * not exist; and a triangle corner past the vertices, which Doom 3 does not check and indexes with later.
 */
export function md5MeshEngineLimits(mesh: Md5Mesh): ParseWarning[] {
  const out: ParseWarning[] = [];
  const { count, parents, names } = mesh.joints;
  for (let j = 0; j < count; j++) {
    if (parents[j] >= j) {
      out.push(finding(`joint ${j} ("${names[j]}") has parent ${parents[j]}: Doom 3 refuses it (ParseJoint: "Invalid parent")`));
      break;
    }
  }
  mesh.meshes.forEach((m, i) => {
    const what = `mesh ${i}${m.name ? ` ("${m.name}")` : ''}`;
    for (let v = 0; v < m.vertexCount; v++) {
      if (m.weightCount[v] === 0) {
        out.push(finding(`${what} vertex ${v} has no weights: Doom 3 refuses it (idMD5Mesh::ParseMesh: "Vertex without any joint weights")`));
        break;
      }
      if (m.weightStart[v] + m.weightCount[v] > m.weightTotal) {
        out.push(finding(`${what} vertex ${v} uses weights up to ${m.weightStart[v] + m.weightCount[v] - 1} of ${m.weightTotal}: Doom 3 reads past its list (ParseMesh: "Vertices reference out of range weights")`));
        break;
      }
    }
    for (let w = 0; w < m.weightTotal; w++) {
      if (m.weightJoints[w] >= count) {
        out.push(finding(`${what} weight ${w} is on joint ${m.weightJoints[w]} of ${count}: Doom 3 refuses it (idMD5Mesh::ParseMesh: jointnum >= numJoints)`));
        break;
      }
    }
    for (let k = 0; k < 3 * m.triangleCount; k++) {
      if (m.triangles[k] >= m.vertexCount) {
        out.push(finding(`${what} triangle ${Math.floor(k / 3)} uses vertex ${m.triangles[k]} of ${m.vertexCount}: Doom 3 does not check it and reads past the vertices`));
        break;
      }
    }
  });
  return out;
}

/**
 * Doom 3's checks on an md5anim (idMD5Anim::LoadAnim) and, with `mesh`, on playing it on that mesh
 * (idMD5Anim::CheckModelHierarchy). `name` says which anim in the messages.
 */
export function md5AnimEngineLimits(anim: Md5Anim, mesh?: Md5Mesh, name = 'the md5anim'): ParseWarning[] {
  const out: ParseWarning[] = [];
  if (anim.frameCount <= 0) out.push(finding(`${name}: numFrames ${anim.frameCount}: Doom 3 refuses it (idMD5Anim::LoadAnim: numFrames <= 0)`));
  if (anim.jointCount <= 0) out.push(finding(`${name}: numJoints ${anim.jointCount}: Doom 3 refuses it (idMD5Anim::LoadAnim: numJoints <= 0)`));
  if (!(anim.frameRate > 0)) {
    out.push(finding(`${name}: frameRate ${anim.frameRate}: Doom 3 refuses a negative rate and divides by a zero one (idMD5Anim::LoadAnim)`));
  } else if (!Number.isInteger(anim.frameRate)) {
    out.push(finding(`${name}: frameRate ${anim.frameRate}: Doom 3 reads it with ParseInt, as ${Math.trunc(anim.frameRate)} frames a second (idMD5Anim::LoadAnim)`));
  }
  for (let j = 1; j < anim.jointCount; j++) {
    if (anim.parents[j] < 0) {
      out.push(finding(`${name}: joint ${j} ("${anim.names[j]}") is a second root: Doom 3 refuses it (idMD5Anim::LoadAnim: "Animations may have only one root joint")`));
      break;
    }
  }
  if (mesh) {
    const joints = mesh.joints;
    if (joints.count !== anim.jointCount) {
      out.push(finding(`${name} has ${anim.jointCount} joints, the md5mesh ${joints.count}: Doom 3 stops (idMD5Anim::CheckModelHierarchy: "has different # of joints than anim")`));
    } else {
      for (let j = 0; j < joints.count; j++) {
        if (joints.names[j] !== anim.names[j]) {
          out.push(finding(`${name}: joint ${j} is "${anim.names[j]}", the md5mesh's "${joints.names[j]}": Doom 3 stops (idMD5Anim::CheckModelHierarchy: "joint names don't match anim")`));
          break;
        }
        if (joints.parents[j] !== anim.parents[j]) {
          out.push(finding(`${name}: joint ${j} ("${anim.names[j]}") has parent ${anim.parents[j]}, in the md5mesh ${joints.parents[j]}: Doom 3 stops (idMD5Anim::CheckModelHierarchy: "has different joint hierarchy than anim")`));
          break;
        }
      }
    }
  }
  return out;
}

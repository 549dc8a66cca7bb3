/**
 * The target engine's limits, checked on what a writer produced (`--validate`, the writers' `validate` option).
 * Each finding says which limit, the engine source that enforces it and where: a byte offset in the written
 * MD2/MD3 file, or the MD5 element by name.
 *
 * MD3 and MD2 are checked by reading the written bytes back with our own parsers, whose ENGINE_LIMIT warnings are
 * the audit of ioquake3's R_LoadMD3 and Quake 2's Mod_LoadAliasModel (docs/limits.md): one list of conditions for
 * reading and writing. What a fixed-size field cannot hold at all (a 65-byte name, a 2049th MD2 vertex) is refused
 * by the writer or the parser already; what is here are files the format holds and the engine will not load (or
 * loads wrongly).
 *
 * MD5 has no byte layout to point into; Doom 3's checks are on the data: idMD5Anim::LoadAnim (frames, joints,
 * frame rate, roots) and idMD5Anim::CheckModelHierarchy, which stops the game when an anim played on a mesh has
 * other joints (count, names or parents).
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../base/errors.js';
import type { Md5Anim, Md5Mesh } from '../base/model.js';
import { parseMd2 } from '../formats/md2/parser.js';
import { parseMd3 } from '../formats/md3/parser.js';

export type EngineTarget = 'md3' | 'md2' | 'md5';

const ENGINE_LIMIT = 'ENGINE_LIMIT';

/** ioquake3's limits that the MD3 `bytes` go past (empty when it loads the file). */
export function md3EngineLimits(bytes: Uint8Array): ParseWarning[] {
  return parseMd3(bytes).warnings.filter((w) => w.code === ENGINE_LIMIT);
}

/** Quake 2's limits that the MD2 `bytes` go past (empty when it loads the file). */
export function md2EngineLimits(bytes: Uint8Array): ParseWarning[] {
  return parseMd2(bytes).warnings.filter((w) => w.code === ENGINE_LIMIT);
}

const finding = (message: string): ParseWarning => ({ code: ENGINE_LIMIT, message, offset: 0 });

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

/** The writers' options. */
export interface WriteOptions {
  /**
   * Refuse what the target engine will not load: UNWRITABLE naming each limit (ioquake3 for MD3, Quake 2 for MD2,
   * Doom 3 for MD5) and where, instead of a file the game rejects. Off by default: a writer writes what the format
   * holds, so parse → write → parse is exact on every file, also those past an engine's limits.
   */
  validate?: boolean;
}

/** Throws UNWRITABLE listing `found` (at the first one's offset); nothing when it is empty. */
export function refuseEngineLimits(found: readonly ParseWarning[], engine: string): void {
  if (found.length === 0) return;
  const detail = `${engine} will not load what was written (validate): ${found.map((w) => w.message).join('; ')}`;
  throw new ModelParseError(ErrorCode.Unwritable, detail, { offset: found[0].offset });
}

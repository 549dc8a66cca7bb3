/**
 * Whether an md5anim can play on an md5mesh, and how they differ: a pure comparison of the two joint lists, so every
 * consumer (the posers, the glTF export, the format registry, the CLI) decides alike.
 *
 * The engines differ, and we follow Daemon, the engine that ships the Unvanquished pairs Doom 3 would refuse (its
 * naked human's 85-joint body plays anims from `human_nobsuit_common/` that name joint 32 `tag_head` where the mesh
 * says `head_tag`, or joints 4–5 `neck`/`neckcontol`):
 * - Daemon plays an anim on a mesh by joint index: `RE_BuildSkeleton` fills bone i from the anim's channel i (its
 *   parent from the anim, `channel->parentIndex`, which the cgame's CG_TransformSkeleton composes with), and
 *   `Tess_SurfaceMD5` skins the mesh's bone i with skeleton bone i; nothing compares names. `RE_CheckSkeleton`, the
 *   one name check (positional, ignoring case), is called by no Unvanquished code path (its cgame syscall went in 2014;
 *   in the XreaL-family cgames only the `testAnimation` debug command calls it). A different joint count is refused:
 *   bone i of the mesh would have no channel, or a channel no bone.
 * - Doom 3 (`Anim.cpp` idMD5Anim::CheckModelHierarchy) refuses any difference: count, exact name, or parent
 *   (gameLocal.Error).
 * So a name or parent difference is accepted and reported as an `ENGINE_LIMIT` warning naming Doom 3's stricter rule;
 * a different count is refused. Names in an anim may repeat (Daemon never looks them up).
 */
import type { ParseWarning } from '../base/errors.js';
import type { Md5Anim, Md5Mesh } from '../base/model.js';

export type AnimMeshDifference =
  | { kind: 'joint-count'; mesh: number; anim: number }
  /** `caseOnly`: the names agree ignoring case (Daemon's Q_stricmp). */
  | { kind: 'name'; joint: number; mesh: string; anim: string; caseOnly: boolean }
  | { kind: 'parent'; joint: number; name: string; mesh: number; anim: number };

export interface AnimMeshMatch {
  /** Whether Daemon plays the pair (see the file comment): by joint index, composed with the anim's parents. */
  accepted: boolean;
  /** Every difference, in joint order (a count difference alone: nothing else can be compared). */
  differences: AnimMeshDifference[];
}

type Joints = Pick<Md5Mesh['joints'], 'count' | 'names' | 'parents'>;
type AnimJoints = Pick<Md5Anim, 'jointCount' | 'names' | 'parents'>;

export function matchAnimToMesh(mesh: Joints, anim: AnimJoints): AnimMeshMatch {
  if (anim.jointCount !== mesh.count) return { accepted: false, differences: [{ kind: 'joint-count', mesh: mesh.count, anim: anim.jointCount }] };
  const differences: AnimMeshDifference[] = [];
  for (let j = 0; j < mesh.count; j++) {
    const m = mesh.names[j], a = anim.names[j];
    if (m !== a) differences.push({ kind: 'name', joint: j, mesh: m, anim: a, caseOnly: m.toLowerCase() === a.toLowerCase() });
    if (mesh.parents[j] !== anim.parents[j]) differences.push({ kind: 'parent', joint: j, name: m, mesh: mesh.parents[j], anim: anim.parents[j] });
  }
  return { accepted: true, differences };
}

/** One difference in words, naming the files when given (`walk.md5anim`, `body.md5mesh`). */
export function describeAnimMeshDifference(d: AnimMeshDifference, files: { mesh?: string; anim?: string } = {}): string {
  const inAnim = files.anim ? `in ${files.anim}` : 'in the anim';
  const inMesh = files.mesh ? `in ${files.mesh}` : 'in the mesh';
  switch (d.kind) {
    case 'joint-count':
      return `${files.anim ?? 'the anim'} has ${d.anim} joints, ${files.mesh ?? 'the mesh'} ${d.mesh}`;
    case 'name':
      return `joint ${d.joint} is "${d.anim}" ${inAnim} but "${d.mesh}" ${inMesh}${d.caseOnly ? ' (only letter case differs)' : ''}`;
    case 'parent':
      return `joint ${d.joint} ("${d.name}") has parent ${d.anim} ${inAnim} but ${d.mesh} ${inMesh}`;
  }
}

/** The files of a pairing, for messages (`body.md5mesh`, `walk.md5anim`). */
export interface AnimMeshFiles {
  mesh?: string;
  anim?: string;
}

/** What a pairing comes to, in words: the refusal (null when Daemon plays it) and its place, or the warnings. */
export interface AnimMeshVerdict {
  /** Why the anim cannot play on the mesh (ANIM_MESH_MISMATCH's detail), null when it can. */
  refusal: string | null;
  /** Where the refusal is (`joint 3 of walk.md5anim`, `its joint list of …`), for the error's position. */
  where: string;
  /** One `ENGINE_LIMIT` warning per difference Daemon accepts and Doom 3 refuses (a joint's name or parent). */
  warnings: ParseWarning[];
}

export function animMeshVerdict(mesh: Joints, anim: AnimJoints, files: AnimMeshFiles = {}): AnimMeshVerdict {
  const match = matchAnimToMesh(mesh, anim);
  const of = files.anim ?? 'the anim';
  if (!match.accepted) {
    const d = match.differences[0];
    return { refusal: describeAnimMeshDifference(d, files), where: `its joint list of ${of}`, warnings: [] };
  }
  const warnings = match.differences.map((d): ParseWarning => ({
    code: 'ENGINE_LIMIT',
    message: `${describeAnimMeshDifference(d, files)}: Daemon plays it${d.kind === 'parent' ? " with the anim's hierarchy (RE_BuildSkeleton)" : ' by joint index (RE_BuildSkeleton: bone i from channel i; names are not compared)'}, Doom 3 refuses the pair (idMD5Anim::CheckModelHierarchy)`,
    offset: 0,
  }));
  return { refusal: null, where: of, warnings };
}

/**
 * The format registry's question (`md5MeshFormat.acceptsCompanion`): null when the anim plays on the mesh, else the
 * refusal in words; warnings about accepted differences are pushed to `warnings`.
 */
export function animMeshMismatch(mesh: Md5Mesh, anim: Md5Anim, warnings: ParseWarning[] = [], files: AnimMeshFiles = {}): string | null {
  const verdict = animMeshVerdict(mesh.joints, anim, files);
  warnings.push(...verdict.warnings);
  return verdict.refusal;
}

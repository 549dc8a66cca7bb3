/**
 * Whether an md5anim can play on an md5mesh: the same joints (names and parents) in the same order. Doom 3 refuses
 * any difference (idAnimator::SetModel / idMD5Anim::CheckModelHierarchy: "model has different joint names" /
 * "different parent"); the caller decides what a difference means.
 */
import type { Md5Anim, Md5Mesh } from '../../base/model.js';

/** The first difference between the anim's joints and the mesh's, in words; null when they match. */
export function animMeshMismatch(mesh: Md5Mesh, anim: Md5Anim): string | null {
  const mj = mesh.joints;
  if (anim.jointCount !== mj.count) return `the anim has ${anim.jointCount} joints, the mesh ${mj.count}`;
  for (let j = 0; j < mj.count; j++) {
    if (anim.names[j] !== mj.names[j]) return `joint ${j} is "${anim.names[j]}" in the anim but "${mj.names[j]}" in the mesh`;
    if (anim.parents[j] !== mj.parents[j]) return `joint ${j} ("${mj.names[j]}") has parent ${anim.parents[j]} in the anim but ${mj.parents[j]} in the mesh`;
  }
  return null;
}

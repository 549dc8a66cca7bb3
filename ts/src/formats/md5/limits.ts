/**
 * Hard limits of the MD5 text parsers. Every declared count is checked against these BEFORE anything is
 * allocated for it, and no list is ever allocated at its declared size up front beyond
 * {@link LIMITS.initialElements} elements: arrays grow geometrically as elements actually arrive
 * (never past the declared count), so a tiny file that claims 16 million vertices costs a few KiB.
 *
 * Doom 3 has none of these limits (docs/limits.md, "MD5"): idRenderModelMD5::LoadModel and idMD5Mesh::ParseMesh
 * (`neo/renderer/Model_md5.cpp`) refuse only negative sizes (`count < 0`), idMD5Anim::LoadAnim (`neo/game/anim/
 * Anim.cpp`) numFrames and numJoints ≤ 0 and numAnimatedComponents outside [0, 6 × numJoints], and idToken grows
 * with its token. Joints are still allocated at the declared count (`parser-base.ts` jointCount), so `maxJoints`
 * bounds memory; the others predate growing lists and can go once the parsers' tests stop pinning them — the list
 * of changes is in docs/limits.md.
 */
import { MAX_TOKEN_BYTES } from '../../text/tokenizer.js';

export const LIMITS = {
  /** Longest single token (word, number or quoted string), in bytes → TOKEN_TOO_LONG. */
  maxTokenBytes: MAX_TOKEN_BYTES,
  /** md5mesh `numJoints` and md5anim `numJoints`. */
  maxJoints: 4096,
  /** md5mesh `numMeshes`. */
  maxMeshes: 4096,
  /** `numverts` per mesh block. */
  maxVertsPerMesh: 1 << 24,
  /** `numtris` per mesh block. */
  maxTrisPerMesh: 1 << 24,
  /** `numweights` per mesh block. */
  maxWeightsPerMesh: 1 << 24,
  /** md5anim `numFrames`. */
  maxFrames: 1 << 24,
  /** md5anim `numAnimatedComponents` ≤ this × `numJoints` (the engine's own check). */
  maxComponentsPerJoint: 6,
  /** Largest initial capacity (in elements: vertices, triangles, weights, frames) of a growable list. */
  initialElements: 1024,
  /** Largest initial capacity, in floats, of the md5anim frame store (grows by doubling afterwards). */
  initialFrameFloats: 1 << 16,
} as const;

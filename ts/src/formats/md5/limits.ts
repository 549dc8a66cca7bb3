/**
 * Hard limits of the MD5 text parsers. Every declared count is checked against these BEFORE anything is
 * allocated for it, and no list is ever allocated at its declared size up front beyond
 * {@link LIMITS.initialElements} elements: arrays grow geometrically as elements actually arrive
 * (never past the declared count), so a tiny file that claims 16 million vertices costs a few KiB.
 *
 * Doom 3 has none of these limits (docs/limits.md, "MD5"): idRenderModelMD5::LoadModel and idMD5Mesh::ParseMesh
 * (`neo/renderer/Model_md5.cpp`) refuse only negative sizes (`count < 0`), idMD5Anim::LoadAnim (`neo/game/anim/
 * Anim.cpp`) numFrames and numJoints ≤ 0 and numAnimatedComponents outside [0, 6 × numJoints], and idToken grows
 * with its token. The element counts are therefore bounded only by int32, as Doom 3's ParseInt bounds them: lists
 * grow as elements arrive, so memory follows the bytes read. Joints are still allocated at the declared count
 * (`parser-base.ts` jointCount), so `maxJoints` still bounds memory (docs/limits.md says what lifting it needs).
 */
import { MAX_TOKEN_BYTES } from '../../text/tokenizer.js';
import { MD5_MAX_JOINTS } from '../../base/model.js';

export const LIMITS = {
  /** Longest single token (word, number or quoted string), in bytes → TOKEN_TOO_LONG. */
  maxTokenBytes: MAX_TOKEN_BYTES,
  /** md5mesh `numJoints` and md5anim `numJoints`. */
  maxJoints: MD5_MAX_JOINTS,
  /** md5mesh `numMeshes`: Doom 3 refuses only `num < 0`; the int32 it parses is the only ceiling. */
  maxMeshes: 0x7fffffff,
  /** `numverts` per mesh block (ParseMesh: `count < 0` → "Invalid size"; no upper bound). */
  maxVertsPerMesh: 0x7fffffff,
  /** `numtris` per mesh block (as numverts). */
  maxTrisPerMesh: 0x7fffffff,
  /** `numweights` per mesh block (as numverts). */
  maxWeightsPerMesh: 0x7fffffff,
  /** md5anim `numFrames` (LoadAnim: `numFrames <= 0` → Error; we also accept 0; no upper bound). */
  maxFrames: 0x7fffffff,
  /** md5anim `numAnimatedComponents` ≤ this × `numJoints` (the engine's own check). */
  maxComponentsPerJoint: 6,
  /**
   * Largest initial capacity (in elements: vertices, triangles, weights, frames) of a growable list. 8192: a real
   * mesh's lists (a few thousand elements) need no doubling (1024 cost rifle_view.md5mesh 2% of its parse), while a
   * tiny file declaring huge counts still allocates ≤ 384 KiB for a mesh's three lists.
   */
  initialElements: 8192,
  /** Largest initial capacity, in floats, of the md5anim frame store (grows by doubling afterwards). */
  initialFrameFloats: 1 << 16,
} as const;

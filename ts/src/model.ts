/**
 * The data shapes every stage shares. Flat typed arrays, no object per vertex or per joint.
 *
 * Quaternion convention (the one and only one in this project; Rust `crates/core/src/quat.rs` states the same):
 * unit quaternions stored (x, y, z, w), Hamilton product, a vector is rotated as q·v·q*. MD5 files store only
 * x, y, z; we recover w = −sqrt(max(0, 1 − x² − y² − z²)) (the sign used by the MD5 format documentation and
 * assimp). Doom 3 itself stores +sqrt and uses transposed matrices, which is the same rotation.
 */

/** Joints of an md5mesh: the bind pose, in object space. */
export interface Md5Joints {
  count: number;
  names: string[];
  /** Parent index per joint, −1 for a root; always < own index (checked). */
  parents: Int32Array;
  /** Object-space bind positions, 3 per joint. */
  positions: Float32Array;
  /** Object-space bind orientations, 4 per joint (x, y, z, w), w recovered as described above. */
  orientations: Float32Array;
}

/** One `mesh { }` block of an md5mesh. */
export interface Md5MeshPart {
  /** From an optional `name "…"` line; '' when absent. */
  name: string;
  shader: string;
  vertexCount: number;
  /** Texture coordinates as written in the file (Doom 3's t grows downward), 2 per vertex. */
  uvs: Float32Array;
  /** First weight of each vertex (index into this mesh's weights). */
  weightStart: Uint32Array;
  /** Number of weights of each vertex (≥ 1). */
  weightCount: Uint32Array;
  triangleCount: number;
  /** 3 vertex indices per triangle, in file order. */
  triangles: Uint32Array;
  weightTotal: number;
  /** Joint index of each weight. */
  weightJoints: Uint32Array;
  /** Bias of each weight (not renormalised, as in the engine). */
  weightBiases: Float32Array;
  /** Position of each weight in its joint's space, 3 per weight. */
  weightPositions: Float32Array;
}

export interface Md5Mesh {
  format: 'md5mesh';
  version: number;
  commandline: string;
  joints: Md5Joints;
  meshes: Md5MeshPart[];
}

/** md5anim flag bits: which baseframe components a frame overrides, read in this order from startIndex. */
export const Md5AnimFlag = { Tx: 1, Ty: 2, Tz: 4, Qx: 8, Qy: 16, Qz: 32 } as const;

export interface Md5Anim {
  format: 'md5anim';
  version: number;
  commandline: string;
  frameCount: number;
  jointCount: number;
  frameRate: number;
  /** Components per frame (numAnimatedComponents). */
  componentCount: number;
  names: string[];
  parents: Int32Array;
  /** Flag bits per joint (see {@link Md5AnimFlag}). */
  flags: Uint8Array;
  /** First component of each joint inside a frame's component list. */
  startIndices: Uint32Array;
  /** Per frame: min xyz, max xyz (6 floats). */
  bounds: Float32Array;
  /** Per joint, local to its parent: tx ty tz qx qy qz (6 floats). */
  baseframe: Float32Array;
  /** frameCount × componentCount floats, frame-major. */
  frames: Float32Array;
}

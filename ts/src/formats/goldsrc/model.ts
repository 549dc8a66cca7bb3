/**
 * A Half-Life (GoldSrc) studio model as plain data: every table of `studiohdr_t` (Half-Life SDK `engine/studio.h`,
 * version 10) kept as the file says it, the geometry's triangle strips and fans ("tricmds") unrolled into triangles
 * of (vertex, normal, s, t) corners, the 8-bit textures with their own palettes. A sequence group file (`IDSQ`,
 * `<name>NN.mdl`) reads as a model of kind `seqgroup`: its header and bytes, which the sequences of that group read
 * their animation from. The animation values stay run-length encoded (`anim.ts` decodes them as the engine does).
 */
import type { ParseWarning } from '../../base/errors.js';

export interface GoldsrcBone {
  name: string;
  /** −1 for a root. */
  parent: number;
  flags: number;
  /** The bone controller driving each of the 6 channels (x y z, then the 3 angles), −1 for none. */
  controllers: Int32Array;
  /** Default channel values: position x y z, Euler angles (radians) x y z. */
  value: Float32Array;
  /** Scale of each channel's stored animation values. */
  scale: Float32Array;
}

export interface GoldsrcController {
  bone: number;
  /** STUDIO_X … STUDIO_ZR (which channel), with STUDIO_RLOOP (0x8000) for a wrapping angle. */
  type: number;
  start: number;
  end: number;
  rest: number;
  /** 0–3 for the entity's controllers, 4 the mouth. */
  index: number;
}

export interface GoldsrcHitbox {
  bone: number;
  group: number;
  min: Float32Array;
  max: Float32Array;
}

export interface GoldsrcEvent {
  frame: number;
  event: number;
  type: number;
  options: string;
}

export interface GoldsrcPivot {
  origin: Float32Array;
  start: number;
  end: number;
}

export interface GoldsrcSequence {
  label: string;
  fps: number;
  /** STUDIO_LOOPING (1). */
  flags: number;
  activity: number;
  actWeight: number;
  events: GoldsrcEvent[];
  frameCount: number;
  pivots: GoldsrcPivot[];
  /** STUDIO_X | STUDIO_Y | … : what of the motion bone's movement the engine removes. */
  motionType: number;
  motionBone: number;
  linearMovement: Float32Array;
  bbMin: Float32Array;
  bbMax: Float32Array;
  blendCount: number;
  /** Where the first blend's `mstudioanim_t` table starts, in the file of its group. */
  animOffset: number;
  blendType: [number, number];
  blendStart: [number, number];
  blendEnd: [number, number];
  blendParent: number;
  seqGroup: number;
  entryNode: number;
  exitNode: number;
  nodeFlags: number;
  nextSeq: number;
}

export interface GoldsrcSeqGroup {
  label: string;
  /** The path the group was compiled as (`models/man01.mdl`); engines look beside the model instead (companions.ts). */
  name: string;
}

export interface GoldsrcTexture {
  name: string;
  /** STUDIO_NF_FLATSHADE, CHROME, FULLBRIGHT, NOMIPS, ALPHA, ADDITIVE, MASKED (limits.ts names them). */
  flags: number;
  width: number;
  height: number;
  /** width × height palette indices, rows top to bottom. */
  pixels: Uint8Array;
  /** 256 RGB triples. */
  palette: Uint8Array;
}

export interface GoldsrcMesh {
  /** The skin reference (column of the skin families table) its texture is. */
  skinRef: number;
  normalCount: number;
  /** numtris as the header says (the strips and fans below are what is drawn). */
  declaredTriangles: number;
  /** Corners of the unrolled triangles, 4 shorts each: vertex, normal, s, t (texels). Winding as GL draws them. */
  corners: Int16Array;
}

export interface GoldsrcSubmodel {
  name: string;
  type: number;
  radius: number;
  /** Bone-local positions, 3 floats each; `vertexBones[i]` the bone vertex i moves with. */
  vertices: Float32Array;
  vertexBones: Uint8Array;
  normals: Float32Array;
  normalBones: Uint8Array;
  meshes: GoldsrcMesh[];
}

export interface GoldsrcBodyPart {
  name: string;
  /** The body value's divisor: submodel = (body / base) % models.length (StudioSetupModel). */
  base: number;
  models: GoldsrcSubmodel[];
}

export interface GoldsrcAttachment {
  name: string;
  type: number;
  bone: number;
  origin: Float32Array;
  vectors: Float32Array;
}

export interface GoldsrcModel {
  format: 'hl1mdl';
  /** A studio model (`IDST`), or a sequence group's file (`IDSQ`: header and animation bytes only). */
  kind: 'studio' | 'seqgroup';
  version: number;
  name: string;
  length: number;
  eyePosition: Float32Array;
  min: Float32Array;
  max: Float32Array;
  bbMin: Float32Array;
  bbMax: Float32Array;
  flags: number;
  bones: GoldsrcBone[];
  controllers: GoldsrcController[];
  hitboxes: GoldsrcHitbox[];
  sequences: GoldsrcSequence[];
  seqGroups: GoldsrcSeqGroup[];
  textures: GoldsrcTexture[];
  /** Where the textures' data starts (texturedataindex: the engine keeps only the header before it when 0 < it). */
  textureDataOffset: number;
  skinRefCount: number;
  /** numskinfamilies rows of numskinref texture indices. */
  skinFamilies: Int16Array[];
  bodyParts: GoldsrcBodyPart[];
  attachments: GoldsrcAttachment[];
  /** numtransitions² bytes: the node to go through from each entry node to each exit node. */
  transitionCount: number;
  transitions: Uint8Array;
  soundTable: number;
  soundIndex: number;
  soundGroups: number;
  soundGroupIndex: number;
  /** The file's bytes: where the sequences of group 0 (or of this group file) read their animation values. */
  bytes: Uint8Array;
  warnings: ParseWarning[];
}

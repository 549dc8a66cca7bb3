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

/**
 * The most joints an md5mesh or md5anim may declare here: joints are allocated at the declared count, so this bounds
 * that memory (Doom 3 has no limit: docs/limits.md). The MD5 readers refuse more, and the glTF import refuses to make
 * more (what it writes must read back).
 */
export const MD5_MAX_JOINTS = 4096;

export interface Md5Mesh {
  format: 'md5mesh';
  version: number;
  commandline: string;
  joints: Md5Joints;
  meshes: Md5MeshPart[];
  /**
   * What Doom 3 reads past without a word but a tool should hear of: `INDEX_MARKER` for a `vert`/`tri`/`weight N`
   * whose N is not its position (the engine parses N and ignores it). Absent on meshes not made by the parser.
   */
  warnings?: import('./errors.js').ParseWarning[];
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

// ——— MD2 (Quake 2): vertex animation, frames kept quantised ———

/** One skin record of an MD2: the 64-byte path the engine loads the texture from. */
export interface Md2Skin {
  /** Latin-1, cut at the first NUL. */
  name: string;
  /** The 64 bytes as stored (bytes after the NUL are often garbage from the exporter's memory). */
  bytes: Uint8Array;
}

/** A run of consecutive frames whose names differ only in trailing digits (`run1`..`run6` → `run`). */
export interface Md2Clip {
  name: string;
  firstFrame: number;
  frameCount: number;
}

/** glcmd kinds, as stored in {@link Md2GlCommands.kinds}. */
export const Md2GlKind = { Strip: 0, Fan: 1 } as const;

/**
 * The glcmd block decoded: triangle strips and fans, flat. Command c has vertices
 * [firstVertex[c], firstVertex[c + 1]) of `vertices` / `st`.
 */
export interface Md2GlCommands {
  commandCount: number;
  /** Per command: {@link Md2GlKind} (0 strip, 1 fan). */
  kinds: Uint8Array;
  /** commandCount + 1 entries; the last is the total glcmd vertex count. */
  firstVertex: Uint32Array;
  /** Per glcmd vertex: its xyz index, < vertexCount (checked). */
  vertices: Uint16Array;
  /** Per glcmd vertex: s, t as stored — already divided by the skin size (qdata wrote (pixel + 0.5) / size). */
  st: Float32Array;
}

export interface Md2Model {
  format: 'md2';
  version: number;
  skinWidth: number;
  skinHeight: number;
  skins: Md2Skin[];
  /** num_xyz: vertices per frame. */
  vertexCount: number;
  frameCount: number;
  /** Latin-1, cut at the first NUL. */
  frameNames: string[];
  /** 3 per frame: position = byte · scale + translate. */
  frameScales: Float32Array;
  /** 3 per frame. */
  frameTranslates: Float32Array;
  /** Quantised vertices as in the file, frame-major: 4 bytes per vertex (x, y, z, normalIndex); every normalIndex < 162 (checked). */
  frameVertices: Uint8Array;
  stCount: number;
  /** 2 per st: signed pixels as stored (t grows downward, as in the file). */
  st: Int16Array;
  triangleCount: number;
  /** 3 per triangle (index_xyz), each < vertexCount (checked). */
  trianglePositionIndices: Uint16Array;
  /** 3 per triangle (index_st), each < stCount (checked). */
  triangleStIndices: Uint16Array;
  /** null when the block is empty or invalid (then a GLCMDS_INVALID warning). */
  glCommands: Md2GlCommands | null;
  clips: Md2Clip[];
  warnings: import('./errors.js').ParseWarning[];
}

// ——— MD3 (Quake 3): vertex animation, frames kept quantised (int16), tags per frame ———

/** One surface (mesh) of an MD3: its own vertex count, triangles, texture coordinates and per-frame vertices. */
export interface Md3Surface {
  /** Latin-1, cut at the first NUL. */
  name: string;
  flags: number;
  vertexCount: number;
  triangleCount: number;
  /** Shader paths (Latin-1, cut at the first NUL) and the stored int32 index (the engine overwrites it at load). */
  shaders: { name: string; index: number }[];
  /** 3 per triangle, each < vertexCount (checked). */
  triangles: Uint32Array;
  /** 2 per vertex, shared by all frames, as stored (t grows downward). */
  st: Float32Array;
  /** As stored, frame-major: 4 int16 per vertex per frame — x, y, z (×1/64 to decode), packed normal (lat<<8 | lng). */
  xyzNormals: Int16Array;
}

export interface Md3Model {
  format: 'md3';
  /** 15. */
  version: number;
  /** Latin-1, cut at the first NUL. */
  name: string;
  flags: number;
  frameCount: number;
  /** Latin-1, cut at the first NUL (16-byte field). */
  frameNames: string[];
  /** 3 per frame. */
  frameMins: Float32Array;
  /** 3 per frame. */
  frameMaxs: Float32Array;
  /** 3 per frame. */
  frameLocalOrigins: Float32Array;
  /** 1 per frame. */
  frameRadii: Float32Array;
  /** Tags per frame. */
  tagCount: number;
  /** From frame 0 (every frame is checked to repeat them; a TAG_NAME_MISMATCH warning if not). */
  tagNames: string[];
  /** Frame-major, 3 per tag per frame. */
  tagOrigins: Float32Array;
  /** Frame-major, 9 per tag per frame: axis[0], axis[1], axis[2] as stored. */
  tagAxes: Float32Array;
  surfaces: Md3Surface[];
  warnings: import('./errors.js').ParseWarning[];
}

// ——— MDL (Quake): vertex animation, one scale and origin for every pose, frames kept quantised ———

/**
 * Which file this is: `IDPO` (Quake, version 6), `MD16` (QuakeForge's 16-bit variant of it: every pose stores a
 * second block of low bytes) or `RAPO` (Hexen II's version 50: texture coordinates indexed apart from positions).
 */
export type MdlVariant = 'IDPO' | 'MD16' | 'RAPO';

/** One skin record: a single picture, or a group of pictures the engine cycles through. */
export interface MdlSkin {
  /** The stored skin type: 0 is ALIAS_SKIN_SINGLE, anything else a group (the engines test `== ALIAS_SKIN_SINGLE`). */
  type: number;
  /** Its first picture in `skinPixels` (pictures numbered over every skin record, in file order). */
  firstPicture: number;
  /** 1 for a single picture; a group's stored count. */
  pictureCount: number;
  /** A group's intervals as stored (seconds: the time each picture ends, from the group's start); empty for a single picture. */
  intervals: Float32Array;
}

/** One frame record: a single pose, or a group of poses the engine plays by itself at the group's intervals. */
export interface MdlFrame {
  /** The stored frame type: 0 is ALIAS_SINGLE, anything else a group (the engines test `== ALIAS_SINGLE`). */
  type: number;
  /** Its first pose (poses numbered over every frame record, groups expanded). */
  firstPose: number;
  /** 1 for a single frame; a group's stored count (≥ 1, checked). */
  poseCount: number;
  /** A group's own bboxmin / bboxmax (daliasgroup_t), 4 bytes each as stored; a single frame's are its pose's. */
  boundsMin: Uint8Array;
  boundsMax: Uint8Array;
  /** A group's intervals as stored (the time each pose ends, from the group's start); empty for a single frame. */
  intervals: Float32Array;
}

/** Bytes after the last frame, which no engine's loader reads: where they start, how many, and the tag they open with. */
export interface MdlTrailing {
  offset: number;
  bytes: number;
  /** `QMEX` for the 2021 re-release's extension block, else null (then a TRAILING_BYTES warning). */
  tag: string | null;
}

export interface MdlModel {
  format: 'mdl';
  variant: MdlVariant;
  /** 6 (IDPO, MD16) or 50 (RAPO). */
  version: number;
  /** 3 floats: a pose byte b decodes to b · scale + origin on each axis (the same for every pose). */
  scale: Float32Array;
  /** scale_origin, 3 floats. */
  origin: Float32Array;
  /** boundingradius as stored. */
  radius: number;
  /** eyeposition as stored, 3 floats. */
  eyePosition: Float32Array;
  /** skinwidth and skinheight as stored (texel counts; st are in these texels). */
  skinWidth: number;
  skinHeight: number;
  /** numskins records. */
  skins: MdlSkin[];
  /** Every picture of every skin record, in file order. */
  pictureCount: number;
  /** The pictures' 8-bit palette indices as stored, skinWidth · skinHeight each, back to back, top row first. */
  skinPixels: Uint8Array;
  /** numverts: positions per pose. */
  vertexCount: number;
  /** Texture coordinates: numverts for IDPO and MD16 (one per position), num_st_verts for RAPO. */
  stCount: number;
  /** Per st vertex: onseam as stored (0: not on the seam; the engines test it for non-zero). */
  onseam: Int32Array;
  /** 2 per st vertex: s, t in skin texels, as stored (t grows downward). */
  st: Int32Array;
  triangleCount: number;
  /** Per triangle: facesfront as stored (0: the triangle faces backwards, and its seam vertices take the skin's back half). */
  facesFront: Int32Array;
  /** 3 per triangle, each < vertexCount (checked). */
  triangleVertexIndices: Uint16Array;
  /** 3 per triangle, each < stCount (checked): RAPO's own; IDPO and MD16 index st with the vertex index. */
  triangleStIndices: Uint16Array;
  /** numframes records. */
  frameCount: number;
  frames: MdlFrame[];
  /** Every pose of every frame record, groups expanded. */
  poseCount: number;
  /** Per pose: its 16-byte name, Latin-1, cut at the first NUL. */
  poseNames: string[];
  /** Per pose: its bboxmin and bboxmax, 4 bytes each as stored. */
  poseBoundsMin: Uint8Array;
  poseBoundsMax: Uint8Array;
  /** Quantised vertices as stored, pose-major, 4 bytes per vertex (x, y, z, lightnormalindex: MD2's layout); every normal index < 162 (checked). */
  frameVertices: Uint8Array;
  /** MD16 only: the second block of every pose (the low bytes: position = (high · 256 + low) · scale / 256 + origin), same layout. */
  frameVerticesLow: Uint8Array | null;
  /** synctype as stored (0 ST_SYNC, 1 ST_RAND). */
  synctype: number;
  /** flags as stored: EF_ROCKET 1, EF_GRENADE 2, EF_GIB 4, EF_ROTATE 8, EF_TRACER 16, EF_ZOMGIB 32, EF_TRACER2 64, EF_TRACER3 128 … */
  flags: number;
  /** size as stored. */
  size: number;
  /** Runs of poses whose names agree once trailing digits go (`stand1`..`stand9` → `stand`), as for MD2. */
  clips: Md2Clip[];
  /** Bytes after the frames, or null. */
  trailing: MdlTrailing | null;
  warnings: import('./errors.js').ParseWarning[];
}

// ——— IQM (Inter-Quake Model, version 2): skeletal, linear blend skinning, frames kept quantised (uint16) ———

/** IQM vertex array types (iqm.h); a type ≥ {@link IqmArrayType.Custom} names a custom array (text offset = type − Custom). */
export const IqmArrayType = { Position: 0, Texcoord: 1, Normal: 2, Tangent: 3, BlendIndexes: 4, BlendWeights: 5, Color: 6, Custom: 0x10 } as const;
/** IQM component formats (iqm.h). */
export const IqmFormat = { Byte: 0, Ubyte: 1, Short: 2, Ushort: 3, Int: 4, Uint: 5, Half: 6, Float: 7, Double: 8 } as const;
/** The anim flag bit that makes an anim loop (iqm.h IQM_LOOP). */
export const IQM_LOOP = 1;

/** Values of a vertex array as stored, typed by its format (HALF stays raw uint16 bits). */
export type IqmArrayData = Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

/** One vertex array record and its values (every array of the file, custom ones included, in file order). */
export interface IqmVertexArray {
  /** As stored: 0…6 standard, ≥ 0x10 custom. */
  type: number;
  /** `position`, `texcoord`, … for the standard types; the custom array's name from the text; `unknown<type>` for 7…15. */
  name: string;
  flags: number;
  format: number;
  /** Components per vertex. */
  size: number;
  /** vertexCount × size values, little-endian decoded; null when the format is not one of iqm.h's nine (the engines skip such arrays). */
  data: IqmArrayData | null;
}

export interface IqmMesh {
  name: string;
  material: string;
  firstVertex: number;
  vertexCount: number;
  firstTriangle: number;
  triangleCount: number;
}

/** Joints: the bind pose, each relative to its parent (translate, rotate quaternion x y z w, pre-scale). */
export interface IqmJoints {
  count: number;
  names: string[];
  /** −1 for a root; always below the joint's own index (checked). */
  parents: Int32Array;
  /** 3 per joint. */
  translate: Float32Array;
  /** 4 per joint (x, y, z, w), as stored (not normalised). */
  rotate: Float32Array;
  /** 3 per joint. */
  scale: Float32Array;
}

/** Channels 0–2 translate, 3–6 rotate (x y z w), 7–9 scale: value = offset + stored uint16 × scale where the mask bit is set. */
export interface IqmPoses {
  count: number;
  /** −1 for a root; below the pose's own index (checked). */
  parents: Int32Array;
  /** 10-bit channel mask per pose. */
  masks: Uint32Array;
  /** 10 per pose. */
  offsets: Float32Array;
  /** 10 per pose. */
  scales: Float32Array;
}

export interface IqmAnim {
  name: string;
  firstFrame: number;
  frameCount: number;
  framerate: number;
  flags: number;
  /** flags & IQM_LOOP. */
  loop: boolean;
}

export interface IqmExtension {
  name: string;
  data: Uint8Array;
}

export interface IqmModel {
  format: 'iqm';
  version: number;
  /** The header's flags word (iqm.h defines none). */
  flags: number;
  /** The text block as stored (names are offsets into it). */
  text: Uint8Array;
  meshes: IqmMesh[];
  vertexCount: number;
  /** Every vertex array record, as stored. */
  vertexArrays: IqmVertexArray[];
  /**
   * The standard arrays the engines read, when present in their engine formats (float 3/2/3/4, ubyte 4): else null.
   * Without `positions` the others are null too (no engine reads vertices then; each is vertexCount × its size).
   */
  positions: Float32Array | null;
  texcoords: Float32Array | null;
  normals: Float32Array | null;
  tangents: Float32Array | null;
  /** 4 per vertex. */
  blendIndexes: Uint8Array | null;
  /** 4 per vertex: ubyte (÷ 255) or float, as stored. */
  blendWeights: Uint8Array | Float32Array | null;
  /** 4 per vertex: ubyte or float, as stored. */
  colors: Uint8Array | Float32Array | null;
  triangleCount: number;
  /** 3 vertex indices per triangle (indices into the whole file's vertices), each < vertexCount (checked). */
  triangles: Uint32Array;
  /** 3 neighbouring triangles per triangle as stored (0xFFFFFFFF: none), or null when the file has no adjacency. */
  adjacency: Uint32Array | null;
  joints: IqmJoints;
  poses: IqmPoses;
  anims: IqmAnim[];
  frameCount: number;
  /** uint16 values per frame. */
  frameChannels: number;
  /** frameCount × frameChannels, as stored. */
  frames: Uint16Array;
  /** Per frame: bbmin xyz, bbmax xyz, xyradius, radius (8 floats), or null without ofs_bounds. */
  bounds: Float32Array | null;
  /** The comment block as stored (Latin-1). */
  comment: string;
  extensions: IqmExtension[];
  warnings: import('./errors.js').ParseWarning[];
}

// ——— a Quake 3 family animation.cfg, as parsed (formats/md3/animation-cfg.ts reads it) ———

// the names' lists are values: md3-animations.ts, so that the shapes here stay types (what loads this file does not carry them)
import type { MD3_BUILDABLE_ANIMATIONS, MD3_DERIVED_ANIMATIONS, MD3_NONSEGMENTED_ANIMATIONS, MD3_PLAYER_ANIMATIONS, MD3_UNVANQUISHED_PLAYER_ANIMATIONS } from './md3-animations.js';

export type Md3AnimationName =
  | (typeof MD3_PLAYER_ANIMATIONS)[number]
  | (typeof MD3_UNVANQUISHED_PLAYER_ANIMATIONS)[number]
  | (typeof MD3_DERIVED_ANIMATIONS)[number]
  | (typeof MD3_NONSEGMENTED_ANIMATIONS)[number]
  | 'NSPA_WALKBACK'
  | (typeof MD3_BUILDABLE_ANIMATIONS)[number];

/** Which game file the cfg is (see the file comment). */
export type AnimationCfgForm = 'player' | 'nonsegmented' | 'buildable';

/** Which game's list names a player file's animations (see the file comment). */
export type PlayerAnimationNames = 'quake3' | 'unvanquished';

export interface Md3Animation {
  name: Md3AnimationName;
  /**
   * player: into lower.md3 for BOTH_/LEGS_, into upper.md3 for BOTH_/TORSO_ (after the LEGS_ adjustment);
   * nonsegmented: into nonseg.md3; buildable: into each of the buildable's models.
   */
  firstFrame: number;
  /** ≥ 0 (a negative count in the file sets `reversed`). */
  numFrames: number;
  /** The last `loopFrames` frames repeat; 0 = play once and hold the last frame. */
  loopFrames: number;
  fps: number;
  /** trunc(1000 / fps): the engine's milliseconds per frame. */
  frameLerpMs: number;
  reversed: boolean;
  flipflop: boolean;
}

/**
 * A named clip, the same shape in every form: what the MD3 glTF exporter's `clips` option (`GltfClip`, which also
 * honours `reversed`) and the posers' timing (`md3ClipFrameAt`) take.
 */
export interface Md3AnimationClip {
  name: Md3AnimationName;
  firstFrame: number;
  frameCount: number;
  /** The last `loopFrames` frames repeat; 0 = play once and hold the last frame. */
  loopFrames: number;
  fps: number;
  reversed: boolean;
}

export interface Md3AnimationCfg {
  form: AnimationCfgForm;
  /** A player file's list: Quake 3's (ioquake3, Tremulous) or Unvanquished's; 'quake3' in the other forms. */
  playerNames: PlayerAnimationNames;
  sex: 'male' | 'female' | 'neuter';
  /** Quake 3's values, and Tremulous' `none` / `custom`. */
  footsteps: 'normal' | 'boot' | 'flesh' | 'mech' | 'energy' | 'none' | 'custom';
  headOffset: [number, number, number];
  fixedLegs: boolean;
  fixedTorso: boolean;
  /**
   * The form's animations in its enum order, then the derived ones: player — the 31 file animations (Unvanquished:
   * 43) and the 5 derived (animNumber_t order); nonsegmented — the 27 NSPA_* and NSPA_WALKBACK; buildable — the 14 BANIM_*.
   */
  animations: Md3Animation[];
  /** The same by name (only the form's names are present). */
  byName: Partial<Record<Md3AnimationName, Md3Animation>>;
  /**
   * Every animation with frames, as form-independent clips (FLAG_* left out: they index the CTF flag's model, not
   * the player's).
   */
  clips: Md3AnimationClip[];
  /** Whether a player file gave the Team Arena gestures itself (else they copy TORSO_GESTURE); false in other forms. */
  teamArena: boolean;
  warnings: import('./errors.js').ParseWarning[];
}

// ——— a Quake 3 player folder read whole (formats/md3/player-parts.ts) ———

export interface Md3PlayerModels {
  lower: Md3Model;
  upper: Md3Model;
  head: Md3Model;
  weapon?: Md3Model;
}

/** A player folder read whole: its parts and, when the folder has one, its animation.cfg. */
export interface Md3PlayerData {
  models: Md3PlayerModels;
  animations?: Md3AnimationCfg;
}

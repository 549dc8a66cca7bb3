/**
 * A model as a renderer builds it, by what kind of model it is — plain data (typed arrays, numbers and a few
 * functions that pose on a backend), no renderer's types: the `view` capability of a registration
 * (`FormatEntry.view`), which the three.js adapter (`three/`) turns into meshes, bones and clips with one builder per
 * kind and no format's name.
 *
 * - `morph`: vertex frames (MD2, MD3; next MDL): the geometry, its frames decoded two at a time and blended, the box
 *   every frame fits in, an int16 grid to keep positions on, clips as sequences of frames, and optional tags (MD3:
 *   named frames of reference per model frame, what other models hang on).
 * - `skinned`: joints (MD5; next IQM): the bind pose (joints, positions, normals), four influences per vertex for
 *   linear blend skinning, clips as sampled parent-relative joint transforms, and optionally a skinner with every
 *   weight (MD5's formula, where weights carry their own positions).
 * - `tagged`: parts that are morph views, each hanging on a tag of another (a Quake 3 player), and clips that move
 *   some parts and occupy named channels (a player's legs and torso play independently).
 *
 * Triangles are as the id formats store them (clockwise seen from the front), texture coordinates (s, t) with t
 * growing downward from the image's top row, positions in the file's own axes (Z up): the renderer turns them.
 */
import type { ParseWarning } from '../base/errors.js';
import type { PoseControls } from '../playable/playable.js';

export type Vec3 = [number, number, number];

/**
 * What the engine does with a model as a whole, beyond its frames, as plain facts from the file (any kind of view,
 * optional): a viewer shows them and may play them; the three.js builders leave them alone.
 */
export interface ViewExtras {
  /**
   * Degrees per second the engine turns the model about its up axis (Z) while drawing it: Quake's EF_ROTATE items
   * (100, QuakeSpasm CL_RelinkEntities `bobjrotate = anglemod(100 * cl.time)`).
   */
  spin?: number;
  /** The file's flags by their engine names (`EF_ROTATE`, `EF_ROCKET` …), for people. */
  flags?: readonly string[];
  /** Skins the file itself carries (an MDL's skin records), by the names the registration's `materials` takes as `skin`. */
  skins?: readonly string[];
  /**
   * What the model's engine sets besides clip and frame (a Half-Life model's bone controllers and blending), for a
   * UI to offer: each with its range. `FormatEntry.view(set, backend, controls)` bakes the clips with values set.
   */
  controls?: readonly ViewControl[];
}

/**
 * What `FormatEntry.view` bakes in besides the file: the pose controls (a Half-Life model's controllers and blending)
 * and the entity's body value (which submodel of each body part is drawn: StudioSetupModel's `(body / base) % n`).
 */
export interface ViewSettings extends PoseControls {
  body?: number;
}

/**
 * One setting of `ViewExtras.controls`: `controller` N (degrees or units), `blend` axis N (the engine's 0–255 byte),
 * or the `submodel` of body part N (0 … its count − 1; the body value is Σ submodel × `weight`, the part's base).
 */
export interface ViewControl {
  kind: 'controller' | 'blend' | 'submodel';
  index: number;
  /** For people: `controller 0 (bone "Bip01 Head", YR)`. */
  label: string;
  min: number;
  max: number;
  unit: 'degrees' | 'units' | 'byte' | 'submodel';
  /** Its value when none is given (no adjustment; blending 0; submodel 0). */
  rest: number;
  /** A submodel choice's body part base: what one step of it adds to the body value. */
  weight?: number;
}

/** An axis-aligned box. */
export interface ViewBounds {
  min: Vec3;
  max: Vec3;
}

/** A piece of the index drawn with its own material: material `i` of the model for group `i`. */
export interface ViewGroup {
  name: string;
  /** The shader, skin or material name its engine looks the image up by (what an untextured material is called). */
  material: string;
  /** Its first index into `triangles`, and how many indices (3 per triangle). */
  start: number;
  count: number;
}

/** Two frames blended on a backend: 3 floats per vertex each (they may be the poser's own views, valid until the next call). */
export interface FramePoser {
  pose(frame1: number, frame2: number, t: number): { positions: Float32Array; normals: Float32Array };
  /** Releases the poser's buffers; later calls throw. */
  dispose(): void;
}

/** A vertex-animation clip: the model frames it shows, one per key, and how it plays. */
export interface MorphClipView {
  name: string;
  /** The frames shown, one per key; a looping clip ends with the frame that follows its last (its first) one step later. */
  frames: readonly number[];
  /** Seconds per key. */
  step: number;
  /** Seconds of each key when they are not `k · step` (starting at 0, increasing): an MDL frame group's intervals. */
  times?: readonly number[];
  /** `repeat`: loops; `once`: plays once and holds its last frame (the engine's clip without a loop). */
  loop: 'repeat' | 'once';
  /** A loop over only the last frames of the clip (an intro first): what no whole-clip loop can show. */
  partialLoop?: { loopFrames: number; frameCount: number };
}

/** Named frames of reference that move with the frames (MD3 tags): what other models hang on. */
export interface TagView {
  /** As the file names them (may repeat or be empty). */
  names: readonly string[];
  /**
   * Tag `k` between two frames, into `out` (12 floats: the origin, then the three axes — the columns of its
   * rotation: a point p of a model hung on it lands at origin + Σ p[i] · axis[i]): lerped and each axis normalised
   * as the engine does (ioquake3 R_LerpTag), or with `orthonormal` made a rotation (Gram–Schmidt from the first axis).
   */
  place(k: number, frame1: number, frame2: number, t: number, out: Float32Array, orthonormal?: boolean): Float32Array;
}

export interface MorphModelView {
  kind: 'morph';
  vertexCount: number;
  frameCount: number;
  /** Frame names (a renderer's frame dictionary); may be empty. */
  frameNames: readonly string[];
  /** 3 per triangle into the vertices, clockwise. */
  triangles: Uint16Array | Uint32Array;
  /** 2 per vertex, t growing downward. */
  st: Float32Array;
  groups: readonly ViewGroup[];
  /** Every frame's positions lie in it; null without vertices or frames. */
  bounds: ViewBounds | null;
  /** A grid that holds every frame's positions as int16 (position = offset + q · step), exactly where the file's own is one. */
  grid: { step: number; offset: Vec3 };
  clips: readonly MorphClipView[];
  tags?: TagView;
  poser: FramePoser;
  warnings: ParseWarning[];
  extras?: ViewExtras;
}

/** A skeletal clip: every joint's parent-relative transform at each key. */
export interface SkinnedClipView {
  name: string;
  frameRate: number;
  frameCount: number;
  /** Seconds of each key (two at least: a still pose is two equal keys). */
  times: Float32Array;
  /**
   * Per joint (joint order): translation (3 per key), unit rotation (x y z w, 4 per key), scale (3 per key) when the
   * format has one; `scaleStep`: the scale holds each key until the next (an md5scale's per-frame scale), not lerped.
   */
  joints: readonly { translation: Float32Array; rotation: Float32Array; scale?: Float32Array; scaleStep?: boolean }[];
  loop: 'repeat' | 'once';
}

/** Four (joint, weight) pairs per vertex, weights summing to 1; and what keeping four cost. */
export interface ViewInfluences {
  joints: Uint16Array;
  weights: Float32Array;
  /** Vertices that had more than four joints (the largest kept, renormalised), and the largest share of weight dropped. */
  dropped: { vertices: number; maxWeight: number };
  /** Vertices without a positive weight, bound rigidly to their first joint. */
  unweighted: number;
}

/** Skinning on the CPU with every weight: the caller writes object-space joint matrices, then skins. */
export interface JointSkinner {
  /** Per joint, row-major 3×4 (rows: x, y, z; columns: the three axes and the translation), `stride` floats apart. Read it again after each `skin` (WASM memory may move). */
  readonly jointMatrices: Float32Array;
  readonly stride: number;
  /**
   * The joints it skins with, when fewer than the view's: the first `joints` (an md5mesh's own; the md5scale joints
   * after them, `formats/md5/view.ts`, are for a skin of four influences and are not drawn by it).
   */
  readonly joints?: number;
  /**
   * The view's joints after the first `joints` that scale a joint's weights (an md5mesh's `<joint>_md5scale`, each at
   * rest under its joint): `scaleJoints[k]` is the joint that view joint `joints + k` scales. The caller reads each
   * one's scale off its bone and passes them to `skin`, one per skinned joint (1 for none).
   */
  readonly scaleJoints?: readonly number[];
  skin(scales?: Float32Array): { positions: Float32Array; normals: Float32Array };
  dispose(): void;
}

export interface SkinnedModelView {
  kind: 'skinned';
  joints: {
    names: readonly string[];
    /** −1 for a root. */
    parents: ArrayLike<number>;
    /** The bind pose, parent-relative: 3 per joint, 4 per joint (unit, x y z w), and 3 per joint when the format has scale. */
    translations: ArrayLike<number>;
    rotations: ArrayLike<number>;
    scales?: ArrayLike<number>;
    /** Object space → each joint's bind space: 16 per joint, column-major. */
    inverseBind: ArrayLike<number>;
  };
  vertexCount: number;
  /** The bind pose: 3 per vertex. */
  positions: Float32Array;
  normals: Float32Array;
  st: Float32Array;
  /** 3 per triangle into the vertices, clockwise. */
  triangles: Uint32Array;
  groups: readonly ViewGroup[];
  /** The bind pose and every frame of every clip lie in it; null without vertices. */
  bounds: ViewBounds | null;
  clips: readonly SkinnedClipView[];
  /** For linear blend skinning. */
  influences(): ViewInfluences;
  /** Every weight skinned (formats whose weights a four-influence skin only approximates); takes over the view's poser. */
  exact?(): JointSkinner;
  /** Releases what the view holds that `exact` did not take. */
  dispose(): void;
  warnings: ParseWarning[];
  extras?: ViewExtras;
}

export interface TaggedPartView {
  /** What its objects are called after (`lower`). */
  name: string;
  view: MorphModelView;
  /** The part and tag it hangs on (none: the model's root). A tag the parent lacks hangs it on the parent itself, at its origin (R_LerpTag's identity). */
  on?: { part: string; tag: string };
}

export interface TaggedClipView extends MorphClipView {
  /** The parts whose frames it plays. */
  parts: readonly string[];
  /** The channels it occupies: a clip replaces what plays on them, and clips on other channels play on. */
  channels: readonly string[];
}

export interface TaggedModelView {
  kind: 'tagged';
  /** Parents before the parts hanging on them. */
  parts: readonly TaggedPartView[];
  clips: readonly TaggedClipView[];
  warnings: ParseWarning[];
  extras?: ViewExtras;
}

export type ModelView = MorphModelView | SkinnedModelView | TaggedModelView;

/** Frames first … first + count − 1, then the first again one step later (the loop's blend back into its start). */
export function loopingFrames(first: number, count: number): number[] {
  return [...Array.from({ length: count }, (_, k) => first + k), first];
}

/**
 * A poser of a model's own vertices as the `FramePoser` of its drawn vertices, each copying its position and normal
 * from the posed vertex `source[i]` after every pose: formats whose drawn vertices split the file's (MD2's distinct
 * (xyz, st) pairs, MDL's seam).
 */
export function gatheringPoser(
  poser: { poseBlend(frame1: number, frame2: number, t: number): unknown; readonly positions: Float32Array; readonly normals: Float32Array; dispose(): void },
  source: ArrayLike<number>,
): FramePoser {
  const n = source.length;
  const positions = new Float32Array(n * 3), normals = new Float32Array(n * 3);
  return {
    pose(frame1, frame2, t) {
      poser.poseBlend(frame1, frame2, t);
      const p = poser.positions, nn = poser.normals;
      for (let i = 0; i < n; i++) {
        const s = source[i] * 3;
        positions[i * 3] = p[s]; positions[i * 3 + 1] = p[s + 1]; positions[i * 3 + 2] = p[s + 2];
        normals[i * 3] = nn[s]; normals[i * 3 + 1] = nn[s + 1]; normals[i * 3 + 2] = nn[s + 2];
      }
      return { positions, normals };
    },
    dispose: () => poser.dispose(),
  };
}

/** Grows `box` (or makes it) to hold the points of `p` (3 floats each). */
export function growBounds(box: ViewBounds | null, p: ArrayLike<number>): ViewBounds | null {
  let b = box;
  for (let i = 0; i + 2 < p.length; i += 3) {
    const x = p[i], y = p[i + 1], z = p[i + 2];
    if (!b) {
      b = { min: [x, y, z], max: [x, y, z] };
      continue;
    }
    if (x < b.min[0]) b.min[0] = x;
    if (y < b.min[1]) b.min[1] = y;
    if (z < b.min[2]) b.min[2] = z;
    if (x > b.max[0]) b.max[0] = x;
    if (y > b.max[1]) b.max[1] = y;
    if (z > b.max[2]) b.max[2] = z;
  }
  return b;
}

/**
 * One int16 lattice over `bounds`, uniform (so normals need no correction), centred on the box: ≤ 1/65534 of its
 * largest side per step — for MD2's bytes × per-frame scale, 256 times finer than the file's own steps.
 */
export function gridOver(bounds: ViewBounds | null): { step: number; offset: Vec3 } {
  if (!bounds) return { step: 1, offset: [0, 0, 0] };
  const offset = [0, 1, 2].map((k) => (bounds.min[k] + bounds.max[k]) / 2) as Vec3;
  const half = Math.max(...[0, 1, 2].map((k) => (bounds.max[k] - bounds.min[k]) / 2));
  return { step: half > 0 ? half / 32767 : 1, offset };
}

/**
 * Clip names as every consumer shows them — the viewer's clip list, three.js's `AnimationClip`s, the glTF export's
 * animations: an empty name (frames named by digits alone, Quake's `progs/dog.mdl`, Tremulous' buildables) becomes
 * `clip<i>` (`anim<i>` for a skinned view's, as the glTF export names a bare md5anim), a repeated one `name_2`.
 */
export function distinctClipNames(names: readonly string[], fallback: string): string[] {
  const seen = new Set<string>();
  return names.map((raw, i) => {
    const base = raw || `${fallback}${i}`;
    let name = base;
    for (let k = 2; seen.has(name); k++) name = `${base}_${k}`;
    seen.add(name);
    return name;
  });
}

/** `view` with its clips named as {@link distinctClipNames} names them (the same object when they already are). */
export function withClipNames<V extends ModelView>(view: V): V {
  const names = distinctClipNames(view.clips.map((c) => c.name), view.kind === 'skinned' ? 'anim' : 'clip');
  if (names.every((n, i) => n === view.clips[i].name)) return view;
  return { ...view, clips: view.clips.map((c, i) => ({ ...c, name: names[i] })) };
}

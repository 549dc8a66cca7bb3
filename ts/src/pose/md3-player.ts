/**
 * A Quake 3 player: lower.md3 (legs), upper.md3 (torso), head.md3 and an optional weapon, chained by tags the way
 * ioquake3 `cg_players.c` CG_Player / `cg_ents.c` does it:
 * - the torso hangs on the legs' `tag_torso` (lerped with the legs' frames), the head on the torso's `tag_head`
 *   (lerped with the torso's frames), both with CG_PositionRotatedEntityOnTag: origin = parent origin + Σ
 *   tag.origin[i] · parent.axis[i]; axis = own · tag.axis · parent.axis (own = the part's own rotation, e.g. the
 *   head turning; identity unless given);
 * - the weapon on the torso's `tag_weapon` with CG_PositionEntityOnTag (no own rotation): axis = tag.axis ·
 *   parent.axis.
 * Axes are rows (axis[0] forward, axis[1] left, axis[2] up), a local point p lands at origin + Σ p[i] · axis[i].
 * Tags are lerped as the engine does (`lerpTag`, each axis normalised, not orthogonalised).
 *
 * Each part's result is a 3×4 matrix, row-major (`m·0 m·1 m·2 t·` per row, the project's joint-matrix layout):
 * world = M · (x, y, z, 1), plus the frame pair and blend to pose that part's vertices with.
 */
import type { Md3Model } from '../base/model.js';
import type { FrameBlend } from './md5-poser.js';
import type { ParseWarning } from '../base/errors.js';
import { MD3_PLAYER_ANIMATIONS, type Md3AnimationCfg, type Md3AnimationName } from '../formats/md3/animation-cfg.js';
import { md3ClipFrameAt } from './md3-clip.js';
import { md3LerpFramePositions, type Md3FramePose } from '../formats/md3/frame.js';
import { lerpTag, md3TagIndex, TAG_FLOATS } from './md3-tag.js';

export type Md3PlayerPart = 'lower' | 'upper' | 'head' | 'weapon';
const PARTS: readonly Md3PlayerPart[] = ['lower', 'upper', 'head', 'weapon'];

export interface Md3PlayerModels {
  lower: Md3Model;
  upper: Md3Model;
  head: Md3Model;
  weapon?: Md3Model;
}

/** What to pose: the legs' and torso's frame blends, optionally the part rotations and the player's origin. */
export interface Md3PlayerPoseInput {
  legs: FrameBlend;
  torso: FrameBlend;
  /** The head model's frames (default frame 0, as the game draws it). */
  head?: FrameBlend;
  /** The weapon model's frames (default frame 0). */
  weapon?: FrameBlend;
  /** World position of the legs (default 0, 0, 0). */
  origin?: ArrayLike<number>;
  /** 9 floats, 3 axes as rows (CG_PlayerAngles' outputs; default identity): the legs in the world, the torso relative to the legs' tag, the head relative to the torso's tag. */
  legsAxis?: ArrayLike<number>;
  torsoAxis?: ArrayLike<number>;
  headAxis?: ArrayLike<number>;
}

export interface Md3PartPose {
  /** 12 floats, 3 rows of (m0 m1 m2 t): world = M · (x, y, z, 1). */
  matrix: Float32Array;
  frame1: number;
  frame2: number;
  /** Weight of frame2. */
  t: number;
}

export type Md3PlayerPose = Record<'lower' | 'upper' | 'head', Md3PartPose> & { weapon?: Md3PartPose };

/** Where one surface's vertices are in the output of {@link Md3Player.positions}. */
export interface Md3PlayerSurfaceRange {
  part: Md3PlayerPart;
  surface: number;
  firstVertex: number;
  vertexCount: number;
}

const IDENTITY = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** out = a · b for 3×3 row-major matrices (q_math.c MatrixMultiply). `out` may not alias `a` or `b`. */
function mul3(a: ArrayLike<number>, b: ArrayLike<number>, out: Float64Array): Float64Array {
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) out[i * 3 + j] = a[i * 3] * b[j] + a[i * 3 + 1] * b[3 + j] + a[i * 3 + 2] * b[6 + j];
  }
  return out;
}

/** A part placed in the world: origin and axes (rows), kept in float64 while chaining. */
interface Placement {
  origin: Float64Array;
  axis: Float64Array;
}

function place(parent: Placement, tag: Float32Array, own: ArrayLike<number> | null): Placement {
  const origin = Float64Array.from(parent.origin);
  for (let i = 0; i < 3; i++) {
    for (let c = 0; c < 3; c++) origin[c] += tag[i] * parent.axis[i * 3 + c];
  }
  const tagAxis = tag.subarray(3, 12);
  const axis = own ? mul3(mul3(own, tagAxis, new Float64Array(9)), parent.axis, new Float64Array(9)) : mul3(tagAxis, parent.axis, new Float64Array(9));
  return { origin, axis };
}

function partPose(p: Placement, blend: FrameBlend, out: Md3PartPose | undefined): Md3PartPose {
  const matrix = out?.matrix ?? new Float32Array(12);
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) matrix[r * 4 + c] = p.axis[c * 3 + r];
    matrix[r * 4 + 3] = p.origin[r];
  }
  return { matrix, frame1: blend.frame1, frame2: blend.frame2, t: blend.t };
}

function requireTag(model: Md3Model, part: string, tag: string): void {
  if (md3TagIndex(model, tag) < 0) throw new RangeError(`the ${part} model has no ${tag} (its tags: ${JSON.stringify(model.tagNames)})`);
}

export class Md3Player {
  readonly models: Md3PlayerModels;
  readonly animations: Md3AnimationCfg | undefined;
  /** Output layout of {@link positions}: parts in order lower, upper, head, weapon; surfaces in file order. */
  readonly surfaces: Md3PlayerSurfaceRange[] = [];
  readonly vertexCount: number;
  /** Clips of the animation.cfg that reach past the frames of the model they play on (FRAME_RANGE). */
  readonly warnings: ParseWarning[] = [];
  private readonly scratch: Md3FramePose;
  private readonly tag = new Float32Array(TAG_FLOATS);

  constructor(models: Md3PlayerModels, animations?: Md3AnimationCfg) {
    requireTag(models.lower, 'lower', 'tag_torso');
    requireTag(models.upper, 'upper', 'tag_head');
    if (models.weapon) requireTag(models.upper, 'upper', 'tag_weapon');
    this.models = models;
    this.animations = animations;
    let first = 0;
    let largest = 0;
    for (const part of PARTS) {
      const model = models[part];
      if (!model) continue;
      model.surfaces.forEach((s, surface) => {
        this.surfaces.push({ part, surface, firstVertex: first, vertexCount: s.vertexCount });
        first += s.vertexCount;
        largest = Math.max(largest, s.vertexCount);
      });
    }
    this.vertexCount = first;
    this.scratch = { positions: new Float32Array(largest * 3), normals: new Float32Array(largest * 3) };
    if (animations) this.checkClips(animations);
  }

  /** BOTH_/LEGS_ clips must fit lower.md3, BOTH_/TORSO_ clips upper.md3 (the engine draws frame 0 otherwise). */
  private checkClips(cfg: Md3AnimationCfg): void {
    for (const a of cfg.animations.slice(0, MD3_PLAYER_ANIMATIONS.length)) {
      const models: Md3Model[] = a.name.startsWith('LEGS_') ? [this.models.lower] : a.name.startsWith('TORSO_') ? [this.models.upper] : [this.models.lower, this.models.upper];
      for (const m of models) {
        if (a.numFrames > 0 && a.firstFrame + a.numFrames > m.frameCount) {
          const part = m === this.models.lower ? 'lower' : 'upper';
          this.warnings.push({
            code: 'FRAME_RANGE',
            message: `${a.name} frames ${a.firstFrame}..${a.firstFrame + a.numFrames - 1} reach past the ${m.frameCount} frames of ${part}.md3`,
            offset: 0,
          });
        }
      }
    }
  }

  /** The frames a named clip of the animation.cfg shows `seconds` after it started. */
  clipFrameAt(name: Md3AnimationName, seconds: number): FrameBlend {
    if (!this.animations) throw new RangeError('this player was built without an animation.cfg');
    return md3ClipFrameAt(this.animations.byName[name], seconds);
  }

  /** Each part's matrix and frames (CG_Player's chain); reuses `out`'s matrices when given. */
  pose(input: Md3PlayerPoseInput, out?: Md3PlayerPose): Md3PlayerPose {
    const { lower, upper, weapon } = this.models;
    const origin = input.origin ?? [0, 0, 0];
    const legs: Placement = { origin: Float64Array.from({ length: 3 }, (_, i) => origin[i]), axis: Float64Array.from(input.legsAxis ?? IDENTITY) };
    const { legs: lb, torso: tb } = input;
    const torso = place(legs, lerpTag(lower, 'tag_torso', lb.frame1, lb.frame2, lb.t, this.tag), input.torsoAxis ?? IDENTITY);
    const headAt = place(torso, lerpTag(upper, 'tag_head', tb.frame1, tb.frame2, tb.t, this.tag), input.headAxis ?? IDENTITY);
    const still: FrameBlend = { frame1: 0, frame2: 0, t: 0 };
    const result: Md3PlayerPose = {
      lower: partPose(legs, lb, out?.lower),
      upper: partPose(torso, tb, out?.upper),
      head: partPose(headAt, input.head ?? still, out?.head),
    };
    if (weapon) {
      const gun = place(torso, lerpTag(upper, 'tag_weapon', tb.frame1, tb.frame2, tb.t, this.tag), null);
      result.weapon = partPose(gun, input.weapon ?? still, out?.weapon);
    }
    // lerpTag has checked the legs' and torso's frames; check the head's and weapon's here, not half-way through positions().
    for (const part of ['head', 'weapon'] as const) {
      const p = result[part];
      const m = this.models[part];
      if (!p || !m) continue;
      for (const f of [p.frame1, p.frame2]) {
        if (!Number.isInteger(f) || f < 0 || f >= m.frameCount) throw new RangeError(`${part} frame ${f} outside 0..${m.frameCount - 1}`);
      }
    }
    return result;
  }

  /**
   * World positions (and, when `normals` is given, world normals) of every vertex of every part, in
   * {@link surfaces} order, 3 floats per vertex. Each surface is posed with `md3LerpFramePositions` at its part's
   * frames, then moved by its part's matrix.
   */
  positions(pose: Md3PlayerPose, out: Float32Array = new Float32Array(this.vertexCount * 3), normals?: Float32Array): Float32Array {
    if (out.length < this.vertexCount * 3 || (normals && normals.length < this.vertexCount * 3)) {
      throw new RangeError(`output needs ${this.vertexCount * 3} floats`);
    }
    for (const range of this.surfaces) {
      const p = pose[range.part];
      const model = this.models[range.part];
      if (!p || !model) throw new RangeError(`the pose has no ${range.part}`);
      const local = md3LerpFramePositions(model, range.surface, p.frame1, p.frame2, p.t, this.scratch);
      const m = p.matrix;
      const src = local.positions;
      const nrm = local.normals;
      for (let v = 0, i = 0, o = range.firstVertex * 3; v < range.vertexCount; v++, i += 3, o += 3) {
        const x = src[i], y = src[i + 1], z = src[i + 2];
        out[o] = m[0] * x + m[1] * y + m[2] * z + m[3];
        out[o + 1] = m[4] * x + m[5] * y + m[6] * z + m[7];
        out[o + 2] = m[8] * x + m[9] * y + m[10] * z + m[11];
        if (normals) {
          const nx = nrm[i], ny = nrm[i + 1], nz = nrm[i + 2];
          const wx = m[0] * nx + m[1] * ny + m[2] * nz;
          const wy = m[4] * nx + m[5] * ny + m[6] * nz;
          const wz = m[8] * nx + m[9] * ny + m[10] * nz;
          const len = Math.hypot(wx, wy, wz) || 1;
          normals[o] = wx / len;
          normals[o + 1] = wy / len;
          normals[o + 2] = wz / len;
        }
      }
    }
    return out;
  }
}

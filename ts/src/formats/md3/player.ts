/**
 * A Quake 3 player posed on a backend: lower.md3 (legs), upper.md3 (torso), head.md3 and an optional weapon, chained by tags the way
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
 * Each part's placement is a 3×4 matrix, row-major (`m·0 m·1 m·2 t·` per row, the project's joint-matrix layout):
 * world = M · (x, y, z, 1), plus the frame pair and blend to pose that part's vertices with (`place`). `pose` then
 * runs the kernels: every surface's two frames blended (`md3Blend`), each part's vertices moved by its matrix
 * (`transformVertices`), all parts back to back in one `positions` / `normals` pair — the same jobs on WASM or TS.
 */
import type { ParseWarning } from '../../base/errors.js';
import type { Md3Model } from '../../base/model.js';
import type { Md3AnimationCfg, Md3AnimationName } from './animation-cfg.js';
import { MD3_PLAYER_PARTS as PARTS, playerTagWarnings, type Md3PlayerModels, type Md3PlayerPart } from './player-parts.js';

export type { Md3PlayerModels, Md3PlayerPart };
import { disposedError, type F32, type KernelBuffer, type Md3BlendJob, type PoseBackend, type TransformJob, type Typed } from '../../kernels/backend.js';
import { PLACEMENT_FLOATS } from '../../kernels/layout.js';
import { md3NormalBuffer } from '../../kernels/tables.js';
import { lerpTag, TAG_FLOATS } from '../../pose/md3-tag.js';
import { md3ClipFrameAt, type FrameBlend } from '../../pose/timing.js';



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
/** A tag at the origin with identity axes: origin xyz, then the three axes. */
const IDENTITY_TAG = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];

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

export class Md3Player {
  readonly backend: PoseBackend;
  readonly models: Md3PlayerModels;
  readonly animations: Md3AnimationCfg | undefined;
  /** Output layout of {@link positions}: parts in order lower, upper, head, weapon; surfaces in file order. */
  readonly surfaces: Md3PlayerSurfaceRange[] = [];
  readonly vertexCount: number;
  /** Tags the chain needs and a part lacks (MISSING_TAG), clips of the animation.cfg past their model's frames (FRAME_RANGE). */
  readonly warnings: ParseWarning[] = [];
  private readonly tag = new Float32Array(TAG_FLOATS);
  private readonly owned: KernelBuffer<Typed>[] = [];
  private readonly outPositions: F32;
  private readonly outNormals: F32;
  /** Per part present: its surfaces' blend jobs and the job placing its vertices. */
  private readonly partJobs: { part: Md3PlayerPart; blends: Md3BlendJob[]; place: TransformJob }[] = [];
  private lastPlacement: Md3PlayerPose | null = null;
  private disposed = false;

  constructor(backend: PoseBackend, models: Md3PlayerModels, animations?: Md3AnimationCfg) {
    this.backend = backend;
    this.models = models;
    this.animations = animations;
    let first = 0;
    for (const part of PARTS) {
      const model = models[part];
      if (!model) continue;
      model.surfaces.forEach((s, surface) => {
        if (s.xyzNormals.length !== model.frameCount * s.vertexCount * 4) throw new RangeError(`Md3Player: ${part} surface ${surface}'s vertex records disagree with frameCount × vertexCount`);
        this.surfaces.push({ part, surface, firstVertex: first, vertexCount: s.vertexCount });
        first += s.vertexCount;
      });
    }
    this.vertexCount = first;
    this.warnings.push(...playerTagWarnings(models).map(({ part, warning }) => ({ ...warning, message: `${part}.md3 has ${warning.message}` })));
    if (animations?.form === 'player') this.checkClips(animations);
    else if (animations) {
      // A Tremulous nonsegmented / buildable cfg numbers the frames of one model: clipFrameAt still gives them.
      this.warnings.push({ code: 'CFG_FORM', message: `the animation.cfg is a ${animations.form} file (one model's frames), not a segmented player's: its clips are not split over lower/upper`, offset: 0 });
    }

    const m = backend.memory;
    const normalTable = md3NormalBuffer(backend); // the backend's, not this player's: not owned
    const own = <B extends KernelBuffer<Typed>>(b: B): B => (this.owned.push(b), b);
    this.outPositions = own(m.f32(first * 3));
    this.outNormals = own(m.f32(first * 3));
    const frames = this.surfaces.map((r) => own(m.i16(this.models[r.part]!.surfaces[r.surface].xyzNormals.length)));
    const matrices = PARTS.filter((p) => models[p]).map(() => own(m.f32(PLACEMENT_FLOATS)));
    // All allocation is done: write the inputs once (views read after the last allocation).
    this.surfaces.forEach((r, i) => frames[i].view.set(this.models[r.part]!.surfaces[r.surface].xyzNormals));
    PARTS.filter((p) => models[p]).forEach((part, k) => {
      const ranges = this.surfaces.map((r, i) => ({ r, i })).filter((x) => x.r.part === part);
      const start = ranges.length ? ranges[0].r.firstVertex : 0;
      const count = ranges.reduce((n, x) => n + x.r.vertexCount, 0);
      this.partJobs.push({
        part,
        blends: ranges.map(({ r, i }) => ({
          xyzNormals: frames[i], normalTable, vertexCount: r.vertexCount, frameA: 0, frameB: 0, t: 0,
          outPositions: this.outPositions, outNormals: this.outNormals, outVertexOffset: r.firstVertex,
        })),
        place: { matrix: matrices[k], positions: this.outPositions, normals: this.outNormals, firstVertex: start, vertexCount: count },
      });
    });
  }

  /** World positions of every vertex of every part from the last `pose`, in {@link surfaces} order, 3 floats each. */
  get positions(): Float32Array {
    return this.alive().outPositions.view;
  }
  /** World unit normals of the last `pose`. */
  get normals(): Float32Array {
    return this.alive().outNormals.view;
  }
  /** Each part's placement and frames at the last `pose` (null before the first). */
  get parts(): Md3PlayerPose | null {
    return this.alive().lastPlacement;
  }

  /** BOTH_/LEGS_ clips must fit lower.md3, BOTH_/TORSO_ clips upper.md3 (the engine draws frame 0 otherwise). */
  private checkClips(cfg: Md3AnimationCfg): void {
    for (const a of cfg.animations.filter((x) => !x.name.startsWith('FLAG_'))) {
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

  /** The frames a named clip of the animation.cfg shows `seconds` after it started (NaN or ±Infinity: RangeError). */
  clipFrameAt(name: Md3AnimationName, seconds: number): FrameBlend {
    this.alive();
    if (!this.animations) throw new RangeError('this player was built without an animation.cfg');
    const clip = this.animations.byName[name];
    if (!clip) throw new RangeError(`this player's animation.cfg (${this.animations.form} form) has no clip ${name}`);
    return md3ClipFrameAt(clip, seconds);
  }

  /**
   * Each part's matrix and frames (CG_Player's chain), without posing vertices: where to attach things (a weapon,
   * a camera). Reuses `out`'s matrices when given.
   */
  place(input: Md3PlayerPoseInput, out?: Md3PlayerPose): Md3PlayerPose {
    this.alive();
    const { lower, upper, weapon } = this.models;
    const origin = input.origin ?? [0, 0, 0];
    const legs: Placement = { origin: Float64Array.from({ length: 3 }, (_, i) => origin[i]), axis: Float64Array.from(input.legsAxis ?? IDENTITY) };
    const { legs: lb, torso: tb } = input;
    const torso = place(legs, this.lerpTag(lower, 'tag_torso', lb), input.torsoAxis ?? IDENTITY);
    const headAt = place(torso, this.lerpTag(upper, 'tag_head', tb), input.headAxis ?? IDENTITY);
    const still: FrameBlend = { frame1: 0, frame2: 0, t: 0 };
    const result: Md3PlayerPose = {
      lower: partPose(legs, lb, out?.lower),
      upper: partPose(torso, tb, out?.upper),
      head: partPose(headAt, input.head ?? still, out?.head),
    };
    if (weapon) {
      const gun = place(torso, this.lerpTag(upper, 'tag_weapon', tb), null);
      result.weapon = partPose(gun, input.weapon ?? still, out?.weapon);
    }
    // lerpTag has checked the legs' and torso's frames; check the head's and weapon's here, not half-way through a pose.
    for (const part of ['head', 'weapon'] as const) {
      const p = result[part];
      const m = this.models[part];
      if (!p || !m) continue;
      for (const f of [p.frame1, p.frame2]) {
        if (!Number.isInteger(f) || f < 0 || f >= m.frameCount) throw new RangeError(`${part} frame ${f} outside 0..${m.frameCount - 1}`);
      }
      if (!(p.t >= 0 && p.t <= 1)) throw new RangeError(`${part} blend factor ${p.t} is not in [0, 1]`);
    }
    return result;
  }

  /** The tag blended as R_LerpTag does; a tag the model lacks is the identity (the engine's answer; see `warnings`). */
  private lerpTag(model: Md3Model, name: string, b: FrameBlend): Float32Array {
    if (model.tagNames.includes(name)) return lerpTag(model, name, b.frame1, b.frame2, b.t, this.tag);
    for (const f of [b.frame1, b.frame2]) {
      if (!Number.isInteger(f) || f < 0 || f >= model.frameCount) throw new RangeError(`frame ${f} outside 0..${model.frameCount - 1}`);
    }
    this.tag.set(IDENTITY_TAG);
    return this.tag;
  }

  /**
   * Places the parts (`place`) and poses every vertex: each surface's frames blended, then moved by its part's
   * matrix, on the backend. Read `positions`, `normals` and `parts` afterwards.
   */
  pose(input: Md3PlayerPoseInput): this {
    const placed = (this.lastPlacement = this.place(input, this.lastPlacement ?? undefined));
    const k = this.backend.kernels;
    for (const pj of this.partJobs) {
      const p = placed[pj.part]!;
      for (const j of pj.blends) {
        j.frameA = p.frame1;
        j.frameB = p.frame2;
        j.t = p.t;
        k.md3Blend(j);
      }
      pj.place.matrix.view.set(p.matrix);
      k.transformVertices(pj.place);
    }
    return this;
  }

  /** Give every buffer back to the backend. Every later call throws. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.backend.disposed) return;
    for (const b of this.owned) this.backend.memory.release(b);
  }

  private alive(): this {
    if (this.disposed) throw disposedError('this Md3Player');
    if (this.backend.disposed) throw disposedError(`the ${this.backend.name} backend of this Md3Player`);
    return this;
  }
}

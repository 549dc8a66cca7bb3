/**
 * A glTF document posed at a time: each animation's channels sampled (STEP, LINEAR with quaternion slerp,
 * CUBICSPLINE per glTF 2.0 Appendix C) onto the nodes' translation, rotation, scale and morph weights, then the
 * vertices of a primitive computed as glTF defines them — base + Σ weight·target, then skinned
 * (Σ jointWeight · jointWorld · inverseBind) or placed by its node's world matrix. Everything here is in glTF's own
 * axes; `gltf-md3.ts` converts to id's.
 */
import type { Animation, Mesh, Node, Primitive } from '@gltf-transform/core';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { mat4Invert, mat4Multiply } from '../base/mat4.js';
import { quatNormalize } from '../base/quat.js';
import { quatSlerp } from '../base/quat-slerp.js';

type Vec = number[];

/**
 * The inverse of a column-major 4×4 matrix. UNWRITABLE naming `what` when its determinant is not finite or not above
 * `minDet` in size.
 */
export function invertMatrix(m: ArrayLike<number>, what: string, minDet = 0): number[] {
  const { inverse, det } = mat4Invert(m, minDet);
  if (!inverse) throw new ModelParseError(ErrorCode.Unwritable, `${what} cannot be inverted (determinant ${det})`, { offset: 0 });
  return inverse;
}

/** Keys closer than this (seconds) to a sample time are taken as it: a float32 key time vs k / fps. */
const SNAP = 1e-5;

/**
 * The channel's value at `time` (clamped to its keys). `cursor` (the key the last call stopped at, for a time no
 * later than this one) resumes the search there: the keys before it are ≤ that time, so the answer is the one a
 * search from key 0 gives, and sampling F frames of a K-key channel in time order costs F + K steps, not F · K.
 */
export function sampleChannel(times: ArrayLike<number>, values: ArrayLike<number>, size: number, interpolation: string, path: string, time: number, cursor?: { key: number; time: number }): Vec {
  const n = times.length;
  const cubic = interpolation === 'CUBICSPLINE';
  const stride = cubic ? 3 * size : size;
  const at = (k: number, part = cubic ? 1 : 0) => Array.from({ length: size }, (_, i) => values[k * stride + part * size + i]);
  if (n === 0) return [];
  let k = cursor && cursor.time <= time ? cursor.key : 0;
  while (k + 1 < n && times[k + 1] <= time + SNAP) k++;
  if (cursor) {
    cursor.key = k;
    cursor.time = time;
  }
  if (k + 1 >= n || time <= times[0] + SNAP || Math.abs(time - times[k]) <= SNAP) return at(k);
  const dt = times[k + 1] - times[k];
  const t = (time - times[k]) / dt;
  if (interpolation === 'STEP') return at(k);
  if (cubic) {
    const p0 = at(k), p1 = at(k + 1), m0 = at(k, 2), m1 = at(k + 1, 0);
    const t2 = t * t, t3 = t2 * t;
    const v = p0.map((_, i) => (2 * t3 - 3 * t2 + 1) * p0[i] + (t3 - 2 * t2 + t) * dt * m0[i] + (-2 * t3 + 3 * t2) * p1[i] + (t3 - t2) * dt * m1[i]);
    return path === 'rotation' ? quatNormalize(v) : v;
  }
  const a = at(k), b = at(k + 1);
  return path === 'rotation' ? quatSlerp(a, b, t) : a.map((x, i) => x + (b[i] - x) * t);
}

/** The rest pose of every node (what an animation that does not drive a node leaves it at). */
export interface RestPose {
  restore(): void;
}

export function restPose(nodes: Node[]): RestPose {
  const saved = nodes.map((n) => ({ n, t: n.getTranslation(), r: n.getRotation(), s: n.getScale(), w: n.getWeights() }));
  // Only what changed is set back: each glTF Transform setter dispatches change events (a fifth of an import's time
  // when every node was set back every frame).
  const same = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.prototype.every.call(a, (x: number, i: number) => x === b[i]);
  return {
    restore() {
      for (const { n, t, r, s, w } of saved) {
        if (!same(n.getTranslation(), t)) n.setTranslation(t);
        if (!same(n.getRotation(), r)) n.setRotation(r);
        if (!same(n.getScale(), s)) n.setScale(s);
        if (!same(n.getWeights(), w)) n.setWeights(w);
      }
    },
  };
}

/**
 * Every scene node's world matrix for the current pose, computed once per frame parents first. glTF Transform's
 * `getWorldMatrix` climbs the parents of each node it is asked about, and each climb lists every property that
 * references the node (each skin that names a joint, each animation channel): posing P skinned primitives of J joints
 * that way costs P × J × depth × references per frame — quadratic when every primitive has its own skin naming the
 * same joints (measured: a 60-primitive, 60-skin CesiumMan spent 0.56 s of 3 s in those parent lists). Here each node
 * costs one local matrix and one product per frame.
 */
export class WorldMatrices {
  private readonly parents: (number | -1)[];
  private readonly index = new Map<Node, number>();
  private readonly world: number[][];

  /** `nodes`: the scene's nodes, parents before children (`sceneNodes`). */
  constructor(private readonly nodes: readonly Node[]) {
    nodes.forEach((n, i) => this.index.set(n, i));
    this.parents = nodes.map(() => -1);
    nodes.forEach((n, i) => n.listChildren().forEach((c) => this.parents[this.index.get(c)!] = i));
    this.world = nodes.map(() => []);
  }

  /** Recomputes every world matrix from the nodes' current transforms. */
  update(): this {
    this.nodes.forEach((n, i) => {
      const p = this.parents[i];
      this.world[i] = p < 0 ? Array.from(n.getMatrix()) : mat4Multiply(this.world[p], n.getMatrix());
    });
    return this;
  }

  /** The world matrix at the last `update`; a node outside the scene asks glTF Transform. */
  get = (n: Node): ArrayLike<number> => {
    const i = this.index.get(n);
    return i === undefined ? n.getWorldMatrix() : this.world[i];
  };
}

/**
 * The whole frame rate r at which every key of `animation` falls on a sample k / r (within a thousandth of a frame,
 * float32 key times allow for it), or null: keys at uneven times, or evenly spaced at a rate that is not whole (an
 * md5anim's frameRate is a whole number: Doom 3 reads it with ParseInt). The spacing tried is the shortest key
 * interval; sampling from 0 at r then keeps every key, and only the keys' instants.
 */
export function evenKeyRate(animation: Animation): number | null {
  const times: number[] = [];
  let shortest = Infinity;
  for (const sampler of animation.listSamplers()) {
    const input = sampler.getInput();
    if (!input) continue;
    for (let k = 0; k < input.getCount(); k++) {
      const t = input.getScalar(k);
      times.push(t);
      if (k > 0) {
        const d = t - input.getScalar(k - 1);
        if (d > 1e-6 && d < shortest) shortest = d;
      }
    }
  }
  if (!Number.isFinite(shortest)) return null;
  const rate = Math.round(1 / shortest);
  if (!(rate >= 1 && rate <= 1000) || Math.abs(1 / shortest - rate) > 1e-3 * rate) return null;
  return times.every((t) => Math.abs(t * rate - Math.round(t * rate)) <= 1e-3) ? rate : null;
}

/** The animation's length in seconds (its last key). */
export function duration(animation: Animation): number {
  let end = 0;
  for (const s of animation.listSamplers()) {
    const input = s.getInput();
    if (input && input.getCount() > 0) end = Math.max(end, input.getMax([])[0]);
  }
  return end;
}

/** The animation's channels read once; the returned function sets every node they drive to its value at a time. */
export function animationPlayer(animation: Animation): (time: number) => void {
  const channels = animation.listChannels().flatMap((ch, c) => {
    const node = ch.getTargetNode();
    const sampler = ch.getSampler();
    const path = ch.getTargetPath();
    const input = sampler?.getInput(), output = sampler?.getOutput();
    if (!node || !sampler || !path || !input || !output || input.getCount() === 0) return [];
    const times = Array.from({ length: input.getCount() }, (_, i) => input.getScalar(i));
    const values: number[] = [];
    for (let i = 0, el: number[] = []; i < output.getCount(); i++) values.push(...output.getElement(i, el));
    const interpolation = sampler.getInterpolation();
    const perKey = interpolation === 'CUBICSPLINE' ? 3 : 1;
    const size = path === 'weights' ? values.length / times.length / perKey : path === 'rotation' ? 4 : 3;
    // as many outputs as keys (three per key for CUBICSPLINE), each of the path's size: else sampling reads past them
    if (!Number.isInteger(size) || size < 1 || values.length !== times.length * perKey * size) {
      const name = animation.getName();
      throw new ModelParseError(ErrorCode.Unsupported, `animation "${typeof name === 'string' ? name : ''}" channel ${c} (${path}): ${values.length} output values for ${times.length} keys (${interpolation})`, { offset: 0 });
    }
    return [{ node, path, times, values, size, interpolation, cursor: { key: 0, time: -Infinity } }];
  });
  return (time) => {
    for (const { node, path, times, values, size, interpolation, cursor } of channels) {
      const v = sampleChannel(times, values, size, interpolation, path, time, cursor);
      if (path === 'translation') node.setTranslation(v as [number, number, number]);
      else if (path === 'rotation') node.setRotation(v as [number, number, number, number]);
      else if (path === 'scale') node.setScale(v as [number, number, number]);
      else if (path === 'weights') node.setWeights(v);
    }
  };
}

/** An attribute's elements as one Float32Array (null when the primitive has none). */
export function attribute(prim: Primitive, name: string): Float32Array | null {
  const a = prim.getAttribute(name);
  if (!a) return null;
  const size = a.getElementSize();
  const out = new Float32Array(a.getCount() * size);
  const el: number[] = [];
  for (let i = 0; i < a.getCount(); i++) out.set(a.getElement(i, el), i * size);
  return out;
}

/**
 * One primitive posed again and again (an import samples every frame): its attributes read into typed arrays
 * once, each pose writing into the same `positions` / `normals`. Skinning uses every JOINTS_n / WEIGHTS_n set
 * (glTF 2.0 §3.7.3.3), each vertex's matrix Σ weight · jointWorld · inverseBind blended in double precision.
 * Tested against the plain per-call reference `ts/test/reference/gltf-pose.ts` (bit for bit on the corpus samples).
 */
export class PrimitivePoser {
  readonly vertexCount: number;
  readonly positions: Float32Array;
  readonly normals: Float32Array;
  private readonly basePositions: Float32Array;
  private readonly baseNormals: Float32Array;
  private readonly targets: { position: Float32Array | null; normal: Float32Array | null }[];
  /** Per vertex `influences` (joint, weight) pairs: zero weights left out, unused slots weight 0. */
  private readonly influenceJoints: Uint32Array;
  private readonly influenceWeights: Float64Array;
  private readonly influences: number;
  private readonly jointNodes: Node[];
  private readonly inverseBinds: number[][];
  private readonly jointMatrices: Float64Array;

  constructor(
    private readonly node: Node,
    private readonly mesh: Mesh,
    prim: Primitive,
  ) {
    this.basePositions = attribute(prim, 'POSITION') ?? new Float32Array(0);
    this.vertexCount = this.basePositions.length / 3;
    this.baseNormals = attribute(prim, 'NORMAL') ?? new Float32Array(this.basePositions.length);
    this.positions = new Float32Array(this.basePositions.length);
    this.normals = new Float32Array(this.basePositions.length);
    this.targets = prim.listTargets().map((t) => ({ position: targetAttribute(t.getAttribute('POSITION')), normal: targetAttribute(t.getAttribute('NORMAL')) }));
    const skin = node.getSkin();
    const sets: [Float32Array, Float32Array][] = [];
    for (let k = 0; skin; k++) {
      const j = attribute(prim, `JOINTS_${k}`), w = attribute(prim, `WEIGHTS_${k}`);
      if (!j || !w) break;
      sets.push([j, w]);
    }
    this.influences = 4 * sets.length;
    this.influenceJoints = new Uint32Array(this.vertexCount * this.influences);
    this.influenceWeights = new Float64Array(this.vertexCount * this.influences);
    this.jointNodes = skin && sets.length ? skin.listJoints() : [];
    const ibm = skin?.getInverseBindMatrices();
    this.inverseBinds = this.jointNodes.map((_, i) => (ibm ? ibm.getElement(i, []) : [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]));
    this.jointMatrices = new Float64Array(16 * this.jointNodes.length);
    sets.forEach(([j, w], s) => {
      for (let v = 0; v < this.vertexCount; v++) {
        for (let k = 0; k < 4; k++) {
          const o = v * this.influences + 4 * s + k;
          const joint = j[4 * v + k];
          // a joint past the skin's contributes nothing
          if (w[4 * v + k] && joint < this.jointNodes.length) {
            this.influenceJoints[o] = joint;
            this.influenceWeights[o] = w[4 * v + k];
          }
        }
      }
    });
  }

  /**
   * Poses at the nodes' current transforms and morph weights; `local`: morph targets only (mesh space). `world`
   * gives nodes' world matrices (a `WorldMatrices` updated for this pose; default: glTF Transform's).
   */
  pose(local = false, world: (n: Node) => ArrayLike<number> = (n) => n.getWorldMatrix()): this {
    const { positions: p, normals: n, vertexCount: V } = this;
    p.set(this.basePositions);
    n.set(this.baseNormals);
    const weights = this.node.getWeights().length ? this.node.getWeights() : this.mesh.getWeights();
    this.targets.forEach((t, i) => {
      const w = weights[i] ?? 0;
      if (!w) return;
      if (t.position) for (let k = 0; k < 3 * V; k++) p[k] += w * t.position[k];
      if (t.normal) for (let k = 0; k < 3 * V; k++) n[k] += w * t.normal[k];
    });
    if (local) return this;
    if (this.jointNodes.length === 0) {
      const m = world(this.node);
      transformInPlace(m, p, n);
      return this;
    }
    const mats = this.jointMatrices;
    this.jointNodes.forEach((j, i) => mats.set(mat4Multiply(world(j), this.inverseBinds[i]), 16 * i));
    const m = new Float64Array(16);
    const I = this.influences;
    for (let v = 0; v < V; v++) {
      m.fill(0);
      for (let k = v * I, end = k + I; k < end; k++) {
        const w = this.influenceWeights[k];
        if (!w) continue;
        const b = 16 * this.influenceJoints[k];
        // the 12 entries `transform` reads (row 3 of an affine matrix is never used)
        m[0] += w * mats[b]; m[1] += w * mats[b + 1]; m[2] += w * mats[b + 2];
        m[4] += w * mats[b + 4]; m[5] += w * mats[b + 5]; m[6] += w * mats[b + 6];
        m[8] += w * mats[b + 8]; m[9] += w * mats[b + 9]; m[10] += w * mats[b + 10];
        m[12] += w * mats[b + 12]; m[13] += w * mats[b + 13]; m[14] += w * mats[b + 14];
      }
      transform(m, p, n, 3 * v);
    }
    return this;
  }
}

function targetAttribute(a: ReturnType<Primitive['getAttribute']>): Float32Array | null {
  if (!a) return null;
  const out = new Float32Array(a.getCount() * 3);
  const el: number[] = [];
  for (let i = 0; i < a.getCount(); i++) out.set(a.getElement(i, el).slice(0, 3), i * 3);
  return out;
}

/** Every position by the column-major matrix m and every normal by its 3×3 part, in place. */
export function transformInPlace(m: ArrayLike<number>, positions: Float32Array, normals: Float32Array): void {
  for (let o = 0; o < positions.length; o += 3) transform(m, positions, normals, o);
}

/** Position and normal at `o` through the column-major matrix m (normals by its 3×3 part). */
function transform(m: ArrayLike<number>, p: Float32Array, n: Float32Array, o: number): void {
  const x = p[o], y = p[o + 1], z = p[o + 2];
  const nx = n[o], ny = n[o + 1], nz = n[o + 2];
  for (let r = 0; r < 3; r++) {
    p[o + r] = m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r];
    n[o + r] = m[r] * nx + m[4 + r] * ny + m[8 + r] * nz;
  }
}

/**
 * A morph view (`formats/model-view.ts`: a vertex-animated model, or a part of a tagged one) as a three.js mesh,
 * two ways, both animated by the same clips (`morph-clips.ts`: tracks on `morphTargetInfluences`, one influence per
 * model frame):
 *
 * - `'targets'`: morph targets, three's own vertex animation, blended on the GPU. Target f is frame f (absolute, not
 *   relative: influences (1 − t, t) on frames a and b give exactly the engines' lerp), the base is frame 0. Compact
 *   where three allows it: positions are int16 on the view's grid (the mesh's `position` and
 *   `scale` hold the grid's offset and step, as GLTFLoader does for KHR_mesh_quantization) and normals snorm8 (three
 *   reads both through `BufferAttribute.getX`, which denormalises). three still uploads the frames as one float
 *   texture (WebGLMorphtargets: 2 RGBA32F texels per vertex per frame), and keeps the arrays here on the CPU.
 * - `'poser'`: a `MorphPoserMesh`, whose frames stay quantised as the file has them, in the poser's kernel buffers,
 *   and whose float position and normal attributes are rewritten before each draw from the influences the mixer set:
 *   two frames decoded and blended by our kernels for a clip's (1 − t, t), any number summed for cross-fades. Tag
 *   objects are placed by the same frames as the engine places them (`attachTags`: R_LerpTag's lerped, normalised
 *   axes as the object's matrix), so what hangs on them is where the game draws it, between frames too.
 */
import { BufferAttribute, BufferGeometry, DynamicDrawUsage, Float32BufferAttribute, Int16BufferAttribute, Int8BufferAttribute, Mesh, Sphere, type Material, type Object3D } from 'three';
import type { MorphModelView, TagView } from '../formats/model-view.js';
import { box3, indexAttribute, uvAttribute } from './space.js';

/** Floats of a placed tag: origin, then three axes. */
const TAG_FLOATS = 12;

export type MorphMode = 'targets' | 'poser';

/** Index (counter-clockwise), uv (v up) and one group per piece with triangles, material i for piece i. */
function baseGeometry(source: MorphModelView): BufferGeometry {
  const g = new BufferGeometry();
  g.setIndex(indexAttribute(source.triangles, source.vertexCount));
  g.setAttribute('uv', uvAttribute(source.st));
  source.groups.forEach((p, i) => {
    if (p.count > 0) g.addGroup(p.start, p.count, i);
  });
  return g;
}

/** Names for three's `morphTargetDictionary`: the frame names, first use wins; a name PropertyBinding would take for an index gets a prefix. */
function frameDictionary(names: readonly string[]): Record<string, number> {
  const dict: Record<string, number> = {};
  names.forEach((raw, f) => {
    const name = /^\d+$/.test(raw) || raw === '' ? `frame_${raw || f}` : raw;
    if (!(name in dict)) dict[name] = f;
  });
  return dict;
}

function quantisePositions(p: Float32Array, grid: MorphModelView['grid']): Int16Array {
  const q = new Int16Array(p.length);
  for (let i = 0; i < p.length; i++) {
    const v = Math.round((p[i] - grid.offset[i % 3]) / grid.step);
    q[i] = v > 32767 ? 32767 : v < -32767 ? -32767 : v;
  }
  return q;
}

function quantiseNormals(n: Float32Array): Int8Array {
  const q = new Int8Array(n.length);
  for (let i = 0; i < n.length; i++) q[i] = Math.max(-127, Math.min(127, Math.round(n[i] * 127)));
  return q;
}

/**
 * Morph targets for every frame (decoded once here, through the view's poser, which is disposed after).
 * `quantize: false` keeps float32 positions and normals (no mesh transform).
 */
export function morphTargetMesh(source: MorphModelView, materials: Material[], quantize = true): Mesh {
  const g = baseGeometry(source);
  const positions: BufferAttribute[] = [];
  const normals: BufferAttribute[] = [];
  const names = Object.entries(frameDictionary(source.frameNames));
  try {
    for (let f = 0; f < source.frameCount; f++) {
      const frame = source.poser.pose(f, f, 0);
      const p = quantize ? new Int16BufferAttribute(quantisePositions(frame.positions, source.grid), 3) : new Float32BufferAttribute(frame.positions.slice(), 3);
      const n = quantize ? new Int8BufferAttribute(quantiseNormals(frame.normals), 3, true) : new Float32BufferAttribute(frame.normals.slice(), 3);
      p.name = n.name = names.find(([, i]) => i === f)?.[0] ?? `frame_${f}`;
      positions.push(p);
      normals.push(n);
    }
  } finally {
    source.poser.dispose();
  }
  if (source.frameCount > 0) {
    g.setAttribute('position', positions[0]);
    g.setAttribute('normal', normals[0]);
  } else {
    g.setAttribute('position', new Float32BufferAttribute(new Float32Array(source.vertexCount * 3), 3));
  }
  if (source.frameCount > 1) {
    g.morphAttributes.position = positions;
    g.morphAttributes.normal = normals;
    g.morphTargetsRelative = false;
  }
  const mesh = new Mesh(g, materials);
  if (source.frameCount > 1) mesh.updateMorphTargets();
  if (quantize) {
    mesh.position.fromArray(source.grid.offset);
    mesh.scale.setScalar(source.grid.step);
  }
  return mesh;
}

/** The frames a pose shows and their weights, from three's influences (frame 0 is the base: it gets 1 − Σ). */
function weightedFrames(influences: readonly number[], out: { frames: number[]; weights: number[] }): void {
  out.frames.length = 0;
  out.weights.length = 0;
  let sum = 0;
  for (let f = 0; f < influences.length; f++) {
    const w = influences[f];
    if (w !== 0) {
      out.frames.push(f);
      out.weights.push(w);
      sum += w;
    }
  }
  if (Math.abs(1 - sum) > 1e-6) {
    const base = out.frames.indexOf(0);
    if (base >= 0) out.weights[base] += 1 - sum;
    else {
      out.frames.push(0);
      out.weights.push(1 - sum);
    }
  }
}

/**
 * A mesh whose vertices our kernels write from its `morphTargetInfluences` (set by an AnimationMixer or by hand) — the
 * frames stay quantised in the poser's buffers. One or two frames (a clip between two keys) are one blend kernel
 * call; more (a cross-fade) are decoded one by one and summed, normals renormalised.
 */
export class MorphPoserMesh extends Mesh {
  /** Marks meshes whose vertices the adapter writes (`IdTechModel.update` syncs every one). */
  readonly isPoserMesh = true;
  readonly source: MorphModelView;
  private readonly lastInfluences: number[] = [];
  private readonly picked = { frames: [] as number[], weights: [] as number[] };
  private tags: { view: TagView; objects: readonly Object3D[]; tag: Float32Array; sum: Float32Array } | null = null;

  constructor(source: MorphModelView, materials: Material[]) {
    const g = baseGeometry(source);
    g.setAttribute('position', new Float32BufferAttribute(new Float32Array(source.vertexCount * 3), 3).setUsage(DynamicDrawUsage));
    g.setAttribute('normal', new Float32BufferAttribute(new Float32Array(source.vertexCount * 3), 3).setUsage(DynamicDrawUsage));
    g.boundingBox = box3(source.bounds);
    g.boundingSphere = g.boundingBox.getBoundingSphere(new Sphere());
    super(g, materials);
    this.source = source;
    this.morphTargetInfluences = new Array<number>(source.frameCount).fill(0);
    this.morphTargetDictionary = frameDictionary(source.frameNames);
    this.onBeforeRender = () => {
      this.sync();
    };
    if (source.frameCount > 0) this.sync();
  }

  /**
   * Places `objects` (tag k of `tags` each) as the engine does for the frames this mesh shows: their `matrix` is
   * the tag lerped as R_LerpTag lerps it (origin and axes lerped, each axis normalised: not always a rotation), set
   * at every sync; `matrixAutoUpdate` is turned off, so position / quaternion tracks of a clip leave them alone.
   */
  attachTags(tags: TagView, objects: readonly Object3D[]): void {
    for (const o of objects) o.matrixAutoUpdate = false;
    this.tags = { view: tags, objects, tag: new Float32Array(TAG_FLOATS), sum: new Float32Array(TAG_FLOATS) };
    this.lastInfluences.length = 0;
    if (this.source.frameCount > 0) this.sync();
  }

  /** Writes the vertices (and tags) for the current influences; false when they did not change since the last call. */
  sync(): boolean {
    const inf = this.morphTargetInfluences!;
    const last = this.lastInfluences;
    if (last.length === inf.length && inf.every((w, i) => w === last[i])) return false;
    last.length = 0;
    last.push(...inf);
    const { frames, weights } = this.picked;
    weightedFrames(inf, this.picked);
    const pos = this.geometry.getAttribute('position') as BufferAttribute;
    const nrm = this.geometry.getAttribute('normal') as BufferAttribute;
    const P = pos.array as Float32Array, N = nrm.array as Float32Array;
    if (frames.length <= 2 && weights.every((w) => w >= 0 && w <= 1)) {
      const [a, b = a] = frames;
      const t = frames.length === 2 ? weights[1] / (weights[0] + weights[1]) : 0;
      const out = this.source.poser.pose(a ?? 0, b ?? 0, t);
      P.set(out.positions);
      N.set(out.normals);
    } else {
      P.fill(0);
      N.fill(0);
      frames.forEach((f, k) => {
        const out = this.source.poser.pose(f, f, 0);
        const w = weights[k];
        for (let i = 0; i < P.length; i++) {
          P[i] += w * out.positions[i];
          N[i] += w * out.normals[i];
        }
      });
      for (let i = 0; i < N.length; i += 3) {
        const len = Math.hypot(N[i], N[i + 1], N[i + 2]);
        if (len > 0) {
          N[i] /= len; N[i + 1] /= len; N[i + 2] /= len;
        }
      }
    }
    pos.needsUpdate = true;
    nrm.needsUpdate = true;
    if (this.tags) this.placeTags(frames, weights);
    return true;
  }

  private placeTags(frames: number[], weights: number[]): void {
    const { view, objects, tag, sum } = this.tags!;
    const lerp = frames.length <= 2 && weights.every((w) => w >= 0 && w <= 1);
    objects.forEach((o, k) => {
      if (lerp) {
        const [a = 0, b = a] = frames;
        view.place(k, a, b, frames.length === 2 ? weights[1] / (weights[0] + weights[1]) : 0, tag);
      } else {
        // a cross-fade: the weighted sum of the frames' tags, each axis normalised (R_LerpTag for any number of frames)
        sum.fill(0);
        frames.forEach((f, i) => {
          view.place(k, f, f, 0, tag);
          for (let c = 0; c < TAG_FLOATS; c++) sum[c] += weights[i] * tag[c];
        });
        tag.set(sum);
        for (let a = 3; a < 12; a += 3) {
          const len = Math.hypot(tag[a], tag[a + 1], tag[a + 2]);
          if (len > 0) for (let c = 0; c < 3; c++) tag[a + c] /= len;
        }
      }
      // columns: the axes (a point p of the attached model lands at origin + Σ p[i] · axis[i])
      o.matrix.set(tag[3], tag[6], tag[9], tag[0], tag[4], tag[7], tag[10], tag[1], tag[5], tag[8], tag[11], tag[2], 0, 0, 0, 1);
      o.matrixWorldNeedsUpdate = true;
    });
  }

  /** Frees the poser's kernel buffers (geometry and materials are freed separately, as three's own objects' are). */
  override dispose(): void {
    super.dispose();
    this.source.poser.dispose();
  }
}

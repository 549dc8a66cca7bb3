/**
 * glTF → Md5Mesh + one Md5Anim per animation (write them with `writeMd5Mesh` / `writeMd5Anim`). What becomes what:
 *
 * - joints: every joint of the skins the scene's meshes use, every mesh node without a skin (its vertices ride it
 *   rigidly) and every `tag_*` node, parents first (scene order); a joint's parent is its nearest ancestor that is
 *   a joint. When that leaves more than one root, a joint `origin` at the identity is put first and holds them
 *   (Doom 3 refuses an md5anim with two roots). Names are Latin-1 without `"`.
 * - bind: joint n's bind is the rigid part B_n of the inverse of its inverse bind matrix (a mesh node's: its rest
 *   world matrix), so a skeleton whose armature carries a scale still binds. In a frame, the joint is
 *   P_n = rigid(world_n · IBM_n · B_n): for every skinning matrix world_n · IBM_n that is rigid (rotation and
 *   translation, what MD5 can hold), Σ bias · P_n · (B_n⁻¹ v) is exactly glTF's Σ weight · world_n · IBM_n · v.
 * - weights: JOINTS_0/WEIGHTS_0 (and _1), zero weights dropped, biases as stored; weight positions B_n⁻¹ · v
 *   computed against the joint as Doom 3 will read it back (float32 x y z, w recovered), so the bind pose lands
 *   on the glTF's vertices to float32 precision. Morph targets cannot be held: the rest weights are applied
 *   (GLTF_MORPH_DROPPED when an animation drives them).
 * - meshes: one `mesh { }` per triangle primitive, shader = the material's name, uvs as stored (our exporter
 *   writes MD5 uvs unchanged), winding turned to id's clockwise.
 * - anims: each glTF animation sampled at `fps` (an integer: Doom 3 reads frameRate with ParseInt) from 0 to its
 *   last key; without `fps`, at the animation's own key rate when its keys are evenly spaced at a whole rate
 *   (`evenKeyRate`: every key kept, an md5anim of 601 frames at 60 comes back with 601), else at 24 with a
 *   GLTF_RESAMPLED warning; per joint the local (parent-relative) transform, quaternions written with w ≤ 0
 *   (docs/design.md); a component is flagged animated only when some frame moves it (a joint with none starts at
 *   component 0: assimp reads a start equal to numAnimatedComponents as no keys); baseframe = frame 0;
 *   per-frame bounds of the posed vertices.
 * - axes: glTF (x, y, z) → id (x, −z, y), a rotation, so quaternions keep w and turn their vector part.
 */
import type { Node } from '@gltf-transform/core';
import type { ParseWarning } from '../base/errors.js';
import { MD5_MAX_JOINTS, type Md5Anim, type Md5Mesh, type Md5MeshPart } from '../base/model.js';
import { MAT4_IDENTITY, mat4Multiply, nonRigidity, rigidMatrix, rigidPart, type Rigid } from '../base/mat4.js';
import { quatConjugate, quatMultiply, quatNormalize, quatRotate, recoverW, type Quat } from '../base/quat.js';
import { readGltfDocument, type GltfInput } from './gltf.js';
import { evenKeyRate, invertMatrix, PrimitivePoser, restPose, WorldMatrices } from './gltf-sample.js';
import { materialNames, type ImportTextureOptions, type TextureFile } from './gltf-textures.js';
import { checkImportBytes, checkSampling, field, importBounds, nameOf, unsupported, sampleFrames, sceneNodes, toId, trianglePrimitives, unwritable, type SampleFrame, type TrianglePrimitive } from './gltf-scene.js';

export interface GltfToMd5Options extends ImportTextureOptions {
  /**
   * Frames per second animations are sampled at (whole). Default: each animation's own key rate when its keys are
   * evenly spaced at a whole rate, else 24.
   */
  fps?: number;
  /** Uniform scale applied to positions (default 1). */
  scale?: number;
  /**
   * At most this many frames in all (default: `maxImportFrames` of the input's `limits` or the process's
   * `ResourceLimits`, 65,536): more is UNWRITABLE, naming the limit, before any frame is sampled.
   */
  maxFrames?: number;
  /** The `commandline` string of the files (default ''). */
  commandline?: string;
  /**
   * At most this many bytes sampled: per frame of all animations, 48 per joint (its 6 components in float64) and 4
   * per vertex (each is posed for the frame's bounds: counted as the least any id format holds, so the time stays
   * bounded too); default `maxImportBytes`, 64 MiB. More is UNWRITABLE, naming the limit, before anything is
   * sampled: 680 joints over 2,730 s asked for 45 million joint poses.
   */
  maxBytes?: number;
  /**
   * Bytes counted per joint per frame against `maxBytes` (default 48: the md5anim's poses). @internal gltfToIqm
   * counts what md5ToIqm holds besides (every channel of every frame in float64).
   */
  jointBytes?: number;
}

/** An animation of the glTF as an md5anim, and the name it came with (made safe for a file name). */
export interface GltfMd5Anim {
  name: string;
  anim: Md5Anim;
}

export interface GltfMd5 {
  mesh: Md5Mesh;
  anims: GltfMd5Anim[];
  warnings: ParseWarning[];
  /** The images the shaders name (with `texturePath`; gltf-textures.ts). */
  textures: TextureFile[];
}

/** A glTF-axes rigid transform in id axes, positions scaled: C·R·C⁻¹ keeps w and turns (x, y, z); t → s·C·t. */
function toIdRigid({ q, t }: Rigid, scale: number): Rigid {
  const v = toId(q[0], q[1], q[2]);
  return { q: [v[0], v[1], v[2], q[3]], t: toId(t[0] * scale, t[1] * scale, t[2] * scale) };
}

/** The MD5 convention: w ≤ 0 (the same rotation as its negation). */
const wNonPositive = (q: Quat): Quat => (q[3] > 0 ? [-q[0], -q[1], -q[2], -q[3]] : q);

const f32 = /* @__PURE__ */ new Float32Array(1);
const bits = /* @__PURE__ */ int32View(f32);

function int32View(a: Float32Array): Int32Array {
  return new Int32Array(a.buffer);
}
/** The float32 `steps` representable values away from float32 `v` (toward +∞ for positive steps). */
function ulpStep(v: number, steps: number): number {
  if (steps === 0) return v;
  f32[0] = v;
  if (v === 0) return steps > 0 ? 1.401298464324817e-45 * steps : -1.401298464324817e-45 * -steps;
  bits[0] += v > 0 ? steps : -steps;
  return f32[0];
}

/**
 * How far the rotation read back, (x, y, z, w) normalised as the poser does, is from unit q: sin of half the angle
 * between them, |vector part of q*·r| / |r| — stable for tiny angles, where 1 − q·r would round to 0.
 */
function rotationGap(q: Quat, x: number, y: number, z: number, w: number): number {
  const [a, b, c, d] = q; // q* · r, vector part
  const vx = d * x - w * a - (b * z - c * y);
  const vy = d * y - w * b - (c * x - a * z);
  const vz = d * z - w * c - (a * y - b * x);
  return Math.hypot(vx, vy, vz) / Math.hypot(x, y, z, w);
}

/**
 * rotationGap² without Math.hypot's care (its scaling costs most of a search): the same sums in plain arithmetic,
 * within a few ulps of it (every term a square, and nothing near overflow; an underflow only makes it smaller).
 * A triple whose rough gap² is past the best gap² by more than {@link ROUGH_MARGIN} cannot be nearer, and is passed
 * over without the exact gap; any other gets the exact one, so the search's answer is unchanged.
 */
function roughGap2(q: Quat, x: number, y: number, z: number, w: number): number {
  const a = q[0], b = q[1], c = q[2], d = q[3];
  const vx = d * x - w * a - (b * z - c * y);
  const vy = d * y - w * b - (c * x - a * z);
  const vz = d * z - w * c - (a * y - b * x);
  return (vx * vx + vy * vy + vz * vz) / (x * x + y * y + z * z + w * w);
}
const ROUGH_MARGIN = 1e-9;

/** Below this |w| the float32 rounding of x y z moves the recovered w by more than 1e-6: search their neighbours. */
const SMALL_W = 0.05;
/** How many float32 steps either way a component may move in that search. */
const NUDGE = 3;

/**
 * The float32 x y z to write for unit q so that the rotation Doom 3 reads back — w recovered as
 * −sqrt(1 − x² − y² − z²) in float32 — is nearest q. Rounding each component alone is enough when |w| is not
 * small; near a half turn the square root turns a 1e-8 rounding into 1e-4 in w (docs/design.md), so triples
 * around the rounded one are tried: each component in turn is the free one, the other two move up to NUDGE
 * float32 steps, and the free one is either its own neighbours or the value that puts the radicand at w² (a
 * small component has steps fine enough to set w where a large one's are not). The triple whose recovered
 * rotation is nearest q wins. Measured (ts/test/write/gltf-md5.test.ts): rifle_view through our glb and back
 * 3.1e-4 → 8e-7 × diagonal; Fox (a leg joint at w = −2e-4) 1.4e-4 → see docs/writers.md.
 */
export function md5QuaternionXyz(q: Quat): [number, number, number] {
  const n = wNonPositive(q);
  const r: [number, number, number] = [Math.fround(n[0]), Math.fround(n[1]), Math.fround(n[2])];
  if (Math.abs(n[3]) >= SMALL_W) return r;
  let best = r;
  let gap = rotationGap(n, r[0], r[1], r[2], recoverW(r[0], r[1], r[2]));
  const c = [0, 0, 0];
  const tryTriple = () => {
    const w = recoverW(c[0], c[1], c[2]);
    if (roughGap2(n, c[0], c[1], c[2], w) > gap * gap * (1 + ROUGH_MARGIN)) return;
    const g = rotationGap(n, c[0], c[1], c[2], w);
    if (g < gap) {
      gap = g;
      best = [c[0], c[1], c[2]];
    }
  };
  for (let free = 0; free < 3; free++) {
    const [a, b] = [(free + 1) % 3, (free + 2) % 3];
    for (let i = -NUDGE; i <= NUDGE; i++) {
      c[a] = ulpStep(r[a], i);
      for (let j = -NUDGE; j <= NUDGE; j++) {
        c[b] = ulpStep(r[b], j);
        const fix = Math.fround((n[free] < 0 ? -1 : 1) * Math.sqrt(Math.max(0, 1 - c[a] * c[a] - c[b] * c[b] - n[3] * n[3])));
        // the cube of NUDGE steps around r is the same for every free component: tried once (free 0), as a triple
        // tried again cannot be strictly nearer than the best so far — the answer is the same, a third fewer tries
        for (let pass = free === 0 ? 0 : 1; pass < 2; pass++) {
          const base = pass === 0 ? r[free] : fix;
          for (let k = -NUDGE; k <= NUDGE; k++) {
            c[free] = ulpStep(base, k);
            tryTriple();
          }
        }
      }
    }
  }
  return best;
}

/** The joint as an md5mesh stores it and a parser reads it back: float32 position and x y z, w recovered. */
function asRead({ q, t }: Rigid): Rigid {
  const [x, y, z] = md5QuaternionXyz(q);
  return { q: [x, y, z, recoverW(x, y, z)], t: [Math.fround(t[0]), Math.fround(t[1]), Math.fround(t[2])] };
}

/** A name md5 text can hold: Latin-1, no `"` or line break. */
const md5Name = (text: string, fallback: string) => field(text, Infinity).replace(/["\r\n]/g, '_') || fallback;

/** An animation name fit for `OUT_<name>.md5anim`. */
const fileSafe = (text: string) => text.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^\.+/, '');

/** A component changes across frames when it differs from frame 0 by more than float32 noise. */
const moves = (a: number, b: number) => Math.abs(a - b) > 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));

interface Joint {
  /** The node whose world matrix drives it; null for the added `origin`. */
  node: Node | null;
  name: string;
  parent: number;
  /** world · IBM · B = P: the constant right factor IBM · B (IBM: the skin's inverse bind matrix, or the inverse of a mesh/tag node's rest world matrix). */
  offset: readonly number[];
  /** The bind joint as a parser reads it back (id axes). */
  bind: Rigid;
}

export async function gltfToMd5(input: GltfInput, options: GltfToMd5Options = {}): Promise<GltfMd5> {
  const doc = await readGltfDocument(input);
  const fps = options.fps;
  const scale = options.scale ?? 1;
  checkSampling(fps, scale);
  const warnings: ParseWarning[] = [];
  const order = sceneNodes(doc);
  const bounds = importBounds(input, options);
  const prims = trianglePrimitives(order, warnings, bounds);
  // each primitive's attributes read once: its bind vertices and every sampled frame are posed by the same poser
  const posers = prims.map((p) => new PrimitivePoser(p.node, p.mesh, p.prim));
  const shaders = materialNames(doc, { texturePath: options.texturePath, extension: false });
  const rest = restPose(order);
  rest.restore();

  // The joint set: skin joints (with their inverse bind matrices), unskinned mesh nodes, tag_* nodes.
  const ibmOf = new Map<Node, number[]>();
  for (const p of prims) {
    const skin = p.node.getSkin();
    if (!skin || !p.prim.getAttribute('JOINTS_0')) {
      if (!ibmOf.has(p.node)) ibmOf.set(p.node, restInverse(p.node));
      continue;
    }
    const ibm = skin.getInverseBindMatrices();
    skin.listJoints().forEach((j, i) => {
      if (!ibmOf.has(j)) ibmOf.set(j, ibm ? ibm.getElement(i, []) : MAT4_IDENTITY.slice());
    });
  }
  for (const n of order) if (/^tag_/i.test(nameOf(n)) && !ibmOf.has(n)) ibmOf.set(n, restInverse(n));
  const jointNodes = order.filter((n) => ibmOf.has(n));
  // glTF 2.0 §5.29: a skin's joints belong to the scene of the mesh that uses it
  const inScene = new Set(order);
  for (const n of ibmOf.keys()) if (!inScene.has(n)) unsupported(`joint "${nameOf(n)}" of a skin is not a node of the scene`);
  if (jointNodes.length === 0) unwritable('no triangle mesh to convert: an md5mesh needs at least one joint');

  const joints: Joint[] = [];
  const indexOf = new Map<Node, number>();
  const ancestorJoint = (n: Node) => {
    for (let p = n.getParentNode(); p; p = p.getParentNode()) if (indexOf.has(p)) return indexOf.get(p)!;
    return -1;
  };
  const roots = jointNodes.filter((n) => {
    for (let p = n.getParentNode(); p; p = p.getParentNode()) if (ibmOf.has(p)) return false;
    return true;
  });
  if (roots.length > 1) joints.push({ node: null, name: 'origin', parent: -1, offset: MAT4_IDENTITY, bind: asRead({ q: [0, 0, 0, 1], t: [0, 0, 0] }) });
  const rootParent = roots.length > 1 ? 0 : -1;
  const names = new Set<string>();
  for (const n of jointNodes) {
    const ibm = ibmOf.get(n)!;
    const B = rigidPart(invertMatrix(ibm, `joint "${nameOf(n)}"'s inverse bind matrix`));
    let name = md5Name(nameOf(n), `joint${joints.length}`);
    while (names.has(name)) name += '_';
    names.add(name);
    indexOf.set(n, joints.length);
    const parent = ancestorJoint(n);
    const bind = asRead(toIdRigid(B, scale));
    if (![...bind.q, ...bind.t].every(Number.isFinite)) unwritable(`joint ${joints.length} ("${name}"): its bind transform is not finite in float32 (${bind.t.join(' ')})`);
    joints.push({ node: n, name, parent: parent < 0 ? rootParent : parent, offset: mat4Multiply(ibm, rigidMatrix(B)), bind });
  }
  if (joints.length > MD5_MAX_JOINTS) unwritable(`${joints.length} joints: more than the ${MD5_MAX_JOINTS} an md5mesh may declare here (docs/limits.md)`);

  const mesh: Md5Mesh = {
    format: 'md5mesh',
    version: 10,
    commandline: md5Name(options.commandline ?? '', ''),
    joints: {
      count: joints.length,
      names: joints.map((j) => j.name),
      parents: Int32Array.from(joints, (j) => j.parent),
      positions: Float32Array.from(joints.flatMap((j) => j.bind.t)),
      orientations: Float32Array.from(joints.flatMap((j) => j.bind.q)),
    },
    meshes: prims.map((p, i) => ({ ...meshPart(p, posers[i], joints, indexOf, scale, warnings), shader: md5Name(shaders.nameOf(p.prim.getMaterial()), '') })),
    warnings,
  };

  // Each animation at `fps`, or at its own even key rate (every key kept), else at 24.
  const animations = doc.getRoot().listAnimations();
  const rates = animations.map((a, index) => {
    if (fps !== undefined) return fps;
    const own = evenKeyRate(a);
    if (own !== null) return own;
    warnings.push({ code: 'GLTF_RESAMPLED', message: `animation ${index} ("${nameOf(a)}"): its keys are not evenly spaced at a whole frame rate: sampled at ${DEFAULT_FPS} fps (fps sets another)`, offset: 0 });
    return DEFAULT_FPS;
  });
  const frames = sampleFrames(doc, (_, index) => rates[index], bounds.maxFrames);
  const sampled = animations.length ? frames.length : 0;
  // counted before the loop: joints × frames (each joint's pose) and vertices × frames (posed for the bounds)
  const vertexCount = prims.reduce((n, p) => n + p.vertexCount, 0);
  const jointBytes = options.jointBytes ?? 48;
  checkImportBytes(`${sampled} frames of ${joints.length} joints (${jointBytes} bytes each) and ${vertexCount} vertices (4 bytes each)`, sampled * (jointBytes * joints.length + 4 * vertexCount), bounds.maxBytes);
  const drivesWeights = animations.some((a) => a.listChannels().some((c) => c.getTargetPath() === 'weights'));
  if (drivesWeights) warnings.push({ code: 'GLTF_MORPH_DROPPED', message: 'an animation drives morph target weights: MD5 has no morph targets, the rest weights are used', offset: 0 });

  const used = new Set<string>();
  const worlds = new WorldMatrices(order);
  const anims: GltfMd5Anim[] = animations.map((a, index) => {
    const own = frames.filter((f) => f.animation === index);
    let name = fileSafe(nameOf(a)) || `anim${index}`;
    while (used.has(name)) name += '_';
    used.add(name);
    return { name, anim: sampleAnim(own, joints, posers, rates[index], scale, mesh.commandline, rest, worlds, warnings) };
  });
  rest.restore();
  return { mesh, anims, warnings, textures: shaders.files };
}

/** Doom 3's usual md5anim rate: what an animation with uneven keys is sampled at when no fps is given. */
const DEFAULT_FPS = 24;

function restInverse(n: Node): number[] {
  return invertMatrix(n.getWorldMatrix(), `node "${nameOf(n)}"'s world matrix`);
}

/** One primitive as an md5mesh `mesh { }`: bind vertices → weights in joint space. */
function meshPart(p: TrianglePrimitive, poser: PrimitivePoser, joints: Joint[], indexOf: Map<Node, number>, scale: number, warnings: ParseWarning[]): Md5MeshPart {
  const V = p.vertexCount;
  const skin = p.node.getSkin();
  const sets = [0, 1, 2, 3]
    .map((k) => [p.prim.getAttribute(`JOINTS_${k}`), p.prim.getAttribute(`WEIGHTS_${k}`)] as const)
    .filter(([j, w]) => j && w);
  const skinned = !!skin && sets.length > 0;
  // Bind-space vertices: a skinned primitive's own positions (glTF skinning ignores the node's transform), an
  // unskinned one's in its node's rest world space; rest morph weights applied (PrimitivePoser at rest, unskinned).
  const bind = poser.pose(skinned).positions;
  const rigidJoint = indexOf.get(p.node) ?? 0;
  const weightStart = new Uint32Array(V), weightCount = new Uint32Array(V);
  const wj: number[] = [], wb: number[] = [], wp: number[] = [];
  const skinJoints = skin?.listJoints() ?? [];
  let unweighted = 0;
  for (let v = 0; v < V; v++) {
    weightStart[v] = wj.length;
    const pos = toId(bind[3 * v] * scale, bind[3 * v + 1] * scale, bind[3 * v + 2] * scale);
    if (!pos.every(Number.isFinite)) unwritable(`mesh "${p.name}" vertex ${v}: its bind position is not finite (${pos.join(' ')})`);
    const add = (joint: number, bias: number) => {
      const { q, t } = joints[joint].bind;
      const local = quatRotate(quatConjugate(q), [pos[0] - t[0], pos[1] - t[1], pos[2] - t[2]]);
      if (!local.every((x) => Number.isFinite(Math.fround(x)))) unwritable(`mesh "${p.name}" vertex ${v}: its position in joint ${joint}'s space is not finite in float32`);
      wj.push(joint);
      wb.push(bias);
      wp.push(...local);
    };
    if (skinned) {
      const el: number[] = [], we: number[] = [];
      const seen = new Map<number, number>();
      for (const [ja, wa] of sets) {
        ja!.getElement(v, el);
        wa!.getElement(v, we);
        for (let k = 0; k < el.length; k++) {
          if (!(we[k] > 0)) continue;
          if (!Number.isFinite(we[k])) unwritable(`mesh "${p.name}" vertex ${v}: weight ${we[k]}`);
          const node = skinJoints[el[k]];
          if (!node) unwritable(`mesh "${p.name}" vertex ${v}: joint ${el[k]} is past the skin's ${skinJoints.length} joints`);
          const j = indexOf.get(node)!;
          seen.set(j, (seen.get(j) ?? 0) + we[k]);
        }
      }
      for (const [j, bias] of seen) add(j, bias);
    }
    if (wj.length === weightStart[v]) {
      if (skinned) unweighted++;
      add(rigidJoint, 1);
    }
    weightCount[v] = wj.length - weightStart[v];
  }
  if (unweighted) warnings.push({ code: 'GLTF_UNWEIGHTED', message: `mesh "${p.name}": ${unweighted} vertices without a positive weight ride joint ${rigidJoint} ("${joints[rigidJoint].name}")`, offset: 0 });
  return {
    name: '',
    shader: '',
    vertexCount: V,
    uvs: Float32Array.from(p.uvs),
    weightStart,
    weightCount,
    triangleCount: p.triangles.length / 3,
    triangles: p.triangles,
    weightTotal: wj.length,
    weightJoints: Uint32Array.from(wj),
    weightBiases: Float32Array.from(wb),
    weightPositions: Float32Array.from(wp),
  };
}


function sampleAnim(
  frames: SampleFrame[],
  joints: Joint[],
  posers: PrimitivePoser[],
  fps: number,
  scale: number,
  commandline: string,
  rest: ReturnType<typeof restPose>,
  worlds: WorldMatrices,
  warnings: ParseWarning[],
): Md5Anim {
  const J = joints.length;
  const F = frames.length;
  const local = new Float64Array(F * J * 6);
  const bounds = new Float32Array(F * 6);
  let worstScale = 0;
  // each joint's last rotation and the x y z written for it: a joint that does not turn between frames is searched
  // once (md5QuaternionXyz near a half turn tries ~1,400 triples), not once a frame
  const lastQ = new Float64Array(4 * J), lastXyz = new Float64Array(3 * J), known = new Uint8Array(J);
  const xyzOf = (i: number, q: Quat): Float64Array => {
    const o = 4 * i;
    // Object.is: -0 is not 0 here (its sign can reach the x y z written), and NaN is NaN (the same answer again)
    if (!known[i] || !Object.is(lastQ[o], q[0]) || !Object.is(lastQ[o + 1], q[1]) || !Object.is(lastQ[o + 2], q[2]) || !Object.is(lastQ[o + 3], q[3])) {
      known[i] = 1;
      lastQ.set(q, o);
      lastXyz.set(md5QuaternionXyz(q), 3 * i);
    }
    return lastXyz.subarray(3 * i, 3 * i + 3);
  };
  frames.forEach((frame, f) => {
    rest.restore();
    frame.play?.(frame.time);
    worlds.update();
    const object: Rigid[] = [];
    joints.forEach((j, i) => {
      let P: Rigid = { q: [0, 0, 0, 1], t: [0, 0, 0] };
      if (j.node) {
        const m = mat4Multiply(worlds.get(j.node), j.offset);
        worstScale = Math.max(worstScale, nonRigidity(m));
        P = toIdRigid(rigidPart(m), scale);
      }
      object.push(P);
      let q = P.q, t = P.t;
      if (j.parent >= 0) {
        const parent = object[j.parent];
        const inv = quatConjugate(parent.q);
        t = quatRotate(inv, [t[0] - parent.t[0], t[1] - parent.t[1], t[2] - parent.t[2]]);
        q = quatMultiply(inv, q);
      }
      const values = [t[0], t[1], t[2], ...xyzOf(i, quatNormalize(q))];
      if (!values.every((x) => Number.isFinite(Math.fround(x)))) unwritable(`frame ${f} (${frame.time.toFixed(3)} s) joint ${i} ("${j.name}"): its transform is not finite in float32 (${values.join(' ')})`);
      local.set(values, (f * J + i) * 6);
    });
    const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
    const glo = [Infinity, Infinity, Infinity], ghi = [-Infinity, -Infinity, -Infinity];
    for (const poser of posers) {
      const { positions } = poser.pose(false, worlds.get);
      // glTF's box, then in id axes (toId: x, −z, y) and scaled: no array per vertex
      for (let o = 0; o < positions.length; o += 3) {
        for (let k = 0; k < 3; k++) {
          const x = positions[o + k];
          if (x < glo[k]) glo[k] = x;
          if (x > ghi[k]) ghi[k] = x;
        }
      }
    }
    if (glo[0] !== Infinity) {
      const a = toId(glo[0] * scale, glo[1] * scale, glo[2] * scale), b = toId(ghi[0] * scale, ghi[1] * scale, ghi[2] * scale);
      for (let k = 0; k < 3; k++) (lo[k] = Math.min(a[k], b[k])), (hi[k] = Math.max(a[k], b[k]));
    }
    if (lo[0] === Infinity) lo.fill(0), hi.fill(0);
    if (![...lo, ...hi].every((x) => Number.isFinite(Math.fround(x)))) unwritable(`frame ${f} (${frame.time.toFixed(3)} s): a posed vertex is not finite in float32 (bounds ${lo.join(' ')} ${hi.join(' ')})`);
    bounds.set([...lo, ...hi], 6 * f);
  });
  if (worstScale > 1e-3) {
    warnings.push({ code: 'GLTF_SCALE_DROPPED', message: `a joint's skinning matrix scales or shears (by up to ${worstScale.toExponential(2)}): MD5 joints hold rotation and translation only`, offset: 0 });
  }
  // Flags: the components some frame moves; baseframe: frame 0.
  const flags = new Uint8Array(J);
  const startIndices = new Uint32Array(J);
  let C = 0;
  for (let i = 0; i < J; i++) {
    const start = C;
    for (let c = 0; c < 6; c++) {
      const first = local[i * 6 + c];
      for (let f = 1; f < F; f++) {
        if (moves(local[(f * J + i) * 6 + c], first)) {
          flags[i] |= 1 << c;
          C++;
          break;
        }
      }
    }
    // A joint with no animated component reads none (Doom 3, our parser), so any start does; 0 rather than the
    // running count, which past the last animated joint equals numAnimatedComponents and makes assimp's MD5 loader
    // skip the joint's keys and refuse the file ("Empty node animation channel").
    startIndices[i] = flags[i] ? start : 0;
  }
  const baseframe = Float32Array.from(local.subarray(0, J * 6));
  const data = new Float32Array(F * C);
  for (let f = 0, o = 0; f < F; f++) {
    for (let i = 0; i < J; i++) for (let c = 0; c < 6; c++) if (flags[i] & (1 << c)) data[o++] = local[(f * J + i) * 6 + c];
  }
  return {
    format: 'md5anim',
    version: 10,
    commandline,
    frameCount: F,
    jointCount: J,
    frameRate: fps,
    componentCount: C,
    names: joints.map((j) => j.name),
    parents: Int32Array.from(joints, (j) => j.parent),
    flags,
    startIndices,
    bounds,
    baseframe,
    frames: data,
  };
}

/**
 * IQM → glTF 2.0: one skinned mesh per IQM mesh, all sharing one skin; one glTF animation per IQM anim (the
 * model's own, then those of the animation files handed in).
 *
 * - Joints become nodes with the file's local TRS (translate, rotate normalised, scale). `inverseBindMatrices` are
 *   the kernels' inverse bind matrices (`iqmBind`, ioquake3's R_LoadIQM arithmetic), so the skin at rest reproduces
 *   the file's vertices, which are written as stored: IQM vertices are the bind pose.
 * - Each mesh's vertices are its range [first_vertex, first_vertex + num_vertexes); its triangles are re-based on
 *   first_vertex (as ioquake3 does) and written (a, c, b): IQM winds clockwise seen from the front, glTF
 *   counter-clockwise. Texture coordinates as stored (t grows downward in IQM and in glTF). Tangents (xyz
 *   normalised, w ±1) when the file has them and the mesh's material has a normal map; colours as COLOR_0.
 * - JOINTS_0 / WEIGHTS_0: the four blend indexes and weights, read as RB_IQMSurfaceAnim reads them (weights in order
 *   up to the first one ≤ 0), then renormalised to sum 1 in float32 as glTF requires (byte weights already sum to
 *   255/255 in well-made files). A vertex ioquake3 leaves unskinned (first weight ≤ 0) has no glTF equivalent: it
 *   is bound to joint 0 and counted in one NO_POSITIVE_WEIGHT warning.
 * - An anim's frames are keyed at (frame − first_frame) / framerate seconds (Tesseract's 10 fps when the file gives
 *   none), LINEAR (glTF lerps translations and scales and slerps rotations in local space, ioquake3's
 *   interpolation); translation and rotation per joint, scale where a frame's scale is not 1. `extras` keep the
 *   IQM loop flag and frame range. Frames are decoded by the TS kernel (`iqmDecodeFrame`), the posers' own code.
 * - Animation-only files (Red Eclipse's) play on the mesh when Tesseract would pair them (`iqmAcceptsCompanion`);
 *   otherwise ANIM_MESH_MISMATCH. An entry with a `clip` is one glTF animation of exactly that name, frames and rate
 *   (the registry hands in a model set's clips so: `formats/iqm/clips.ts`, an `iqm.cfg`'s cuts and rates, a
 *   `.framegroups`' groups); entries playing the model itself replace its own anims.
 */
import { ErrorCode, ModelParseError, type ParseWarning } from '../../base/errors.js';
import { shortName } from '../../base/message-name.js';
import { overLimit, resourceLimits } from '../../base/resource-limits.js';
import type { IqmModel } from '../../base/model.js';
import { quatNormalize } from '../../base/quat.js';
import { iqmAcceptsCompanion } from '../../pose/iqm-anim-match.js';
import { iqmBindMatrices, iqmDecodeFrame } from '../../kernels/ts-iqm-kernels.js';
import { IQM_BIND_STRIDE, IQM_CHANNELS } from '../../kernels/layout.js';
import { IQM_DEFAULT_FPS } from '../../pose/iqm-anim-match.js';
import { iqmInfluences } from './influences.js';
import { counterClockwise } from '../../pose/winding.js';
import { vertexTangents } from '../../export/gltf-tangents.js';
import { convertMatrix, type Axes } from '../../export/gltf-axes.js';
import { BufferTarget, setRotationKey, type GltfAnimation, type GltfBuilder } from '../../export/gltf-builder.js';
import type { ExportContext } from '../../export/gltf-context.js';
import { buildGltfDocument, type GltfOptions } from '../../export/gltf.js';
import { imageConverter } from '../../export/image-convert.js';

/** An IQM whose anims play on the mesh (an animation-only file, or another file sharing the skeleton), and a label. */
export interface NamedIqmAnimation {
  /** Names the glTF animation of a file with one anim; prefixes `name/anim` for a file with several; a clip's name. */
  name: string;
  anim: IqmModel;
  /** Frames [firstFrame, firstFrame + frameCount) of `anim`'s stored frames at `fps`: one animation (else one per anim). */
  clip?: { firstFrame: number; frameCount: number; fps: number; loop: boolean };
}


/** Row-major 3×4 (ioquake3) → column-major 4×4 in float64. */
function columns(r: ArrayLike<number>, at: number): Float64Array {
  const m = new Float64Array(16);
  for (let row = 0; row < 3; row++) for (let c = 0; c < 4; c++) m[c * 4 + row] = r[at + row * 4 + c];
  m[15] = 1;
  return m;
}

/** The glTF animations' sources: the model's own frames, then each handed-in file's. */
function animationSources(model: IqmModel, extra: readonly (NamedIqmAnimation | IqmModel)[]): { label: string | null; anim: IqmModel; clip?: NamedIqmAnimation['clip'] }[] {
  const out: { label: string | null; anim: IqmModel; clip?: NamedIqmAnimation['clip'] }[] = [];
  const replaced = extra.some((a) => 'anim' in a && a.anim === model);
  if (!replaced && model.frameCount > 0 && model.anims.length > 0 && model.poses.count === model.joints.count) out.push({ label: null, anim: model });
  for (const a of extra) out.push('anim' in a ? { label: a.name, anim: a.anim, clip: a.clip } : { label: null, anim: a });
  return out;
}

/** Adds the model to the builder; returns the nodes to put at the scene root. */
export function addIqm(ctx: ExportContext, model: IqmModel, name: string, anims: readonly (NamedIqmAnimation | IqmModel)[] = []): { rootNodes: number[] } {
  const { builder: b, axes } = ctx;
  const J = model.joints.count;
  const sources = animationSources(model, anims);
  for (const s of sources) {
    if (s.anim === model) continue;
    const why = iqmAcceptsCompanion(model, s.anim, 'iqm', ctx.warnings);
    if (why) throw new ModelParseError(ErrorCode.AnimMeshMismatch, `anim ${JSON.stringify(s.label ?? s.anim.anims[0]?.name ?? '')}: ${why}`, { offset: 0 });
  }

  // ——— skeleton ———
  const jointNodes: number[] = [];
  const roots: number[] = [];
  let skin: number | undefined;
  if (J > 0) {
    const jt = model.joints;
    for (let j = 0; j < J; j++) {
      const q = quatNormalize(jt.rotate.subarray(j * 4, j * 4 + 4));
      const translation = [0, 0, 0], rotation = [0, 0, 0, 1];
      axes.vec(jt.translate[j * 3], jt.translate[j * 3 + 1], jt.translate[j * 3 + 2], translation, 0);
      axes.quat(q[0], q[1], q[2], q[3], rotation, 0);
      const s = [jt.scale[j * 3], jt.scale[j * 3 + 1], jt.scale[j * 3 + 2]];
      const node = b.add('nodes', { name: jt.names[j], translation, rotation });
      if (s.some((x) => x !== 1)) {
        const scale = [0, 0, 0];
        // a scale is a diagonal: converting it permutes its axes (a sign would be a mirror, which C is not)
        axes.vec(s[0], s[1], s[2], scale, 0);
        b.json.nodes[node].scale = scale.map(Math.abs);
      }
      jointNodes.push(node);
    }
    for (let j = 0; j < J; j++) {
      const p = jt.parents[j];
      if (p < 0) roots.push(jointNodes[j]);
      else (b.json.nodes[jointNodes[p]].children ??= []).push(jointNodes[j]);
    }
    const bind = new Float32Array(J * IQM_BIND_STRIDE), invBind = new Float32Array(J * IQM_BIND_STRIDE);
    iqmBindMatrices(jt.parents, jt.translate, jt.rotate, jt.scale, bind, invBind);
    const ibm = new Float32Array(J * 16);
    for (let j = 0; j < J; j++) convertMatrix(axes, columns(invBind, j * IQM_BIND_STRIDE), ibm, j * 16);
    skin = b.add('skins', { name: 'skeleton', joints: jointNodes, inverseBindMatrices: b.accessor(ibm, 'MAT4'), ...(roots.length === 1 ? { skeleton: roots[0] } : {}) });
  }

  // ——— meshes ———
  const skinned = skin !== undefined && model.blendIndexes !== null && model.blendWeights !== null;
  const meshNodes: number[] = [];
  let unskinned = 0, outside = 0, zeroNormals = 0;
  model.meshes.forEach((mesh, i) => {
    const label = mesh.name || `mesh${i}`;
    const vc = mesh.vertexCount, first = mesh.firstVertex;
    if (vc === 0 || mesh.triangleCount === 0 || !model.positions) {
      ctx.warnings.push({ code: 'EMPTY_MESH', message: `mesh ${i} ("${label}") has no ${vc === 0 || !model.positions ? 'vertices' : 'triangles'}: not exported`, offset: 0 });
      return;
    }
    const positions = new Float32Array(vc * 3);
    const normals = model.normals ? new Float32Array(vc * 3) : null;
    const tangents = model.tangents ? new Float32Array(vc * 4) : null;
    for (let v = 0; v < vc; v++) {
      const s = (first + v) * 3;
      axes.vec(model.positions![s], model.positions![s + 1], model.positions![s + 2], positions, v * 3);
      if (normals) {
        const n = model.normals!;
        const len = Math.hypot(n[s], n[s + 1], n[s + 2]);
        if (len > 0) axes.vec(n[s] / len, n[s + 1] / len, n[s + 2] / len, normals, v * 3);
        else {
          zeroNormals++;
          axes.vec(0, 0, 1, normals, v * 3);
        }
      }
      if (tangents) {
        const t = model.tangents!, o = (first + v) * 4;
        const len = Math.hypot(t[o], t[o + 1], t[o + 2]);
        if (len > 0) axes.vec(t[o] / len, t[o + 1] / len, t[o + 2] / len, tangents, v * 4);
        else axes.vec(1, 0, 0, tangents, v * 4);
        tangents[v * 4 + 3] = t[o + 3] < 0 ? -1 : 1;
      }
    }
    const local = new Uint32Array(mesh.triangleCount * 3);
    for (let k = 0; k < local.length; k++) {
      const g = model.triangles[mesh.firstTriangle * 3 + k];
      if (g < first || g >= first + vc) {
        outside++;
        local[k] = 0;
      } else local[k] = g - first;
    }
    const A = BufferTarget.ArrayBuffer;
    const attributes: Record<string, number> = {
      POSITION: b.accessor(positions, 'VEC3', { target: A, bounds: true }),
    };
    if (normals) attributes.NORMAL = b.accessor(normals, 'VEC3', { target: A });
    const material = ctx.materials.index(mesh.material, { index: i });
    // tangents only serve a normal map (the validator reports them unused otherwise): the file's, else derived
    // from the triangles (export/gltf-tangents.ts)
    const uvs = model.texcoords ? model.texcoords.slice(first * 2, (first + vc) * 2) : null;
    const wound = counterClockwise(local, vc);
    if (normals && b.json.materials?.[material]?.normalTexture) {
      const t = tangents ?? (uvs ? vertexTangents(positions, normals, uvs, wound) : null);
      if (t) attributes.TANGENT = b.accessor(t, 'VEC4', { target: A });
    }
    if (uvs) attributes.TEXCOORD_0 = b.accessor(uvs, 'VEC2', { target: A });
    if (model.colors) {
      const c = model.colors.slice(first * 4, (first + vc) * 4);
      attributes.COLOR_0 = c instanceof Uint8Array ? b.accessor(c, 'VEC4', { target: A, normalized: true }) : b.accessor(c, 'VEC4', { target: A });
    }
    if (skinned) {
      const { joints, weights, unskinned: none } = iqmInfluences(model, first, vc);
      unskinned += none;
      attributes.JOINTS_0 = b.accessor(joints, 'VEC4', { target: A });
      attributes.WEIGHTS_0 = b.accessor(weights, 'VEC4', { target: A });
    }
    const gltfMesh = b.add('meshes', {
      name: label,
      primitives: [{ attributes, indices: b.accessor(wound, 'SCALAR', { target: BufferTarget.ElementArrayBuffer }), material, mode: 4 }],
    });
    meshNodes.push(b.add('nodes', { name: label, mesh: gltfMesh, ...(skinned ? { skin } : {}) }));
  });
  if (unskinned) ctx.warnings.push({ code: 'NO_POSITIVE_WEIGHT', message: `${unskinned} vertices have no positive first weight (ioquake3 leaves them unskinned): bound to joint 0`, offset: 0 });
  if (outside) ctx.warnings.push({ code: 'IQM_TRIANGLE_OUTSIDE_MESH', message: `${outside} triangle corners name a vertex outside their mesh's range: written as its first vertex`, offset: 0 });
  if (zeroNormals) ctx.warnings.push({ code: 'NO_NORMAL', message: `${zeroNormals} vertices have a zero normal: given the up normal`, offset: 0 });

  // ——— animations ———
  if (J > 0) {
    const planned = plannedAnimations(sources, name, J, ctx.warnings);
    // each glTF animation is some 8 KB of accessors, views and JSON, however few its frames (an anim record: 20 bytes)
    const maxAnimations = resourceLimits().maxGltfAnimations;
    if (planned.length > maxAnimations) throw overLimit(`${planned.length} animations`, 'maxGltfAnimations', maxAnimations, 0, ErrorCode.Unwritable);
    // every frame's pose of every joint is written: bounded before any is decoded (docs/security.md), as MD5's
    const keys = planned.reduce((k, a) => k + keyCount(a.file, a.frames.frameCount) * J, 0);
    const maxKeys = resourceLimits().maxAnimationKeys;
    if (keys > maxKeys) throw overLimit(`${planned.length} animation(s) of ${keys / J} frames in all × ${J} joints are ${keys} joint poses`, 'maxAnimationKeys', maxKeys, 0, ErrorCode.Unwritable);
    for (const a of planned) addAnimation(b, axes, a.file, a.frames, a.title, jointNodes);
  }
  return { rootNodes: [...roots, ...meshNodes] };
}

type Frames = NonNullable<NamedIqmAnimation['clip']>;

/**
 * `base`, or `base (2)`, `base (3)`… — the first not yet used: one Map lookup a name however many share it (appending
 * a prime until the name was new made 10,000 anims of one name cubic: minutes, and names 10,000 characters long).
 */
function uniqueTitles(): (base: string) => string {
  const used = new Set<string>();
  const nextOf = new Map<string, number>();
  return (base) => {
    let title = base;
    if (used.has(title)) {
      let n = nextOf.get(base) ?? 2;
      while (used.has(`${base} (${n})`)) n++;
      title = `${base} (${n})`;
      nextOf.set(base, n + 1);
    }
    used.add(title);
    return title;
  };
}

/**
 * The animations to write, each with its frames clamped to what its file stores: a clip naming frames past them (a
 * `.framegroups` or anim record asking for more) keeps the frames there are, with a CLIP_RANGE warning; a clip of
 * none left, or a file whose poses do not cover the skeleton's joints (a `.framegroups` over a file of 1 pose for 3
 * joints), is not written (CLIP_RANGE, IQM_CLIP_POSES) — never a key read from a frame or pose the file lacks.
 */
function plannedAnimations(sources: ReturnType<typeof animationSources>, name: string, J: number, warnings: ParseWarning[]): { file: IqmModel; frames: Frames; title: string }[] {
  const unique = uniqueTitles();
  const out: { file: IqmModel; frames: Frames; title: string }[] = [];
  // one warning of each kind, however many clips (a .framegroups may hold thousands): the first, and how many more
  const noPoses: string[] = [], short: string[] = [];
  // (an anim record past the stored frames was warned of by the parser: IQM_ANIM_RANGE)
  const plan = (file: IqmModel, frames: Frames, title: string, isClip: boolean) => {
    const quoted = JSON.stringify(shortName(title));
    if (file.poses.count < J) {
      noPoses.push(`animation ${quoted} plays a file of ${file.poses.count} poses on ${J} joints: not exported`);
      return;
    }
    const first = frames.firstFrame, stored = file.frameCount;
    const count = Math.max(0, Math.min(frames.frameCount, stored - first));
    if (count < frames.frameCount && isClip) {
      short.push(`animation ${quoted} asks for frames ${first}..${first + frames.frameCount - 1}, the file stores ${stored}: ${count === 0 ? 'not exported' : `frames ${first}..${first + count - 1} exported`}`);
    }
    if (count > 0) out.push({ file, frames: { ...frames, frameCount: count }, title: unique(title) });
  };
  for (const { label, anim, clip } of sources) {
    if (clip) {
      plan(anim, clip, label ?? name, true);
      continue;
    }
    for (const a of anim.anims) {
      const first = Math.min(a.firstFrame, Math.max(0, anim.frameCount - 1));
      const frames = { firstFrame: first, frameCount: a.frameCount, fps: a.framerate > 0 ? a.framerate : IQM_DEFAULT_FPS, loop: a.loop };
      plan(anim, frames, label ? (anim.anims.length === 1 ? label : `${label}/${a.name}`) : a.name || name, false);
    }
  }
  const warn = (code: string, list: string[]) => {
    if (list.length) warnings.push({ code, message: `${list[0]}${list.length > 1 ? ` (and ${list.length - 1} more)` : ''}`, offset: 0 });
  };
  warn('IQM_CLIP_POSES', noPoses);
  warn('CLIP_RANGE', short);
  return out;
}

/**
 * The keys an animation of `frames` frames of `file` is written with: one a frame; frames of no channels are all one
 * pose (every channel mask empty), written as the first and last keys only — a 542-byte file of 2²⁴ of them took
 * 1.8 GB and 48 s to write key by key.
 */
function keyCount(file: IqmModel, frames: number): number {
  return file.frameChannels === 0 ? Math.min(frames, 2) : frames;
}

/** Frames of `file` (inside its stored frames: `plannedAnimations`) → one glTF animation over `jointNodes`. */
function addAnimation(b: GltfBuilder, axes: Axes, file: IqmModel, frames: Frames, title: string, jointNodes: number[]): void {
  const J = jointNodes.length;
  const first = frames.firstFrame;
  const count = keyCount(file, frames.frameCount);
  const fps = frames.fps;
  const times = new Float32Array(count);
  for (let f = 0; f < count; f++) times[f] = f / fps;
  // frames of no channels: the first and last keys of one pose hold it as long as every frame would
  if (count < frames.frameCount) times[count - 1] = (frames.frameCount - 1) / fps;
  const translations = Array.from({ length: J }, () => new Float32Array(count * 3));
  const rotations = Array.from({ length: J }, () => new Float32Array(count * 4));
  const scales = Array.from({ length: J }, () => new Float32Array(count * 3));
  const scaled = new Uint8Array(J);
  const decoded = new Float32Array(file.poses.count * IQM_CHANNELS);
  const q = [0, 0, 0, 0];
  for (let f = 0; f < count; f++) {
    iqmDecodeFrame(file.poses.masks, file.poses.offsets, file.poses.scales, file.frames, (first + f) * file.frameChannels, decoded);
    for (let j = 0; j < J; j++) {
      const o = j * IQM_CHANNELS;
      axes.vec(decoded[o], decoded[o + 1], decoded[o + 2], translations[j], f * 3);
      axes.quat(decoded[o + 3], decoded[o + 4], decoded[o + 5], decoded[o + 6], q, 0);
      setRotationKey(rotations[j], f, q);
      const s = [0, 0, 0];
      axes.vec(decoded[o + 7], decoded[o + 8], decoded[o + 9], s, 0);
      for (let c = 0; c < 3; c++) scales[j][f * 3 + c] = Math.abs(s[c]);
      if (decoded[o + 7] !== 1 || decoded[o + 8] !== 1 || decoded[o + 9] !== 1) scaled[j] = 1;
    }
  }
  const input = b.accessor(times, 'SCALAR', { bounds: true });
  const animation: GltfAnimation = { name: title, channels: [], samplers: [], extras: { framerate: fps, loop: frames.loop, firstFrame: first, frameCount: frames.frameCount } };
  for (let j = 0; j < J; j++) {
    const channels: ['translation' | 'rotation' | 'scale', Float32Array, 'VEC3' | 'VEC4'][] = [['translation', translations[j], 'VEC3'], ['rotation', rotations[j], 'VEC4']];
    if (scaled[j]) channels.push(['scale', scales[j], 'VEC3']);
    for (const [path, data, type] of channels) {
      animation.channels.push({ sampler: animation.samplers.length, target: { node: jointNodes[j], path } });
      animation.samplers.push({ input, output: b.accessor(data, type), interpolation: 'LINEAR' });
    }
  }
  b.add('animations', animation);
}

/**
 * `model` (with animation files played on it) as one `.glb` file's bytes: what the format registry's `toGlb` gives for
 * an IQM once IQM is registered (its `gltf.add` is `addIqm`); here for callers that hold an IQM and no registry.
 */
export function iqmToGlb(model: IqmModel, options: Omit<GltfOptions, 'anims'> & { anims?: readonly (NamedIqmAnimation | IqmModel)[] } = {}): Uint8Array {
  const { anims = [], ...rest } = options;
  return buildGltfDocument((ctx) => addIqm(ctx, model, options.name ?? 'model', anims).rootNodes, { imageConverter, ...rest }).builder.glb();
}

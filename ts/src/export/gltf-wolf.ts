/**
 * An MDS, or an MDM on its MDX → glTF 2.0 (formats/mds, formats/mdm): one skinned mesh (a primitive per surface) bound in the pose its weights were made in
 * (pose/wolf-bind.ts wolfRestPose: the file stores none, so it is fitted to the offsets), each inverse bind matrix the
 * inverse of a bone's matrix in it; the bones as joint nodes at their frame-0 poses, each tag a node on its bone, and one animation holding every frame
 * (LINEAR: R_CalcBoneLerp blends neighbouring frames) at 20 fps, the rate nothing in the file names.
 *
 * Skinning: the four largest weights of each vertex, renormalised (MDS allows more; a vertex with more is counted in
 * a warning). UVs as stored (t down, as glTF's). Triangles turned counter-clockwise (the renderer shows clockwise).
 */
import { overLimit, resourceLimits } from '../base/resource-limits.js';
import { ErrorCode } from '../base/errors.js';
import { quatFromBasis } from '../base/quat.js';
import { convertMatrix } from './gltf-axes.js';
import { BufferTarget, setRotationKey, type GltfAnimation } from './gltf-builder.js';
import type { ExportContext } from './gltf-context.js';
import { counterClockwise } from '../pose/winding.js';
import { WOLF_DEFAULT_FPS, wolfDraw, wolfFrames, wolfInfluences, wolfInverseBind, wolfRestPose, type WolfDrawable } from '../pose/wolf-bind.js';

export function addWolf(ctx: ExportContext, d: WolfDrawable, name: string, extras: Record<string, unknown> = {}): { rootNodes: number[] } {
  const { builder: b, axes } = ctx;
  const { bones } = d.skeleton;
  const J = bones.length;
  const F = d.skeleton.frames.length;
  const maxKeys = resourceLimits().maxAnimationKeys;
  if (F * J > maxKeys) throw overLimit(`${F} frames × ${J} bones are ${F * J} bone poses`, 'maxAnimationKeys', maxKeys, 0, ErrorCode.Unwritable);
  const frames = wolfFrames(d.skeleton);
  const draw = wolfDraw(d);
  {
    const jointNodes: number[] = [];
    const roots: number[] = [];
    const rot = [0, 0, 0, 1];
    bones.forEach((bone, j) => {
      const translation = [0, 0, 0];
      const t = frames.translations, r = frames.rotations;
      axes.vec(t[j * 3], t[j * 3 + 1], t[j * 3 + 2], translation, 0);
      axes.quat(r[j * 4], r[j * 4 + 1], r[j * 4 + 2], r[j * 4 + 3], rot, 0);
      jointNodes.push(b.add('nodes', { name: bone.name || `bone${j}`, translation, rotation: [...rot] }));
    });
    bones.forEach((bone, j) => {
      if (bone.parent < 0) roots.push(jointNodes[j]);
      else (b.json.nodes[jointNodes[bone.parent]].children ??= []).push(jointNodes[j]);
    });
    // a tag is a frame of reference on its bone: a child node at its offset and axes (an MDS tag: the bone's own)
    for (const t of d.tags) {
      const place: { translation?: number[]; rotation?: number[] } = {};
      if (t.offset) axes.vec(t.offset[0], t.offset[1], t.offset[2], (place.translation = [0, 0, 0]), 0);
      if (t.axis) {
        const a = t.axis, q = quatFromBasis([a[0], a[1], a[2]], [a[3], a[4], a[5]], [a[6], a[7], a[8]]);
        axes.quat(q[0], q[1], q[2], q[3], (place.rotation = [0, 0, 0, 1]), 0);
      }
      (b.json.nodes[jointNodes[t.boneIndex]].children ??= []).push(b.add('nodes', { name: t.name, ...place, extras: { tag: true } }));
    }
    const rest = wolfRestPose(d, frames.bind);
    const ibm = new Float32Array(J * 16);
    const inv = new Float64Array(16);
    for (let j = 0; j < J; j++) {
      wolfInverseBind(rest.bind, j, inv, 0);
      convertMatrix(axes, inv, ibm, j * 16);
    }
    const skin = J > 0 ? b.add('skins', { name: 'skeleton', joints: jointNodes, inverseBindMatrices: b.accessor(ibm, 'MAT4'), ...(roots.length === 1 ? { skeleton: roots[0] } : {}) }) : undefined;
    const rootNodes = [...roots];
    const V = draw.vertexCount;
    if (V > 0 && skin !== undefined) {
      const positions = new Float32Array(V * 3), normals = new Float32Array(V * 3);
      const p = rest.positions, n = rest.normals;
      for (let v = 0; v < V; v++) {
        axes.vec(p[v * 3], p[v * 3 + 1], p[v * 3 + 2], positions, v * 3);
        const len = Math.hypot(n[v * 3], n[v * 3 + 1], n[v * 3 + 2]);
        if (len > 0) axes.vec(n[v * 3] / len, n[v * 3 + 1] / len, n[v * 3 + 2] / len, normals, v * 3);
        else axes.vec(0, 0, 1, normals, v * 3);
      }
      const inf = wolfInfluences(d);
      if (inf.dropped.vertices) ctx.warnings.push({ code: 'WEIGHTS_DROPPED', message: `${inf.dropped.vertices} vertices have more than 4 weights: the 4 largest kept, renormalised (up to ${+inf.dropped.maxWeight.toFixed(4)} of a vertex's weight dropped)`, offset: 0 });
      const A = BufferTarget.ArrayBuffer;
      const attributes = {
        POSITION: b.accessor(positions, 'VEC3', { target: A, bounds: true }),
        NORMAL: b.accessor(normals, 'VEC3', { target: A }),
        TEXCOORD_0: b.accessor(draw.st, 'VEC2', { target: A }),
        JOINTS_0: b.accessor(inf.joints, 'VEC4', { target: A }),
        WEIGHTS_0: b.accessor(inf.weights, 'VEC4', { target: A }),
      };
      const primitives = d.surfaces.map((s, i) => ({ s, i })).filter(({ s }) => s.triangles.length > 0).map(({ s, i }) => ({
        attributes,
        indices: b.accessor(counterClockwise(draw.triangles.subarray(draw.indexStart[i], draw.indexStart[i + 1]), V), 'SCALAR', { target: BufferTarget.ElementArrayBuffer }),
        material: ctx.materials.index(`${name}/${s.name}`, { index: i }),
        mode: 4,
      }));
      if (primitives.length) {
        const mesh = b.add('meshes', { name, primitives });
        rootNodes.push(b.add('nodes', { name, mesh, skin, extras: { wolf: { ...extras, surfaces: d.surfaces.map((s) => ({ name: s.name, shader: s.shader })) } } }));
      }
    } else if (V === 0) ctx.warnings.push({ code: 'EMPTY_MESH', message: 'the model has no vertices: only its skeleton is exported', offset: 0 });

    if (J > 0) {
      const times = Float32Array.from({ length: Math.max(2, F) }, (_, k) => k / WOLF_DEFAULT_FPS);
      const keys = times.length;
      const input = b.accessor(times, 'SCALAR', { bounds: true });
      const anim: GltfAnimation = { name: 'frames', channels: [], samplers: [], extras: { framerate: WOLF_DEFAULT_FPS, frameCount: F } };
      const qq = [0, 0, 0, 1];
      for (let j = 0; j < J; j++) {
        const tr = new Float32Array(keys * 3), ro = new Float32Array(keys * 4);
        for (let k = 0; k < keys; k++) {
          const f = Math.min(k, F - 1);
          const t = frames.translations.subarray(f * J * 3), r = frames.rotations.subarray(f * J * 4);
          axes.vec(t[j * 3], t[j * 3 + 1], t[j * 3 + 2], tr, k * 3);
          axes.quat(r[j * 4], r[j * 4 + 1], r[j * 4 + 2], r[j * 4 + 3], qq, 0);
          setRotationKey(ro, k, qq);
        }
        for (const [path, data, type] of [['translation', tr, 'VEC3'], ['rotation', ro, 'VEC4']] as const) {
          anim.channels.push({ sampler: anim.samplers.length, target: { node: jointNodes[j], path } });
          anim.samplers.push({ input, output: b.accessor(data, type), interpolation: 'LINEAR' });
        }
      }
      b.add('animations', anim);
    }
    return { rootNodes };
  }
}

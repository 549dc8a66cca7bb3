/**
 * A studio model → glTF 2.0: one skinned mesh (a primitive per studio mesh, of the submodel body 0 shows in each body
 * part), the skeleton as joint nodes at the bones' default values, one animation per sequence that can play — per blend
 * of a sequence with several (`arms_up blend 0` … `arms_up blend 3`: issue 38's "blends as separate clips named after
 * the sequence"; a blend mix is the entity's choice at run time, each blend is what the file stores).
 *
 * - Bind pose: the bones at their default values (composed and skinned by the kernels: poser.ts), so the mesh's
 *   POSITION is the model in its reference pose and each inverse bind matrix is the inverse of a bone's default
 *   object transform; every vertex is bound to its one bone (JOINTS_0 = bone, WEIGHTS_0 = 1 0 0 0): Half-Life's
 *   rigid skinning.
 * - UVs: the texel coordinates divided by the shown texture's size (R_StudioDrawPoints' `s = 1 / width`), rows
 *   from the top as glTF's. Triangles as GL draws the strips and fans, turned counter-clockwise (Quake's lineage
 *   culls GL_FRONT: what it shows winds clockwise).
 * - Animations: each frame of a sequence is a key at frame / fps (30 fps where the file says none), LINEAR
 *   (StudioCalcBoneQuaterion slerps between frames, the positions lerp); controllers at no adjustment, the motion
 *   bone's movement removed as its motion type says. `extras`: the sequence's flags, activity, events (and for a
 *   blend: the sequence, the blend's number, the sequence's blend count, types and ranges); on the node the
 *   hitboxes, attachments and controllers.
 */
import { ErrorCode } from '../../base/errors.js';
import { overLimit, resourceLimits } from '../../base/resource-limits.js';
import { counterClockwise } from '../../pose/winding.js';
import { convertMatrix, type Axes } from '../../export/gltf-axes.js';
import { BufferTarget, setRotationKey, type GltfAnimation } from '../../export/gltf-builder.js';
import type { ExportContext } from '../../export/gltf-context.js';
import { POSE_STRIDE } from '../../kernels/layout.js';
import { angleQuaternion, channelsToLocal, SequenceDecoder, sequenceSources } from './anim.js';
import { goldsrcDraw } from './geometry.js';
import { GOLDSRC_DEFAULT_FPS } from './gltf-constants.js';
import { STUDIO_LOOPING } from './limits.js';
import type { GoldsrcModel } from './model.js';
import { GoldsrcPoser } from './poser.js';
import { drawUvs } from './uvs.js';
import { goldsrcMaterials, textureOf, textureSource } from './textures.js';

/** What a model set adds to the model: its texture file, and its group files by number (`entry.ts` `gltfOptions`). */
export interface GoldsrcCompanions {
  goldsrc: true;
  textures: GoldsrcModel | null;
  groups: ReadonlyMap<number, GoldsrcModel>;
}



/** The inverse of a rigid pose (`tx ty tz 0 qx qy qz qw`) as a column-major 4×4. */
function inverseRigid(p: Float32Array, o: number): Float64Array {
  const [tx, ty, tz, , x, y, z, w] = Array.from(p.subarray(o, o + POSE_STRIDE));
  // R (row-major) of the quaternion; the inverse is Rᵀ and −Rᵀ·t
  const r = [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x), 2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)];
  const m = new Float64Array(16);
  for (let row = 0; row < 3; row++) for (let c = 0; c < 3; c++) m[c * 4 + row] = r[c * 3 + row];
  m[12] = -(r[0] * tx + r[3] * ty + r[6] * tz);
  m[13] = -(r[1] * tx + r[4] * ty + r[7] * tz);
  m[14] = -(r[2] * tx + r[5] * ty + r[8] * tz);
  m[15] = 1;
  return m;
}

function companionsOf(list: readonly unknown[]): GoldsrcCompanions {
  const c = list.find((x) => (x as GoldsrcCompanions | null)?.goldsrc === true) as GoldsrcCompanions | undefined;
  return c ?? { goldsrc: true, textures: null, groups: new Map() };
}

export function addGoldsrc(ctx: ExportContext, model: GoldsrcModel, name: string, extra: readonly unknown[] = []): { rootNodes: number[] } {
  const { builder: b, axes } = ctx;
  if (model.kind !== 'studio') {
    ctx.warnings.push({ code: 'EMPTY_MESH', message: 'a sequence group file holds no model: nothing to export (open the model it belongs to)', offset: 0 });
    return { rootNodes: [] };
  }
  const { textures, groups } = companionsOf(extra);
  const J = model.bones.length;
  const draw = goldsrcDraw(model);
  const shown = textureSource(model, textures);
  ctx.materials.carry(() => ({ ...goldsrcMaterials(model, shown, name), images: new Map() }));
  const poser = new GoldsrcPoser(ctx.backend, model, draw);
  try {
    // ——— skeleton: joints at the bones' default values ———
    const jointNodes: number[] = [];
    const roots: number[] = [];
    const q = new Float32Array(4), rot = [0, 0, 0, 1];
    model.bones.forEach((bone, j) => {
      const translation = [0, 0, 0];
      axes.vec(bone.value[0], bone.value[1], bone.value[2], translation, 0);
      angleQuaternion(bone.value[3], bone.value[4], bone.value[5], q, 0);
      axes.quat(q[0], q[1], q[2], q[3], rot, 0);
      jointNodes.push(b.add('nodes', { name: bone.name || `bone${j}`, translation, rotation: [...rot] }));
    });
    model.bones.forEach((bone, j) => {
      if (bone.parent < 0) roots.push(jointNodes[j]);
      else (b.json.nodes[jointNodes[bone.parent]].children ??= []).push(jointNodes[j]);
    });
    poser.bindPose();
    let skin: number | undefined;
    if (J > 0) {
      const ibm = new Float32Array(J * 16);
      for (let j = 0; j < J; j++) convertMatrix(axes, inverseRigid(poser.bonePoses, j * POSE_STRIDE), ibm, j * 16);
      skin = b.add('skins', { name: 'skeleton', joints: jointNodes, inverseBindMatrices: b.accessor(ibm, 'MAT4'), ...(roots.length === 1 ? { skeleton: roots[0] } : {}) });
    }

    // ——— the mesh, in its bind pose ———
    const rootNodes = [...roots];
    const V = draw.vertexCount;
    if (V > 0 && skin !== undefined) {
      const positions = new Float32Array(V * 3), normals = new Float32Array(V * 3), uvs = drawUvs(draw, shown);
      const p = poser.positions, n = poser.normals;
      for (let v = 0; v < V; v++) {
        axes.vec(p[v * 3], p[v * 3 + 1], p[v * 3 + 2], positions, v * 3);
        const len = Math.hypot(n[v * 3], n[v * 3 + 1], n[v * 3 + 2]);
        if (len > 0) axes.vec(n[v * 3] / len, n[v * 3 + 1] / len, n[v * 3 + 2] / len, normals, v * 3);
        else axes.vec(0, 0, 1, normals, v * 3);
      }
      const materialOf: number[] = [];
      for (const mesh of draw.meshes) {
        const t = textureOf(shown, mesh.skinRef);
        const tex = t >= 0 ? shown.textures[t] : null;
        materialOf.push(ctx.materials.index(tex ? `${name}/${tex.name || `texture${t}`}` : `${name}/skinref${mesh.skinRef}`, { index: materialOf.length }));
      }
      const joints = new Uint8Array(V * 4), weights = new Float32Array(V * 4);
      for (let v = 0; v < V; v++) {
        joints[v * 4] = draw.vertexBones[v];
        weights[v * 4] = 1;
      }
      const A = BufferTarget.ArrayBuffer;
      const attributes = {
        POSITION: b.accessor(positions, 'VEC3', { target: A, bounds: true }),
        NORMAL: b.accessor(normals, 'VEC3', { target: A }),
        TEXCOORD_0: b.accessor(uvs, 'VEC2', { target: A }),
        JOINTS_0: b.accessor(joints, 'VEC4', { target: A }),
        WEIGHTS_0: b.accessor(weights, 'VEC4', { target: A }),
      };
      const primitives = draw.meshes.filter((m) => m.indexCount > 0).map((m) => {
        const local = counterClockwise(draw.indices.subarray(m.firstIndex, m.firstIndex + m.indexCount), V);
        return { attributes, indices: b.accessor(local, 'SCALAR', { target: BufferTarget.ElementArrayBuffer }), material: materialOf[draw.meshes.indexOf(m)], mode: 4 };
      });
      if (primitives.length) {
        const mesh = b.add('meshes', { name, primitives });
        const extras = {
          goldsrc: {
            eyePosition: [...model.eyePosition],
            hitboxes: model.hitboxes.map((h) => ({ bone: h.bone, group: h.group, min: [...h.min], max: [...h.max] })),
            attachments: model.attachments.map((a) => ({ name: a.name, bone: a.bone, origin: [...a.origin] })),
            controllers: model.controllers.map((c) => ({ bone: c.bone, type: c.type, start: c.start, end: c.end, rest: c.rest, index: c.index })),
            bodyParts: model.bodyParts.map((p) => ({ name: p.name, base: p.base, submodels: p.models.map((m) => m.name) })),
          },
        };
        rootNodes.push(b.add('nodes', { name, mesh, skin, extras }));
      }
    } else if (V === 0) ctx.warnings.push({ code: 'EMPTY_MESH', message: 'the model draws no triangles: only its skeleton is exported', offset: 0 });

    // ——— animations: one per sequence that can play ———
    const { sources, missing } = sequenceSources(model, groups, name);
    if (missing.length) ctx.warnings.push({ code: 'MISSING_FILE', message: `${missing.length} sequence(s) are in group files not read (${missing.slice(0, 3).map((s) => JSON.stringify(s)).join(', ')}${missing.length > 3 ? ' …' : ''}): not exported`, offset: 0 });
    const playable = sources.filter((s) => s !== null);
    // one clip per blend of each sequence (a sequence of one blend: one clip, its label); counted before any is listed:
    // numblends is the file's word, and a count that lies must meet the limit, not an array of its size
    const clipCount = playable.reduce((n, s) => n + s.sequence.blendCount, 0);
    if (J > 0 && clipCount) {
      const maxAnimations = resourceLimits().maxGltfAnimations;
      if (clipCount > maxAnimations) throw overLimit(`${clipCount} animations (sequences × their blends)`, 'maxGltfAnimations', maxAnimations, 0, ErrorCode.Unwritable);
      const clips = playable.flatMap((s) => Array.from({ length: s.sequence.blendCount }, (_, blend) => ({ s, blend })));
      const keys = clips.reduce((k, { s }) => k + s.sequence.frameCount * J, 0);
      const maxKeys = resourceLimits().maxAnimationKeys;
      if (keys > maxKeys) throw overLimit(`${clips.length} clip(s) (sequences × blends) of ${keys / J} frames in all × ${J} bones are ${keys} bone poses`, 'maxAnimationKeys', maxKeys, 0, ErrorCode.Unwritable);
      const used = new Map<string, number>();
      const channels = new Float32Array(J * 6), local = new Float32Array(J * POSE_STRIDE);
      for (const { s, blend } of clips) {
        const seq = s.sequence;
        const F = seq.frameCount;
        const fps = seq.fps > 0 && Number.isFinite(seq.fps) ? seq.fps : GOLDSRC_DEFAULT_FPS;
        const times = Float32Array.from({ length: F }, (_, k) => k / fps);
        const tr = Array.from({ length: J }, () => new Float32Array(F * 3));
        const ro = Array.from({ length: J }, () => new Float32Array(F * 4));
        const qq = [0, 0, 0, 1];
        const decoder = new SequenceDecoder(model.bones, s, blend);
        for (let f = 0; f < F; f++) {
          channelsToLocal(decoder.channels(f, channels), local);
          for (let j = 0; j < J; j++) {
            const o = j * POSE_STRIDE;
            axes.vec(local[o], local[o + 1], local[o + 2], tr[j], f * 3);
            axes.quat(local[o + 4], local[o + 5], local[o + 6], local[o + 7], qq, 0);
            setRotationKey(ro[j], f, qq);
          }
        }
        const blends = seq.blendCount > 1;
        const base = `${seq.label || name}${blends ? ` blend ${blend}` : ''}`;
        const count = (used.get(base) ?? 0) + 1;
        used.set(base, count);
        const input = b.accessor(times, 'SCALAR', { bounds: true });
        const anim: GltfAnimation = {
          name: count > 1 ? `${base} (${count})` : base,
          channels: [],
          samplers: [],
          extras: { framerate: fps, loop: (seq.flags & STUDIO_LOOPING) !== 0, frameCount: F, activity: seq.activity, actWeight: seq.actWeight, events: seq.events.map((e) => ({ frame: e.frame, event: e.event, type: e.type, options: e.options })),
            ...(blends ? { sequence: seq.label, blend, blendCount: seq.blendCount, blendType: seq.blendType, blendStart: seq.blendStart, blendEnd: seq.blendEnd } : {}) },
        };
        for (let j = 0; j < J; j++) {
          for (const [path, data, type] of [['translation', tr[j], 'VEC3'], ['rotation', ro[j], 'VEC4']] as const) {
            anim.channels.push({ sampler: anim.samplers.length, target: { node: jointNodes[j], path } });
            anim.samplers.push({ input, output: b.accessor(data, type), interpolation: 'LINEAR' });
          }
        }
        b.add('animations', anim);
      }
    }
    return { rootNodes };
  } finally {
    poser.dispose();
  }
}

/**
 * MD5 (md5mesh + md5anims) → glTF 2.0: one skinned mesh per `mesh { }` block, all sharing one skin.
 *
 * - Joints become nodes; the md5mesh's object-space bind joints are turned into local TRS (parent-relative).
 * - `inverseBindMatrices` invert the object-space bind joints, so the skin reproduces the bind vertices.
 * - Vertex positions and normals are the bind pose as our poser computes it (`skin-stream` + TS kernels), so
 *   the glTF at rest is our `poseBind()` bit for bit before the axis change.
 * - JOINTS_0 / WEIGHTS_0 hold at most 4 influences. Weights on the same joint are first merged (their biases
 *   add: M·(b₁p₁ + b₂p₂) is one influence); of the rest the 4 largest are kept and renormalised to sum 1, as
 *   Doom 3 BFG does when it converts MD5 to its 4-weight GPU format. Vertices that lose weight are counted
 *   (`stats`) and reported in one `WEIGHTS_DROPPED` warning.
 * - Each md5anim is one animation named after its file: per joint a translation and a rotation channel
 *   (LINEAR: glTF lerps translations and slerps rotations in local space, exactly the engine's interpolation),
 *   key i at i / frameRate seconds. Anims must play on the mesh as Daemon plays them (`assertAnimMatchesMesh`:
 *   ANIM_MESH_MISMATCH otherwise); an anim whose parents differ from the mesh's poses through its own hierarchy, as
 *   Daemon poses it, and its keys are re-expressed under the mesh's (the glTF skeleton): `Md5Poser.meshLocalPose`, with the
 *   difference reported as an ENGINE_LIMIT warning.
 * - An anim's `scales` (q2pro's `.md5scale`: formats/md5/md5scale.ts) scale a joint's weights' offsets about the
 *   joint, not its children: each scaled joint gets a child node `<joint>_md5scale` at rest (identity), bound with the
 *   joint's inverse bind matrix, and its vertices' influences move to it; its scale is keyed per frame (STEP: the
 *   engine does not blend scales). A scale of 0 there hides what only that joint holds, as the engine hides it.
 * - Triangles are written (a, c, b): MD5 winds clockwise seen from the front, glTF counter-clockwise.
 * - Texture coordinates are stored as in the file: Doom 3's t grows downward, and so does glTF's.
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import { overLimit, resourceLimits } from '../../base/resource-limits.js';
import { quatConjugate, quatMultiply, quatRotate, quatUnit, type Quat } from '../../base/quat.js';
import type { Md5Anim, Md5Mesh } from '../../base/model.js';
import { POSE_STRIDE } from '../../kernels/layout.js';
import { bindJoints, MAX_INFLUENCES, vertexInfluences } from './bind.js';
import { scaledJoints } from './set-anims.js';
import type { InfluenceStats, NamedMd5Anim } from '../../export/gltf.js';

export type { NamedMd5Anim };
import { assertAnimMatchesMesh, Md5Poser } from '../../pose/md5-poser.js';
import { counterClockwise } from '../../pose/winding.js';
import { vertexTangents } from '../../export/gltf-tangents.js';
import type { Axes } from '../../export/gltf-axes.js';
import { addTrsChannels, BufferTarget, setRotationKey, type GltfAnimation, type GltfBuilder } from '../../export/gltf-builder.js';
import type { ExportContext } from '../../export/gltf-context.js';


/** Column-major 4×4 inverse of the rigid transform (R(q), t), [Rᵀ | −Rᵀt], written into `out` at `o`. */
function inverseRigid(q: Quat, t: number[], out: Float32Array, o: number): void {
  const [x, y, z, w] = q;
  // rows of R
  const r = [
    1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
    2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
    2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y),
  ];
  // inverse[row][col] = R[col][row]; column-major storage puts (row, col) at col·4 + row
  for (let row = 0; row < 3; row++) {
    for (let col = 0; col < 3; col++) out[o + col * 4 + row] = r[col * 3 + row];
    out[o + 12 + row] = -(r[row] * t[0] + r[3 + row] * t[1] + r[6 + row] * t[2]);
    out[o + row * 4 + 3] = 0;
  }
  out[o + 15] = 1;
}

/** What the four-influence limit dropped (formats/md5/bind.ts `vertexInfluences`). */

/** Adds the model to the builder; returns the nodes to put at the scene root and what was measured. */
export function addMd5(ctx: ExportContext, mesh: Md5Mesh, anims: NamedMd5Anim[]): { rootNodes: number[]; stats: InfluenceStats } {
  const { builder: b, axes } = ctx;
  const n = mesh.joints.count;
  for (const { name, anim, warned } of anims) {
    const found = assertAnimMatchesMesh(mesh, anim, { anim: `anim "${name}"` });
    if (!warned) for (const w of found) ctx.warnings.push(w);
  }

  // Skeleton: one node per joint, local TRS, children from parents.
  const { world, local } = bindJoints(mesh);
  const jointNodes: number[] = [];
  for (let j = 0; j < n; j++) {
    const translation = [0, 0, 0], rotation = [0, 0, 0, 1];
    axes.vec(local[j].t[0], local[j].t[1], local[j].t[2], translation, 0);
    axes.quat(...local[j].q, rotation, 0);
    jointNodes.push(b.add('nodes', { name: mesh.joints.names[j], translation, rotation }));
  }
  const roots: number[] = [];
  for (let j = 0; j < n; j++) {
    const p = mesh.joints.parents[j];
    if (p < 0) roots.push(jointNodes[j]);
    else (b.json.nodes[jointNodes[p]].children ??= []).push(jointNodes[j]);
  }
  // joints whose weights an anim scales (.md5scale): a scale node each, the skin's joint n + k (see the file comment)
  const scaled = scaledJoints(n, anims);
  const scaleNodes = scaled.map((j) => {
    const node = b.add('nodes', { name: `${mesh.joints.names[j]}_md5scale` });
    (b.json.nodes[jointNodes[j]].children ??= []).push(node);
    return node;
  });
  const remap = new Map(scaled.map((j, k) => [j, n + k]));
  const ibm = new Float32Array((n + scaled.length) * 16);
  for (let j = 0; j < n; j++) {
    const q: Quat = [0, 0, 0, 1], t = [0, 0, 0];
    axes.quat(...world[j].q, q, 0);
    axes.vec(world[j].t[0], world[j].t[1], world[j].t[2], t, 0);
    inverseRigid(q, t, ibm, j * 16);
  }
  scaled.forEach((j, k) => ibm.copyWithin((n + k) * 16, j * 16, j * 16 + 16));
  const skin = b.add('skins', {
    name: 'skeleton',
    joints: [...jointNodes, ...scaleNodes],
    inverseBindMatrices: b.accessor(ibm, 'MAT4'),
    ...(roots.length === 1 ? { skeleton: roots[0] } : {}),
  });

  // Bind-pose vertices exactly as the poser computes them; each anim's local joint poses from the same poser
  // (setAnim validates the anim against the mesh first).
  // every frame's pose of every joint is written: bounded before any is composed (docs/security.md)
  const keys = anims.reduce((k, { anim }) => k + anim.frameCount * mesh.joints.count, 0);
  const maxKeys = resourceLimits().maxAnimationKeys;
  if (keys > maxKeys) throw overLimit(`${anims.length} anim(s) of ${keys / mesh.joints.count} frames in all × ${mesh.joints.count} joints are ${keys} joint poses`, 'maxAnimationKeys', maxKeys, 0, ErrorCode.Unwritable);
  const poser = new Md5Poser(ctx.backend, mesh);
  const locals: Float32Array[][] = [];
  try {
    for (const { name, anim } of anims) {
      try {
        poser.setAnim(anim);
      } catch (e) {
        if (e instanceof ModelParseError) throw new ModelParseError(e.code, `anim "${name}": ${e.detail}`, { offset: e.offset });
        throw e;
      }
      locals.push(Array.from({ length: anim.frameCount }, (_, f) => poser.meshLocalPose(f).slice()));
    }
    poser.poseBind();
  } catch (e) {
    poser.dispose();
    throw e;
  }
  const stream = poser.stream;
  const bindPositions = poser.positions.slice();
  const bindNormals = poser.normals.slice();
  poser.dispose();

  const stats: InfluenceStats = { verticesLostWeight: 0, maxLostWeight: 0, jointsPerVertex: [] };
  const meshNodes: number[] = [];
  let zeroNormals = 0, nonPositive = 0;
  mesh.meshes.forEach((part, i) => {
    const label = part.name || part.shader.split('/').pop() || `mesh${i}`;
    if (part.vertexCount === 0 || part.triangleCount === 0) {
      ctx.warnings.push({ code: 'EMPTY_MESH', message: `mesh ${i} ("${label}") has no ${part.vertexCount === 0 ? 'vertices' : 'triangles'}: not exported`, offset: 0 });
      return;
    }
    const base = stream.meshVertexStart[i];
    const vc = part.vertexCount;
    const positions = new Float32Array(vc * 3);
    const normals = new Float32Array(vc * 3);
    for (let v = 0; v < vc; v++) {
      const s = (base + v) * 3;
      axes.vec(bindPositions[s], bindPositions[s + 1], bindPositions[s + 2], positions, v * 3);
      if (bindNormals[s] === 0 && bindNormals[s + 1] === 0 && bindNormals[s + 2] === 0) {
        // a vertex on no (or only degenerate) triangles has no normal; glTF requires unit length
        zeroNormals++;
        axes.vec(0, 0, 1, normals, v * 3);
      } else {
        axes.vec(bindNormals[s], bindNormals[s + 1], bindNormals[s + 2], normals, v * 3);
      }
    }
    const influences = vertexInfluences(part, stats, n + scaled.length > 256);
    if (remap.size) for (let k = 0; k < influences.joints.length; k++) influences.joints[k] = remap.get(influences.joints[k]) ?? influences.joints[k];
    nonPositive += influences.nonPositive;
    const indices = counterClockwise(part.triangles, vc);
    const V = BufferTarget.ArrayBuffer;
    const material = ctx.materials.index(part.shader, { index: i });
    // tangents where a normal map needs them (export/gltf-tangents.ts), in the bind pose
    const tangents: Record<string, number> = b.json.materials?.[material]?.normalTexture ? { TANGENT: b.accessor(vertexTangents(positions, normals, part.uvs, indices), 'VEC4', { target: V }) } : {};
    const gltfMesh = b.add('meshes', {
      name: label,
      primitives: [{
        attributes: {
          POSITION: b.accessor(positions, 'VEC3', { target: V, bounds: true }),
          NORMAL: b.accessor(normals, 'VEC3', { target: V }),
          ...tangents,
          TEXCOORD_0: b.accessor(part.uvs, 'VEC2', { target: V }),
          JOINTS_0: b.accessor(influences.joints, 'VEC4', { target: V }),
          WEIGHTS_0: b.accessor(influences.weights, 'VEC4', { target: V }),
        },
        indices: b.accessor(indices, 'SCALAR', { target: BufferTarget.ElementArrayBuffer }),
        material,
        mode: 4,
      }],
    });
    meshNodes.push(b.add('nodes', { name: label, mesh: gltfMesh, skin }));
  });
  stats.jointsPerVertex = Array.from(stats.jointsPerVertex, (x) => x ?? 0);
  if (stats.verticesLostWeight > 0) {
    ctx.warnings.push({ code: 'WEIGHTS_DROPPED', message: `${stats.verticesLostWeight} vertices have more than ${MAX_INFLUENCES} joints: kept the ${MAX_INFLUENCES} largest and renormalised (at most ${(stats.maxLostWeight * 100).toFixed(2)}% of a vertex's weight dropped)`, offset: 0 });
  }
  if (zeroNormals > 0) ctx.warnings.push({ code: 'NO_NORMAL', message: `${zeroNormals} vertices lie on no triangle with area: given the up normal`, offset: 0 });
  if (nonPositive > 0) ctx.warnings.push({ code: 'NO_POSITIVE_WEIGHT', message: `${nonPositive} vertices have no positive weight: bound rigidly to their first joint`, offset: 0 });

  anims.forEach(({ name, anim, scales }, i) => addAnimation(b, axes, anim, name, jointNodes, locals[i], { joints: scaled, nodes: scaleNodes, scales }));
  return { rootNodes: [...roots, ...meshNodes], stats };
}

/** One md5anim → one glTF animation: per joint, every frame's local translation and rotation (`localPoses[f]`). */
function addAnimation(b: GltfBuilder, axes: Axes, anim: Md5Anim, name: string, jointNodes: number[], localPoses: Float32Array[], scaling: { joints: number[]; nodes: number[]; scales?: Float32Array }): void {
  const n = anim.jointCount, frames = anim.frameCount;
  const times = new Float32Array(frames);
  for (let f = 0; f < frames; f++) times[f] = f / anim.frameRate;
  const translations = Array.from({ length: n }, () => new Float32Array(frames * 3));
  const rotations = Array.from({ length: n }, () => new Float32Array(frames * 4));
  const q = [0, 0, 0, 0];
  for (let f = 0; f < frames; f++) {
    const localPose = localPoses[f];
    for (let j = 0; j < n; j++) {
      const o = j * POSE_STRIDE;
      axes.vec(localPose[o], localPose[o + 1], localPose[o + 2], translations[j], f * 3);
      const [x, y, z, w] = quatUnit(localPose[o + 4], localPose[o + 5], localPose[o + 6], localPose[o + 7]);
      axes.quat(x, y, z, w, q, 0);
      setRotationKey(rotations[j], f, q);
    }
  }
  const input = b.accessor(times, 'SCALAR', { bounds: true });
  const animation: GltfAnimation = { name, channels: [], samplers: [], extras: { frameRate: anim.frameRate, frameCount: frames } };
  for (let j = 0; j < n; j++) addTrsChannels(b, animation, jointNodes[j], input, translations[j], rotations[j], 'LINEAR');
  // every anim keys every scale node (1 where it has no scales), so that one anim's hidden part is not left hidden
  scaling.joints.forEach((j, k) => {
    const values = new Float32Array(frames * 3).fill(1);
    if (scaling.scales) for (let f = 0; f < frames; f++) values.fill(scaling.scales[f * n + j], f * 3, f * 3 + 3);
    animation.channels.push({ sampler: animation.samplers.length, target: { node: scaling.nodes[k], path: 'scale' } });
    animation.samplers.push({ input, output: b.accessor(values, 'VEC3'), interpolation: 'STEP' });
  });
  b.add('animations', animation);
}


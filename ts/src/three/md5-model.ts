/**
 * An md5mesh (with its md5anims) as three.js objects: bones and a skeleton (`md5-skeleton.ts`), one mesh whose
 * geometry holds every `mesh { }` block back to back (a geometry group and a material each, file order — the order
 * `Md5Poser` writes its outputs in), and one clip per md5anim (`md5-clips.ts`). Two ways to skin it:
 *
 * - `'gpu'` (default): a `SkinnedMesh`. Positions and normals are the bind pose our poser computes; skinIndex /
 *   skinWeight hold at most four influences per vertex, chosen as the glTF exporter does (`vertexInfluences`: weights
 *   on one joint merged, the four largest kept and renormalised, Doom 3 BFG's rule for its GPU format). A vertex with
 *   more is reported (`WEIGHTS_DROPPED`, with the largest share of weight dropped). Linear blend skinning of one bind
 *   position equals the MD5 formula (each weight its own position in its joint's space) when the weights' bind
 *   positions coincide, which exporters make them do up to their printed decimals (measured: ≤ 1.5e-4 of the
 *   bounding diagonal on the real files).
 * - `'exact'`: an `Md5PoserMesh`, skinned by our kernels from the same bones with all weights (the engine's formula).
 *
 * The mesh's bounding sphere covers the bind pose and every frame of every clip (positions skinned once per frame at
 * load, nothing kept), so frustum culling never drops an animated model that walks out of its bind pose's sphere.
 */
import { Box3, BufferAttribute, BufferGeometry, Matrix4, Sphere, SkinnedMesh, Uint16BufferAttribute, type AnimationClip, type Bone, type Group, type Material, type Skeleton } from 'three';
import type { ParseWarning } from '../base/errors.js';
import type { Md5Anim, Md5Mesh } from '../base/model.js';
import { MAX_INFLUENCES, vertexInfluences, type InfluenceStats } from '../pose/md5-bind.js';
import type { PoseBackend } from '../kernels/backend.js';
import { Md5Poser } from '../pose/md5-poser.js';
import { md5Clip } from './md5-clips.js';
import { Md5PoserMesh } from './md5-poser-mesh.js';
import { md5Bones } from './md5-skeleton.js';
import { distinct, reservedNames, uniqueNames } from './names.js';
import { indexAttribute, uvAttribute, zUpGroup } from './space.js';

export type Md5Skinning = 'gpu' | 'exact';

export interface Md5ThreeInput {
  name: string;
  mesh: Md5Mesh;
  anims: readonly { name: string; anim: Md5Anim }[];
  backend: PoseBackend;
  skinning: Md5Skinning;
  /** One per md5 mesh block (file order). */
  materials: Material[];
}

export interface Md5Three {
  /** The Z-up group: bones and mesh, in the file's axes. */
  root: Group;
  mesh: SkinnedMesh | Md5PoserMesh;
  skeleton: Skeleton;
  bones: Bone[];
  clips: AnimationClip[];
  warnings: ParseWarning[];
}

/** Bounds of the bind pose and of every frame of every anim, skinned by `poser` (positions only). */
function allFrameBounds(poser: Md5Poser, anims: Md5ThreeInput['anims']): Box3 {
  const box = new Box3();
  const grow = (p: Float32Array) => {
    for (let i = 0; i + 2 < p.length; i += 3) {
      const x = p[i], y = p[i + 1], z = p[i + 2];
      if (x < box.min.x) box.min.x = x;
      if (y < box.min.y) box.min.y = y;
      if (z < box.min.z) box.min.z = z;
      if (x > box.max.x) box.max.x = x;
      if (y > box.max.y) box.max.y = y;
      if (z > box.max.z) box.max.z = z;
    }
  };
  grow(poser.poseBind(false).positions);
  for (const { anim } of anims) {
    poser.setAnim(anim);
    for (let f = 0; f < anim.frameCount; f++) grow(poser.poseFrame(f, false).positions);
  }
  poser.setAnim(null);
  return box;
}

/** Indices of every mesh block back to back, counter-clockwise, and a geometry group per block with triangles. */
function addIndexAndGroups(geometry: BufferGeometry, mesh: Md5Mesh, starts: Uint32Array): void {
  const total = mesh.meshes.reduce((n, m) => n + m.triangles.length, 0);
  const all = new Uint32Array(total);
  let at = 0;
  mesh.meshes.forEach((m, i) => {
    for (let k = 0; k < m.triangles.length; k++) all[at + k] = starts[i] + m.triangles[k];
    if (m.triangles.length > 0) geometry.addGroup(at, m.triangles.length, i);
    at += m.triangles.length;
  });
  geometry.setIndex(indexAttribute(all, starts[mesh.meshes.length]));
}

export function md5ToThree(input: Md5ThreeInput): Md5Three {
  const { mesh, backend } = input;
  const warnings: ParseWarning[] = [];
  const poser = new Md5Poser(backend, mesh);
  try {
    const taken = reservedNames(input.name);
    const [meshName] = uniqueNames([`${input.name}_mesh`], 'mesh', taken);
    const { bones, roots, skeleton } = md5Bones(mesh, taken);
    const boneNames = bones.map((b) => b.name);
    const clipNames = distinct(input.anims.map((a) => a.name), 'anim');
    const clips = input.anims.map(({ anim }, i) => md5Clip(poser, anim, clipNames[i], boneNames));
    const box = allFrameBounds(poser, input.anims);
    poser.poseBind();

    const starts = poser.stream.meshVertexStart;
    const vertexCount = poser.vertexCount;
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(poser.positions.slice(), 3));
    const normals = poser.normals.slice();
    for (let i = 0; i < normals.length; i += 3) {
      // a vertex on no triangle with area has no normal: give it one rather than NaN in the shader
      if (normals[i] === 0 && normals[i + 1] === 0 && normals[i + 2] === 0) normals[i + 2] = 1;
    }
    geometry.setAttribute('normal', new BufferAttribute(normals, 3));
    const st = new Float32Array(vertexCount * 2);
    mesh.meshes.forEach((m, i) => st.set(m.uvs, starts[i] * 2));
    geometry.setAttribute('uv', uvAttribute(st));
    addIndexAndGroups(geometry, mesh, starts);
    const sphere = box.getBoundingSphere(new Sphere());

    let object: SkinnedMesh | Md5PoserMesh;
    if (input.skinning === 'exact') {
      geometry.boundingBox = box;
      geometry.boundingSphere = sphere;
      object = new Md5PoserMesh(geometry, input.materials, poser, bones);
    } else {
      const stats: InfluenceStats = { verticesLostWeight: 0, maxLostWeight: 0, jointsPerVertex: [] };
      const skinIndex = new Uint16Array(vertexCount * 4);
      const skinWeight = new Float32Array(vertexCount * 4);
      let nonPositive = 0;
      mesh.meshes.forEach((m, i) => {
        const inf = vertexInfluences(m, stats, true);
        skinIndex.set(inf.joints, starts[i] * 4);
        skinWeight.set(inf.weights, starts[i] * 4);
        nonPositive += inf.nonPositive;
      });
      geometry.setAttribute('skinIndex', new Uint16BufferAttribute(skinIndex, 4));
      geometry.setAttribute('skinWeight', new BufferAttribute(skinWeight, 4));
      if (stats.verticesLostWeight > 0) {
        warnings.push({
          code: 'WEIGHTS_DROPPED',
          message: `${stats.verticesLostWeight} vertices have more than ${MAX_INFLUENCES} joints: three.js skins with ${MAX_INFLUENCES}, so the ${MAX_INFLUENCES} largest were kept and renormalised (at most ${(stats.maxLostWeight * 100).toFixed(2)}% of a vertex's weight dropped); skinning: 'exact' skins with all of them`,
          offset: 0,
        });
      }
      if (nonPositive > 0) warnings.push({ code: 'NO_POSITIVE_WEIGHT', message: `${nonPositive} vertices have no positive weight: bound rigidly to their first joint`, offset: 0 });
      const skinned = new SkinnedMesh(geometry, input.materials);
      skinned.bind(skeleton, new Matrix4()); // the mesh sits at the origin of object space (see md5-skeleton.ts)
      skinned.boundingBox = box;
      skinned.boundingSphere = sphere;
      object = skinned;
      poser.dispose();
    }
    object.name = meshName;
    const root = zUpGroup(input.name);
    root.add(...roots, object);
    return { root, mesh: object, skeleton, bones, clips, warnings };
  } catch (e) {
    poser.dispose();
    throw e;
  }
}


/**
 * A skinned view (`formats/model-view.ts`: an md5mesh with its md5anims; any skeletal format) as three.js objects:
 * bones and a skeleton (`skeleton.ts`), one mesh whose geometry holds the view's groups back to back (a geometry
 * group and a material each), and one clip per view clip (`skinned-clips.ts`). Two ways to skin it:
 *
 * - `'gpu'` (default): a `SkinnedMesh`. Positions and normals are the view's bind pose; skinIndex / skinWeight its
 *   four influences per vertex. A vertex that had more is reported (`WEIGHTS_DROPPED`, with the largest share of
 *   weight dropped). For MD5, linear blend skinning of one bind position equals the engine's formula (each weight its
 *   own position in its joint's space) when the weights' bind positions coincide, which exporters make them do up to
 *   their printed decimals (measured: ≤ 1.5e-4 of the bounding diagonal on the real files).
 * - `'exact'`: a `SkinnedPoserMesh`, skinned by our kernels from the same bones with every weight (the view's `exact`
 *   skinner); a view without one is skinned on the GPU, with `EXACT_SKINNING_UNAVAILABLE`.
 *
 * The mesh's bounds are the view's (the bind pose and every frame of every clip), so frustum culling never drops an
 * animated model that walks out of its bind pose's sphere.
 */
import { BufferAttribute, BufferGeometry, Matrix4, Sphere, SkinnedMesh, Uint16BufferAttribute, type AnimationClip, type Bone, type Group, type Material, type Skeleton } from 'three';
import type { ParseWarning } from '../base/errors.js';
import type { SkinnedModelView } from '../formats/model-view.js';
import { distinct, reservedNames, uniqueNames } from './names.js';
import { viewBones } from './skeleton.js';
import { skinnedClip } from './skinned-clips.js';
import { SkinnedPoserMesh } from './skinned-poser-mesh.js';
import { box3, indexAttribute, uvAttribute, zUpGroup } from './space.js';

export type SkinningMode = 'gpu' | 'exact';

/** Influences three's skinning takes per vertex. */
const INFLUENCES = 4;

export interface SkinnedThreeOptions {
  name: string;
  /** The id of the model's format (what its clips' `userData.idtech.format` says). */
  format: string;
  skinning: SkinningMode;
  /** One per view group (md5 mesh block), in order. */
  materials: Material[];
}

export interface SkinnedThree {
  /** The Z-up group: bones and mesh, in the file's axes. */
  root: Group;
  mesh: SkinnedMesh | SkinnedPoserMesh;
  skeleton: Skeleton;
  bones: Bone[];
  clips: AnimationClip[];
  warnings: ParseWarning[];
}

/** A skinned mesh with four influences per vertex, and what keeping four cost. */
function gpuSkinned(view: SkinnedModelView, geometry: BufferGeometry, materials: Material[], skeleton: Skeleton, warnings: ParseWarning[]): SkinnedMesh {
  const inf = view.influences();
  geometry.setAttribute('skinIndex', new Uint16BufferAttribute(inf.joints, INFLUENCES));
  geometry.setAttribute('skinWeight', new BufferAttribute(inf.weights, INFLUENCES));
  if (inf.dropped.vertices > 0) {
    warnings.push({
      code: 'WEIGHTS_DROPPED',
      message: `${inf.dropped.vertices} vertices have more than ${INFLUENCES} joints: three.js skins with ${INFLUENCES}, so the ${INFLUENCES} largest were kept and renormalised (at most ${(inf.dropped.maxWeight * 100).toFixed(2)}% of a vertex's weight dropped); skinning: 'exact' skins with all of them`,
      offset: 0,
    });
  }
  if (inf.unweighted > 0) warnings.push({ code: 'NO_POSITIVE_WEIGHT', message: `${inf.unweighted} vertices have no positive weight: bound rigidly to their first joint`, offset: 0 });
  const skinned = new SkinnedMesh(geometry, materials);
  skinned.bind(skeleton, new Matrix4()); // the mesh sits at the origin of object space (see skeleton.ts)
  return skinned;
}

export function skinnedToThree(view: SkinnedModelView, options: SkinnedThreeOptions): SkinnedThree {
  const warnings: ParseWarning[] = [...view.warnings];
  try {
    const taken = reservedNames(options.name);
    const [meshName] = uniqueNames([`${options.name}_mesh`], 'mesh', taken);
    const { bones, roots, skeleton } = viewBones(view.joints, taken);
    const boneNames = bones.map((b) => b.name);
    const clipNames = distinct(view.clips.map((c) => c.name), 'anim');
    const clips = view.clips.map((c, i) => skinnedClip(c, clipNames[i], boneNames, options.format));

    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(view.positions.slice(), 3));
    const normals = view.normals.slice();
    for (let i = 0; i < normals.length; i += 3) {
      // a vertex on no triangle with area has no normal: give it one rather than NaN in the shader
      if (normals[i] === 0 && normals[i + 1] === 0 && normals[i + 2] === 0) normals[i + 2] = 1;
    }
    geometry.setAttribute('normal', new BufferAttribute(normals, 3));
    geometry.setAttribute('uv', uvAttribute(view.st));
    geometry.setIndex(indexAttribute(view.triangles, view.vertexCount));
    view.groups.forEach((g, i) => {
      if (g.count > 0) geometry.addGroup(g.start, g.count, i);
    });
    const box = box3(view.bounds);
    const sphere = box.getBoundingSphere(new Sphere());

    let object: SkinnedMesh | SkinnedPoserMesh;
    if (options.skinning === 'exact' && view.exact) {
      geometry.boundingBox = box;
      geometry.boundingSphere = sphere;
      object = new SkinnedPoserMesh(geometry, options.materials, view.exact(), bones, view.joints.parents);
    } else {
      if (options.skinning === 'exact') warnings.push({ code: 'EXACT_SKINNING_UNAVAILABLE', message: `${options.format}: no skinning with every weight here (its weights are what a skin of ${INFLUENCES} influences takes): skinned by three.js`, offset: 0 });
      const skinned = gpuSkinned(view, geometry, options.materials, skeleton, warnings);
      skinned.boundingBox = box;
      skinned.boundingSphere = sphere;
      object = skinned;
    }
    object.name = meshName;
    const root = zUpGroup(options.name);
    root.add(...roots, object);
    return { root, mesh: object, skeleton, bones, clips, warnings };
  } finally {
    view.dispose();
  }
}

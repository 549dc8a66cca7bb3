/**
 * idtech-models/three — the three.js adapter (`three` is a peer dependency: this entry imports it, never bundles it).
 *
 *   import { IdTechLoader } from 'idtech-models/three';
 *   const model = await new IdTechLoader().loadAsync('models/players/sarge/');   // or an .md5mesh with .md5anims, .md2, .md3
 *   scene.add(model.scene); model.play('LEGS_RUN', 'TORSO_STAND');            // each frame: model.update(dt)
 *
 * `modelToThree` turns data already parsed (`parseMd5Mesh` from `idtech-models/md5`, `parseMd2` from `/md2`, …) into the same objects
 * without the loader; the builders by kind (`morphToThree`, `skinnedToThree`, `taggedToThree`) take a format's view
 * (`FormatEntry.view`). docs/three.md explains the choices (skinning modes, morph modes, spaces, materials).
 */
export { IdTechLoader, gameRootOf, type IdTechFile, type IdTechLoadOptions, type IdTechProgress } from './three/loader.js';
export { IdTechModel, type IdTechFormat, type IdTechModelParts, type PoserDrivenMesh } from './three/model.js';
export { modelToThree, type ModelToThreeOptions } from './three/model-to-three.js';
export { morphToThree, type MorphThree, type MorphThreeOptions } from './three/morph-model.js';
export { skinnedToThree, type SkinningMode, type SkinnedThree, type SkinnedThreeOptions } from './three/skinned-model.js';
export { taggedToThree, type TaggedPartObjects, type TaggedThree, type TaggedThreeOptions } from './three/tagged-model.js';
export { SkinnedPoserMesh } from './three/skinned-poser-mesh.js';
export { MorphPoserMesh, type MorphMode } from './three/morph-mesh.js';
export type { SkinnedClipInfo } from './three/skinned-clips.js';
export type { MorphClipInfo } from './three/morph-clips.js';
export { threeMaterial, plainMaterial } from './three/materials.js';
export type { ModelView, MorphModelView, SkinnedModelView, TaggedModelView, ViewControl, ViewExtras, ViewSettings } from './formats/model-view.js';
// crowds: one InstancedMesh per surface, posed on the GPU from one texture per frame (issue 42; expect changes)
export { CrowdMesh, CROWD_TEXTURE_WIDTH, type CrowdThreeOptions } from './three/crowd.js';
export { createCrowd, openCrowd, disposeCrowdView, type Crowd, type CrowdOptions, type SkinnedCrowd, type MorphCrowd } from './crowd/index.js';

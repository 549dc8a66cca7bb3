/**
 * idtech-models/three — the three.js adapter (`three` is a peer dependency: this entry imports it, never bundles it).
 *
 *   import { IdTechLoader } from 'idtech-models/three';
 *   const model = await new IdTechLoader().loadAsync('models/players/sarge/');   // or an .md5mesh with .md5anims, .md2, .md3
 *   scene.add(model.scene); model.play('LEGS_RUN', 'TORSO_STAND');            // each frame: model.update(dt)
 *
 * The builders below turn data already parsed (the front door's `parseMd5Mesh`, `parseMd2`, …) into the same
 * objects without the loader. docs/three.md explains the choices (skinning modes, morph modes, spaces, materials).
 */
export { IdTechLoader, gameRootOf, type IdTechFile, type IdTechLoadOptions, type IdTechProgress } from './three/loader.js';
export { IdTechModel, type IdTechFormat, type IdTechModelParts, type PoserDrivenMesh } from './three/model.js';
export { md5ToThree, type Md5Skinning, type Md5Three, type Md5ThreeInput } from './three/md5-model.js';
export { md2ToThree, md3ToThree, type MorphThree, type MorphThreeOptions } from './three/morph-model.js';
export { playerToThree, type PlayerPartObjects, type PlayerThree, type PlayerThreeOptions } from './three/player.js';
export { Md5PoserMesh } from './three/md5-poser-mesh.js';
export { MorphPoserMesh, type MorphMode } from './three/morph-mesh.js';
export type { Md5ClipInfo } from './three/md5-clips.js';
export type { MorphClipInfo } from './three/morph-clips.js';
export { threeMaterial, plainMaterial } from './three/materials.js';

/**
 * idtech-models/write — id formats out: the MD5 (Doom 3), MD3 (Quake 3), MD2 (Quake 2) and MDL (Quake) writers,
 * taking the data model the parsers return (base/model.ts), so parse → write → parse gives the same model. Kept off
 * the front door (and out of the main browser bundle). docs/writers.md describes each writer and what it guarantees.
 * glTF in (`importGltf`, read with glTF Transform) builds the data model a writer takes: MD3, MD2, MDL and MD5
 * (mesh + anims).
 */
export { writeMd5Mesh, md5MeshChunks } from './write/md5-mesh.js';
export { writeMd5Anim, md5AnimChunks } from './write/md5-anim.js';
export { writeMd3 } from './write/md3.js';
export { writeMd2, md2TriangleGlCommands } from './write/md2.js';
export { md2GlCommands } from './write/md2-glcmds.js';
export { writeMdl, mdlEngineLimits } from './write/mdl.js';
export type { Md2Model, Md3Model, Md5Anim, Md5Mesh, MdlModel } from './base/model.js';
export { importGltf, gltfToMd3, packMd3Normal, type GltfImportFormat, type GltfToMd3Options } from './import/gltf-md3.js';
export { gltfToMd5, md5QuaternionXyz, type GltfMd5, type GltfMd5Anim, type GltfToMd5Options } from './import/gltf-md5.js';
export { gltfToMd2, type GltfToMd2Options } from './import/gltf-md2.js';
export { gltfToMdl, type GltfToMdlOptions } from './import/gltf-mdl.js';
export type { GltfInput } from './import/gltf.js';
export type { GltfResourceReader, GltfResourceRequest } from './import/gltf-resources.js';
// a glTF holding a Quake 3 player → lower/upper/head.md3 and its animation.cfg
export { gltfToPlayer, type GltfPlayerResult, type GltfToPlayerOptions, type PlayerCfgLine } from './import/gltf-player.js';
// the target engine's limits (ioquake3, Quake 2, Doom 3) on what is written, and MD3 surfaces cut to fit them
export { md2EngineLimits, md3EngineLimits, md5AnimEngineLimits, md5MeshEngineLimits, type WriteOptions } from './write/engine-limits.js';
export { splitMd3Surfaces, splitMd3Surface, type Md3SplitLimits } from './write/md3-split.js';
// IQM out: the writer, MD5 → IQM and glTF → IQM
export { writeIqm } from './write/iqm.js';
export { md5ToIqm, type Md5ToIqmOptions } from './import/md5-iqm.js';
export { gltfToIqm, type GltfIqm } from './import/gltf-iqm.js';

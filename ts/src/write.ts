/**
 * idtech-models/write — id formats out: the MD5 (Doom 3), MD3 (Quake 3), MD2 (Quake 2) and MDL (Quake) writers,
 * taking the data model the parsers return (base/model.ts), so parse → write → parse gives the same model. Kept off
 * the front door (and out of the main browser bundle). docs/writers.md describes each writer and what it guarantees.
 * glTF in (`importGltf`, read with glTF Transform) builds the data model a writer takes: MD3, MD2, MDL and MD5
 * (mesh + anims).
 */
export { writeMd5Mesh, md5MeshChunks } from './formats/md5/write-mesh.js';
export { writeMd5Anim, md5AnimChunks } from './formats/md5/write-anim.js';
export { writeMd3 } from './formats/md3/write.js';
export { writeMd2, md2TriangleGlCommands } from './formats/md2/write.js';
export { md2GlCommands } from './formats/md2/write-glcmds.js';
export { writeMdl, mdlEngineLimits } from './formats/mdl/write.js';
export type { Md2Model, Md3Model, Md5Anim, Md5Mesh, MdlModel } from './base/model.js';
export { gltfToMd3, packMd3Normal, type GltfToMd3Options } from './formats/md3/from-gltf.js';
export { importGltf, type GltfImportFormat } from './registry/import-gltf.js';
export { gltfToMd5, md5QuaternionXyz, type GltfMd5, type GltfMd5Anim, type GltfToMd5Options } from './import/gltf-md5.js';
export { gltfToMd2, type GltfToMd2Options } from './formats/md2/from-gltf.js';
export { gltfToMdl, type GltfToMdlOptions } from './formats/mdl/from-gltf.js';
export type { GltfInput } from './import/gltf.js';
export type { GltfResourceReader, GltfResourceRequest } from './import/gltf-resources.js';
// a glTF holding a Quake 3 player → lower/upper/head.md3 and its animation.cfg
export { gltfToPlayer, type GltfPlayerResult, type GltfToPlayerOptions, type PlayerCfgLine } from './formats/md3/player-from-gltf.js';
// the target engine's limits (ioquake3, Quake 2, Doom 3) on what is written, and MD3 surfaces cut to fit them
export { type WriteOptions } from './write/engine-limits.js';
export { md2EngineLimits } from './formats/md2/write-limits.js';
export { md3EngineLimits } from './formats/md3/write-limits.js';
export { md5AnimEngineLimits, md5MeshEngineLimits } from './formats/md5/write-limits.js';
export { splitMd3Surfaces, splitMd3Surface, type Md3SplitLimits } from './formats/md3/write-split.js';
// IQM out: the writer, MD5 → IQM and glTF → IQM
export { writeIqm } from './formats/iqm/write.js';
export { md5ToIqm, type Md5ToIqmOptions } from './formats/iqm/md5-iqm.js';
export { gltfToIqm, type GltfIqm } from './formats/iqm/from-gltf.js';
// glTF and OBJ files out: a .gltf with its .bin and images beside it, EXT_meshopt_compression, a model set's options
// (its companions as animations, as its registration makes them), an OBJ's material library
export { toGltf } from './registry/export.js';
export { gltfFiles, type GltfExportOptions } from './registry/gltf.js';
export { toGlbMeshopt } from './registry/gltf-meshopt.js';
export type { MeshoptOptions } from './export/gltf-meshopt.js';
export { setGltfOptions } from './registry/gltf-options.js';
export { objMaterialLibrary, type ObjMaterialLibrary } from './export/obj-material.js';

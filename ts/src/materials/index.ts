/**
 * The materials floor: skins, shader scripts, Doom 3 materials and the resolver that turns a model's surface
 * names into image files and render states, as the engines do (docs/materials.md).
 */
export { MaterialResolver, type MaterialResolverOptions, type MaterialSet, type Md3Options, type PlayerPart } from './resolver.js';
export { listSkins, PLAYER_PARTS, type SkinOffer } from './skins.js';
export { loadMaterialLibrary, type LibraryMaterial, type LibraryShader, type MaterialLibrary } from './library.js';
export { parseSkin, md3SurfaceKey, skinShaderFor, type SkinEntry, type SkinFile } from './skin-file.js';
export { parseShaderScript, type AlphaFunc, type ShaderDefinition, type ShaderScript, type ShaderStage } from './shader-script.js';
export { parseMtr, type MtrFile, type MtrMaterial, type MtrStage, type MtrStageRole } from './mtr.js';
export { parseImageProgram, type ImageProgram } from './image-program.js';
export { parseCubeModelConfig, md5MeshNamesFromText, type CubeModelConfig, type CubeSkin, type CubeBumpmap } from './cube-config.js';
export { quake3ImageCandidates, QUAKE3_IMAGE_EXTENSIONS, shaderKey, declKey } from './names.js';
export type * from './types.js';

/**
 * idtech-models — the public facade, the same in browsers and Node (`node.ts` adds file paths).
 *
 * bytes → `parseMd5MeshStream` / `parseMd5AnimStream` (or the one-buffer `parseMd5Mesh` / `parseMd5Anim`)
 *       → `createBackend('auto' | 'wasm-simd' | 'wasm-scalar' | 'ts')` → `new Md5Poser(backend, mesh)`
 *       → `poser.setAnim(anim)`, `poser.poseFrame(n)` / `poseTime(seconds)` → `poser.positions`, `poser.normals`
 *       → `toObj(...)`.
 */
export { ErrorCode, ModelParseError, type ErrorPosition, type ParseWarning } from './base/errors.js';
export type { Md5Anim, Md5Joints, Md5Mesh, Md5MeshPart } from './base/model.js';
export { Md5AnimFlag } from './base/model.js';
export { byteChunks, parseStream, type ByteSource, type ChunkParser, type ReadOptions } from './base/source.js';
export { Md5AnimParser, Md5MeshParser, Md5Tokenizer, LIMITS as MD5_LIMITS, parseMd5Anim, parseMd5Mesh } from './formats/md5/index.js';
export { parseMd5AnimStream, parseMd5MeshStream } from './formats/md5/stream.js';
export {
  openMd5Meshes,
  type ElementReader,
  type FrameStreamOptions,
  type Md5AnimFrame,
  type Md5AnimFrameReader,
  type Md5AnimHeader,
  type Md5MeshHeader,
  type Md5MeshReader,
} from './formats/md5/index.js';
export type { BackendChoice, BackendName, KernelBuffer, PoseBackend } from './kernels/backend.js';
export { createBackend } from './kernels/select.js';
export { createTsBackend } from './kernels/ts-backend.js';
export { createWasmBackend, wasmSimdSupported, wasmSupported } from './kernels/wasm-backend.js';
export { forEachMd5AnimFrame, openMd5AnimFrames, type PosedFrameStreamOptions } from './pose/md5-frame-stream.js';
export { Md5Poser, assertAnimMatchesMesh, frameAtTime, type FrameBlend } from './pose/md5-poser.js';
export { buildSkinStream, buildTangentStream, bindPose, groupedTriangles, type Md5SkinStream, type Md5TangentStream } from './pose/skin-stream.js';
export { Md2Poser, Md3Poser, clipBlend, MD2_DEFAULT_FPS, MD3_DEFAULT_FPS, type MorphBlend, type MorphClip, type Md2Frames, type Md3Frames } from './pose/morph-poser.js';
export { MD3_ANGLE_TABLE } from './kernels/tables.js';
export * as tsKernels from './kernels/ts-kernels.js';
export { toObj, type ObjOptions } from './export/obj.js';
export { buildGltf, gltfFiles, toGlb, toGltf, type GltfClip, type GltfModel, type GltfOptions, type GltfResult, type Md5GltfStats, type NamedMd5Anim } from './export/gltf.js';
export { boundingDiagonal } from './base/bounds.js';
export { openPlayable, supportedFormats } from './playable/open.js';
export { clipFrameAtTime, type Clip, type ModelFile, type ModelPlayer, type OpenOptions, type PlayableInfo, type PlayableModel, type PlayablePart } from './playable/playable.js';
export { ModelWorker, type PosedFrame, type WorkerFile } from './worker/client.js';
export type { Md2Clip, Md2GlCommands, Md2Model, Md2Skin } from './base/model.js';
export { Md2GlKind } from './base/model.js';
export {
  LIMITS as MD2_LIMITS,
  MD2_NORMALS,
  MD2_NORMAL_COUNT,
  Md2Parser,
  md2FrameNormals,
  md2FramePositions,
  md2GlCommandList,
  md2GlCommandTriangles,
  md2TexCoords,
  md2Unwelded,
  parseMd2,
  parseMd2Stream,
  type Md2GlCommand,
  type Md2Unwelded,
} from './formats/md2/index.js';
export type { Md3Model, Md3Surface } from './base/model.js';
export {
  MD3_DERIVED_ANIMATIONS,
  MD3_LIMITS,
  MD3_MAX_FILE_BYTES,
  MD3_PLAYER_ANIMATIONS,
  MD3_XYZ_SCALE,
  Md3Parser,
  decodeMd3Normal,
  md3FramePositions,
  md3LerpFramePositions,
  parseAnimationCfg,
  parseMd3,
  parseMd3Stream,
  type Md3Animation,
  type Md3AnimationCfg,
  type Md3AnimationName,
  type Md3FramePose,
} from './formats/md3/index.js';
export { lerpTag, md3TagIndex, TAG_FLOATS as MD3_TAG_FLOATS, type LerpTagOptions } from './pose/md3-tag.js';
export { md3ClipFrameAt } from './pose/md3-clip.js';
export {
  Md3Player,
  type Md3PartPose, type Md3PlayerModels, type Md3PlayerPart, type Md3PlayerPose, type Md3PlayerPoseInput, type Md3PlayerSurfaceRange,
} from './pose/md3-player.js';

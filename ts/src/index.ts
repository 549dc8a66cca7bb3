/**
 * idtech-models — the front door, the same in browsers and Node (`node.ts` adds file paths). What a user needs:
 * parse / open entry points, `createBackend`, the posers and the Quake 3 player, the exporters, the errors and the
 * data types. Everything else (tokenizer, kernels, tables, stream plumbing) is `idtech-models/advanced`.
 *
 * bytes → `parseMd5MeshStream` / `parseMd5AnimStream` (or the one-buffer `parseMd5Mesh` / `parseMd5Anim`)
 *       → `createBackend('auto' | 'wasm-simd' | 'wasm-scalar' | 'ts')` → `new Md5Poser(backend, mesh)`
 *       → `poser.setAnim(anim)`, `poser.poseFrame(n)` / `poseTime(seconds)` → `poser.positions`, `poser.normals`
 *       → `toObj(...)`, `toGlb(...)`.
 */
// errors and data shapes
export { ErrorCode, ModelParseError, type ErrorPosition, type ParseWarning } from './base/errors.js';
export type { Md2Clip, Md2GlCommands, Md2Model, Md2Skin, Md3Model, Md3Surface, Md5Anim, Md5Joints, Md5Mesh, Md5MeshPart } from './base/model.js';
export type { ByteSource, ReadOptions } from './base/source.js';
// parsing: one buffer, any stream, or element by element
export { parseMd5Anim, parseMd5Mesh } from './formats/md5/index.js';
export { parseMd5AnimStream, parseMd5MeshStream } from './formats/md5/stream.js';
export { openMd5Meshes, type Md5AnimFrame, type Md5AnimFrameReader, type Md5AnimHeader, type Md5MeshHeader, type Md5MeshReader } from './formats/md5/index.js';
export { parseMd2, parseMd2Stream } from './formats/md2/index.js';
export { parseMd3, parseMd3Stream } from './formats/md3/index.js';
export { parseAnimationCfg, type Md3Animation, type Md3AnimationCfg, type Md3AnimationClip, type Md3AnimationName } from './formats/md3/animation-cfg.js';
// images: TGA/PCX/BMP decoded to RGBA8 (PNG/JPEG passed through), and RGBA8 encoded as PNG
export { decodeImage } from './images/decode.js';
export { encodePng } from './images/png-encode.js';
export type { DecodedImage, RgbaImage, PassthroughImage, ImageFormat } from './images/types.js';

// materials: skins, shader scripts and .mtr files resolved to images through any FileSystem
export { MaterialResolver, type MaterialSet, type Md3Options } from './materials/resolver.js';
export { listSkins } from './materials/skins.js';
export type { ResolvedImage, ResolvedMaterial, MaterialWarning } from './materials/types.js';
export type { SkinOffer } from './materials/skins.js';
export { resolveModelTextures, type ModelTextures, type ResolveTexturesOptions, type TexturedModel } from './registry/textures.js';
export type { ResolvedTextures } from './export/textures.js';
// game folders and archives (.pk3 .pk4 .dpk, Quake's .pak) as one read-only FileSystem, in the engine's order
export type { FileSystem, VfsFile } from './vfs/file-system.js';
export { openArchive, type GameArchive } from './vfs/open-archive.js';
export type { OpenArchiveOptions, ZipArchive } from './vfs/zip-archive.js';
export type { PakArchive } from './vfs/pak-archive.js';
export { mountGameDir, type MountedGame, type MountOptions } from './vfs/game-dir.js';
export { droppedFileSystem, urlFileSystem } from './vfs/browser.js';
export type { ArchiveLimits } from './vfs/archive-limits.js';
// the hot path: a backend, and the posers on it
export { createBackend } from './kernels/select.js';
export type { BackendChoice, BackendName, PoseBackend } from './kernels/backend.js';
export { openMd5AnimFrames, type PosedFrameStreamOptions } from './formats/md5/composed-frames.js';
export { Md5Poser, type Md5PoserOptions } from './pose/md5-poser.js';
export type { FrameBlend, MorphClip } from './pose/timing.js';
export { Md2Poser } from './pose/md2-poser.js';
export { Md3Poser } from './pose/md3-poser.js';
export {
  Md3Player,
  type Md3PartPose, type Md3PlayerModels, type Md3PlayerPart, type Md3PlayerPose, type Md3PlayerPoseInput, type Md3PlayerSurfaceRange,
} from './formats/md3/player.js';
// out: OBJ, glTF
export { toObj, type ObjOptions } from './export/obj.js';
export { toGlb, toGltf, type GltfModel } from './registry/gltf.js';
export type { GltfClip, GltfOptions, GltfResult, NamedMd5Anim } from './export/gltf.js';
// any format, for drawing: the format-neutral facade and its worker
export { openPlayable } from './registry/open-lazy.js';
export { type Clip, type ModelFile, type ModelPlayer, type OpenOptions, type PlayableInfo, type PlayableModel, type PlayablePart, type PlayableMaterial, type PlayableImage, type PlayableTextureOptions } from './playable/playable.js';
export { ModelWorker, type PosedFrame, type WorkerFile, type WorkerLike, type WorkerTextures } from './worker/client.js';

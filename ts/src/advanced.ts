/**
 * idtech-models/advanced — the rooms behind the front door, for tools that build on the pipeline's pieces: the
 * push parsers and the MD5 tokenizer, the backend contract and both kernel sets, the tables, the skin-stream
 * preparation, clip timing helpers and the byte-source plumbing. These follow the code more closely than the
 * front door does: expect them to change between minor versions (see docs/architecture.md).
 */
// data-shape constants
export { Md2GlKind, Md5AnimFlag } from './base/model.js';
// byte sources
export { byteChunks, knownSize, parseStream, type ChunkParser } from './base/source.js';
export { boundingDiagonal } from './base/bounds.js';
export { recoverW } from './base/quat.js';
// text: the MD5 tokenizer and number scanner
export { Md5Tokenizer, decodeText, MAX_TOKEN_BYTES, type FloatRun, type IndexRun, type Md5TokenSink } from './text/tokenizer.js';
export { parseDecimal, parseDecimalInto, type DecimalResult } from './text/number.js';
// formats: push parsers, limits, format tables, detection
export { selectFormat, formatForName, formatForBytes, hasMagic, type ModelFormat, type FolderForm, type FormatRole, type AnimationKind, type Companion, type FileWarnings } from './load/format.js';
export { Md5AnimParser, Md5MeshParser, LIMITS as MD5_LIMITS, type Md5AnimParserOptions, type Md5MeshParserOptions } from './formats/md5/index.js';
export { openMd5AnimFrames as openRawMd5AnimFrames, type FrameStreamOptions } from './formats/md5/frame-stream.js';
export type { ElementReader } from './formats/md5/pull.js';
export { LIMITS as MD2_LIMITS, MD2_NORMALS, MD2_NORMAL_COUNT, Md2Parser, md2GlCommandList, md2GlCommandTriangles, md2TexCoords, md2Unwelded, type Md2GlCommand, type Md2Unwelded } from './formats/md2/index.js';
export { groupClips as md2GroupClips, clipNameOf as md2ClipNameOf } from './formats/md2/clips.js';
export { MD3_LIMITS, MD3_MAX_FILE_BYTES, Md3Parser } from './formats/md3/index.js';
export { MD3_BUILDABLE_ANIMATIONS, MD3_DERIVED_ANIMATIONS, MD3_NONSEGMENTED_ANIMATIONS, MD3_PLAYER_ANIMATIONS, MD3_UNVANQUISHED_PLAYER_ANIMATIONS, type AnimationCfgForm, type AnimationCfgOptions, type PlayerAnimationNames } from './formats/md3/animation-cfg.js';
// MDL (Quake): the room's pieces (the format registry wires MDL into the front door, the CLI and the loaders: formats/mdl/entry.ts)
export type { MdlModel, MdlSkin, MdlFrame, MdlTrailing, MdlVariant } from './base/model.js';
export { parseMdl, parseMdlStream, MdlParser, mdlFormat, isMdlHead, MDL_LIMITS, MDL_FLAG_NAMES, mdlClips, frameOfPose, mdlDrawVertices, type MdlDrawVertices } from './formats/mdl/index.js';
export { MdlPoser, type MdlPoses } from './formats/mdl/poser.js';
export { MDL_DEFAULT_FPS, mdlGroupBlend } from './pose/timing.js';
export { resolveMdlMaterials, mdlEmbeddedMaterials, mdlSkinPicture, mdlSkinKey, MF_HOLEY, QUAKE_PALETTE_PATH, MDL_REPLACEMENT_EXTENSIONS, type MdlMaterialOptions, type MdlMaterialSet } from './formats/mdl/materials.js';
export { addMdl, mdlEmbeddedTextures, mdlEffects } from './formats/mdl/gltf.js';
export { mdlToObj } from './formats/mdl/obj.js';
export { mdlPlayable } from './formats/mdl/playable.js';
// IQM: the room's pieces (the format registry wires IQM into the front door, the CLI and the loaders)
export {
  IqmParser, parseIqm, parseIqmStream, iqmFormat, readIqmConfig, parseFrameGroups, boundFrameGroups, iqmCompanionsBeside, iqmAcceptsCompanion,
} from './formats/iqm/index.js';
export { IqmPoser } from './pose/iqm-poser.js';
export { IQM_DEFAULT_FPS } from './pose/iqm-anim-match.js';
export * as tsIqmKernels from './kernels/ts-iqm-kernels.js';
// kernels: the backend contract, the TS and WASM backends, the TS kernels themselves, layouts and tables
export type * from './kernels/backend.js';
export { createTsBackend } from './kernels/ts-backend.js';
export { createWasmBackend, wasmSupported, wasmSimdSupported } from './kernels/wasm-backend.js';
export * as tsKernels from './kernels/ts-kernels-namespace.js';
export * as kernelLayout from './kernels/layout-namespace.js';
export { MD2_NORMAL_TABLE, MD3_NORMAL_TABLE, md3DecodedNormals, md3NormalBuffer } from './kernels/tables.js';
// pose: load-time preparation, timing, tags
export { assertAnimMatchesMesh } from './pose/md5-poser.js';
export { buildSkinStream, buildTangentStream, bindPose, groupedTriangles, type Md5SkinStream, type Md5TangentStream } from './pose/skin-stream.js';
export { MD2_DEFAULT_FPS, MD3_DEFAULT_FPS, clipBlend, frameAtTime, md3ClipFrameAt } from './pose/timing.js';
export type { Md2Frames } from './pose/md2-poser.js';
export type { Md3Frames } from './pose/md3-poser.js';
export { backToBackIndices } from './pose/morph-poser.js';
export { lerpTag, md3TagIndex, TAG_FLOATS as MD3_TAG_FLOATS, type LerpTagOptions } from './pose/md3-tag.js';
// export: the glTF document before packing
export { buildGltfDocument, type Md5GltfStats, type MdlExportOptions } from './export/gltf.js';
export { buildGltf, gltfFiles, type GltfExportOptions } from './registry/gltf.js';
export { setGltfOptions } from './registry/gltf-options.js';
export { toGlbMeshopt } from './registry/gltf-meshopt.js';
export type { MeshoptOptions } from './export/gltf-meshopt.js'; // EXT_meshopt_compression (loads the meshoptimizer encoder when called); `reorder` renumbers vertices for it
// textured export: resolved materials → images and render states glTF / OBJ can carry (docs/gltf.md)
export { objMaterialLibrary, type ObjMaterialLibrary } from './export/obj-material.js';
export type { ExportImage, ImageFile } from './export/textures.js';
export { ImageConverter } from './export/image-convert.js';
export { alphaLook, type AlphaLook } from './materials/look.js';
// the format registry: every format's registration, the model-set loader, what the pipeline does per format
export { supportedFormats } from './registry/open-playable.js';
export { DEFAULT_FORMATS, entryFor, entryOwning, readableExtensions } from './registry/formats.js';
export type { FormatEntry, InspectResult, Summary, GltfCapability, ObjCapability, WriterCapability, WriterOptions, WriterResult, MaterialOptions } from './formats/entry.js';
export { openModelSet, detectFile, folderChildren, folderOpening, fileHead, type ModelSet, type ModelSetOptions } from './load/model-set.js';
export { readingFile } from './base/errors.js';
export type { GltfOptionUse } from './formats/entry.js';
// images: per-format decoders and header readers behind decodeImage
export { readImageInfo, detectImageFormat, imageFormatFromName, decodeTga, tgaInfo, decodePcx, pcxInfo, pcxPalette, decodeBmp, bmpInfo, pngInfo, jpegInfo, MAX_RGBA_BYTES } from './images/index.js';
export { decodeQuakeSkin, quantizeQuakeSkin, parseQuakePalette, DEFAULT_QUAKE_PALETTE, QUAKE_FULLBRIGHT_FIRST, QUAKE_PALETTE_BYTES, type QuakeSkin, type QuakeSkinOptions } from './images/quake-palette.js';
export type { DecodeImageOptions, PcxOptions, PngInfo, JpegInfo, PngEncodeOptions, DecodedFormat, ImageInfo, PassthroughFormat } from './images/index.js';

// materials: the parsers and name rules behind MaterialResolver
export {
  PLAYER_PARTS, loadMaterialLibrary, parseSkin, md3SurfaceKey, skinShaderFor, parseShaderScript, parseMtr, parseImageProgram,
  parseCubeModelConfig, md5MeshNamesFromText, quake3ImageCandidates, QUAKE3_IMAGE_EXTENSIONS, shaderKey, declKey,
  type LibraryMaterial, type LibraryShader, type MaterialLibrary, type SkinEntry, type SkinFile, type ShaderDefinition,
  type ShaderScript, type ShaderStage, type MtrFile, type MtrMaterial, type MtrStage, type ImageProgram, type CubeModelConfig,
} from './materials/index.js';
export { ScriptLexer } from './text/script-lexer.js';
// file systems
export { pathKey, type FileSystem, type VfsFile } from './vfs/file-system.js';
export { openZip } from './vfs/zip-archive.js';
export { readZipDirectory, isUnsafeArchivePath } from './vfs/zip-directory.js';
export { openPak, windowReader, type OpenPakOptions } from './vfs/pak-archive.js';
export { readPakHeader, readPakDirectory, type PakDirectory } from './vfs/pak-directory.js';
export { mountedPaks, type PakNumbering } from './vfs/paks.js';
export { openArchiveReader } from './vfs/open-archive.js';
export { directoryEntryFileSystem, blobFileSystem, type UrlFileSystemOptions } from './vfs/browser.js';
export { overlayFileSystem, subFolderFileSystem, filteredFileSystem } from './vfs/overlay.js';
export { mountGameDirs, compareArchiveNames, ARCHIVE_EXTENSIONS, ARCHIVE_FILE_EXTENSIONS, ARCHIVE_FOLDER_EXTENSIONS, type MountLayer } from './vfs/game-dir.js';
export { bytesReader, blobReader, type RandomAccessReader } from './vfs/reader.js';
export { urlReader, type UrlReaderOptions } from './vfs/http-reader.js';
export { fflateInflater, streamInflater, defaultInflater, type Inflater } from './vfs/inflate.js';
export { crc32, crc32Update } from './base/crc32.js';
export { safeOutputPath, safeRelativePath } from './vfs/safe-path.js';
export { resolveLimits, DEFLATE_MAX_RATIO } from './vfs/archive-limits.js';
// the bounds that keep memory proportional to the input (docs/security.md): process-wide defaults, each room's option wins
export { DEFAULT_RESOURCE_LIMITS, resourceLimits, setResourceLimits, resetResourceLimits, type ResourceLimits } from './base/resource-limits.js';
export type { ResourceReader, ResourceRequest } from './vfs/resource-reader.js';
export { memoryFileSystem } from './vfs/memory.js';

// helpers kept off the front door (it holds at most 40 values): SIMD detection (createBackend('auto') uses it), the
// callback form of openMd5AnimFrames, and time → frames for a playable's clip
export { forEachMd5AnimFrame } from './formats/md5/composed-frames.js';
export { clipFrameAtTime } from './playable/playable.js';

// bakes across cores: a pool of workers sharing one output (Node: `idtech-models/node`'s createBakePool)
export { BakePool, bakeFramesParallel, frameRuns, type BakeEndpoint, type BakePoolOptions } from './bake/pool.js';
export { serveBakes } from './bake/task.js';
export type { BakeReply, BakeRequest } from './bake/protocol.js';

// the models a file system holds (an archive, a game folder): what the CLI's `inspect ARCHIVE` and the demo's archive picker list
export { catalogModels, type CatalogEntry } from './registry/catalog.js';
// crowds: many instances of one posable model posed together once per frame (issue 42; expect changes)
export { createCrowd, openCrowd, disposeCrowdView, createSkinnedCrowd, createMorphCrowd, morphFrameTable, keyAt, MAX_CROWD } from './crowd/index.js';
export type { Crowd, CrowdOptions, CrowdStart, CrowdInstances, SkinnedCrowd, SkinnedCrowdOptions, CrowdClip, MorphCrowd, MorphCrowdClip, MorphCrowdOptions, KeyBlend, ClockClip } from './crowd/index.js';

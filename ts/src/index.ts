/**
 * idtech-models — the stable door, format-neutral, the same in browsers and Node (`node.ts` adds file paths). A file
 * goes in, a model set, a playable or an export comes out, for any registered format, through the list of formats
 * handed in (`DEFAULT_FORMATS`, or a tool's own list):
 *
 *   const set = await openModelSet(fs, 'models/monsters/dog.mdl', { formats: DEFAULT_FORMATS });
 *   const glb = await toGlb(set, { formats: DEFAULT_FORMATS });     // the set's registration exports it
 *
 * Kept small (a test holds at most 13 values) and stable: what is about one format is on its own entry
 * (`idtech-models/md5`, `/md2`, `/md3`, `/mdl`, `/iqm`, `/goldsrc`: parsers, posers, its registration; each in its
 * folder, `formats/<x>/public.ts`); file systems are
 * `idtech-models/files`, materials and images `idtech-models/textures`, what is written `idtech-models/write`, the
 * rooms behind all of them `idtech-models/advanced` (expect changes). Types cost nothing and are exported freely.
 */
// errors
export { ErrorCode, ModelParseError, type ErrorPosition, type ParseWarning } from './base/errors.js';
// the formats: the list, and which of them a file is (by name, else first bytes)
export { DEFAULT_FORMATS } from './registry/formats.js';
export { selectFormat, type ModelFormat, type Companion, type CompanionRef, type FileWarnings, type FolderForm, type FormatRole, type AnimationKind } from './load/format.js';
export type { FormatEntry, ModelEntry, GltfCapability, ObjCapability, WriterCapability, InspectResult, Summary, GltfOptionUse } from './formats/entry.js';
// a model with everything that belongs to it, from any FileSystem; what an archive or game folder holds
export { openModelSet, type ModelSet, type ModelSetOptions } from './load/model-set.js';
export { catalogModels, type CatalogEntry } from './registry/catalog.js';
export { openArchive, type GameArchive } from './vfs/open-archive.js';
export type { FileSystem, VfsFile } from './vfs/file-system.js';
export type { OpenArchiveOptions, ZipArchive } from './vfs/zip-archive.js';
export type { PakArchive } from './vfs/pak-archive.js';
export type { ArchiveLimits } from './vfs/archive-limits.js';
export type { ByteSource, ReadOptions } from './base/source.js';
// out, by the model's registration: glTF (its exporter loaded on first use), one posed frame as OBJ
export { toGlb, toObj, type ExportBy, type ExportOptions, type ToObjOptions } from './registry/export.js';
export type { GltfClip, GltfOptions, GltfResult, NamedMd5Anim } from './export/gltf.js';
// for drawing: any format's playable form, posed on a backend, on the main thread or in a worker
export { openPlayable } from './registry/open-lazy.js';
export type { OpenPlayableOptions } from './registry/open-playable.js';
export { type Clip, type ModelFile, type ModelPlayer, type OpenOptions, type PlayableInfo, type PlayableModel, type PlayablePart, type PlayableMaterial, type PlayableImage, type PlayableTextureOptions } from './playable/playable.js';
export { createBackend } from './kernels/select.js';
export { wasmSimdSupported } from './kernels/simd-support.js';
export type { BackendChoice, BackendName, PoseBackend } from './kernels/backend.js';
export type { FrameBlend, MorphClip } from './pose/timing.js';
export { ModelWorker, type PosedFrame, type WorkerFile, type WorkerLike, type WorkerTextures } from './worker/client.js';
// the data shapes every format's parser returns
export type { Md2Model, Md3Model, Md5Anim, Md5Mesh, MdlModel, IqmModel } from './base/model.js';
// materials as resolved (idtech-models/textures resolves them)
export type { ResolvedImage, ResolvedMaterial, MaterialWarning } from './materials/types.js';
export type { MaterialSet } from './materials/resolver.js';

/**
 * The Node entry: everything in `index.ts`, plus reading from file paths (streamed, never whole). Reached as
 * `idtech-models` under the `node` export condition and as `idtech-models/node` (for TypeScript's `bundler`
 * resolution, which does not pick the `node` condition; docs/package.md).
 *
 *   const set = await openModelFile('models/monsters/dog.mdl');            // any registered format, from a path
 *   const glb = await toGlb(set, { formats: DEFAULT_FORMATS });
 */
export * from './index.js';
// Any registered format from a path: a model file with the files given to play on it (or `companions: 'beside'`),
// or a folder of a folder format (a Quake 3 player).
export { openModelOnDisk as openModelFile, type DiskModelOptions as ModelFileOptions } from './registry/node.js';
export { fileChunks } from './load/node.js';
// A player folder with its skin, and any model's textures, resolved in the game folder found above it on disk.
export { loadPlayer, resolveTexturesOnDisk, type LoadedPlayer, type GameFolderTextures } from './registry/node.js';
export { locateGameFolder, looseModelRoot, type GameFolderPlace } from './load/game-folder.js';
// The Node forms take paths too (and inflate with node:zlib); they replace the front door's `openArchive`.
export { openArchive, mountGameDir, openPath, lazyFolderFileSystem } from './vfs/node.js'; // a plain folder: mountGameDir(dir) (its loose files, then its archives)
// Bakes across cores on worker threads (dist/bake-worker.js); the pool class and the browser form are in ./advanced.
export { createBakePool, type NodeBakeOptions } from './bake/node.js';
// The files a .gltf names (buffers, images), read only from its own folder, only regular files: importGltf's readResource.
export { gltfFileReader } from './load/gltf-files.js';
// The bounds that keep memory proportional to the input (docs/security.md), process-wide: what the CLI's --limit sets.
export { DEFAULT_RESOURCE_LIMITS, resourceLimits, setResourceLimits, type ResourceLimits } from './base/resource-limits.js';
// A read that names its file in the error it throws (ModelParseError.file).
export { readingFile } from './base/errors.js';

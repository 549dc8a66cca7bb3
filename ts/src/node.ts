/**
 * The Node entry: everything in `index.ts`, plus reading from file paths (streamed, never whole). Reached as
 * `idtech-models` under the `node` export condition and as `idtech-models/node` (for TypeScript's `bundler`
 * resolution, which does not pick the `node` condition; docs/package.md).
 */
export * from './index.js';
export { fileChunks } from './load/node.js';
export { loadMd5Anim, loadMd5Mesh } from './formats/md5/node.js';
export { loadMd2 } from './formats/md2/node.js';
export { loadMd3 } from './formats/md3/node.js';
// A player folder with its skin, and any model's textures, resolved in the game folder found above it on disk.
export { loadPlayer, resolveTexturesOnDisk, type LoadedPlayer, type GameFolderTextures } from './registry/node.js';
export type { GameFolderPlace } from './load/game-folder.js';
// The Node forms take paths too (and inflate with node:zlib); they replace the front door's `openArchive` and `mountGameDir`.
export { openArchive, mountGameDir } from './vfs/node.js'; // a plain folder: mountGameDir(dir) (its loose files, then its archives)
// Bakes across cores on worker threads (dist/bake-worker.js); the pool class and the browser form are in ./advanced.
// bakes across cores on worker threads (the pool's class and the browser form are in ./advanced)
export { createBakePool, type NodeBakeOptions } from './bake/node.js';
// The files a .gltf names (buffers, images), read only from its own folder, only regular files: importGltf's readResource.
export { gltfFileReader } from './load/gltf-files.js';

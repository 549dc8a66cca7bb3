/**
 * The Node entry: everything in `index.ts`, plus reading from file paths (streamed, never whole). Reached as
 * `idtech-models` under the `node` export condition and as `idtech-models/node` (for TypeScript's `bundler`
 * resolution, which does not pick the `node` condition; docs/package.md).
 */
export * from './index.js';
export { fileChunks, loadMd2, loadMd3, loadMd5Anim, loadMd5Mesh } from './load/node.js';
// The Node forms take paths too (and inflate with node:zlib); they replace the front door's `openArchive` and `mountGameDir`.
export { folderFileSystem, openArchive, mountGameDir } from './load/node.js';
// Bakes across cores on worker threads (dist/bake-worker.js); the pool class and the browser form are in ./advanced.
export { bakeFramesParallel, createBakePool, workerThreadSpawner, type NodeBakeOptions } from './bake/node.js';

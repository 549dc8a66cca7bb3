/**
 * idtech-models/advanced in Node: everything in `advanced.ts`, plus the rooms behind the Node door that read paths
 * (node:fs, node:zlib) — a folder, an archive or a game folder from a path as one FileSystem, a folder read only as
 * asked, a model with what plays on it from disk, and where a model on disk finds its game folder. The command line
 * is built on these and the front door.
 */
export * from './advanced.js';
export { folderFileSystem, lazyFolderFileSystem, openPath, fileReader, zlibInflater } from './vfs/node.js';
export { locateGameFolder, looseModelRoot, GAME_FOLDER_MARKERS, type GameFolderPlace } from './load/game-folder.js';
export { openModelOnDisk, type DiskModelOptions } from './registry/node.js';

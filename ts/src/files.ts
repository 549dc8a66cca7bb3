/**
 * idtech-models/files — where models come from: the read-only `FileSystem` every reader takes (a folder dropped on a
 * page, files behind URLs, bytes in memory, layers of them), a game folder mounted in its engine's order, archives
 * (`openArchive` is on the stable door), and the look-ups a tool makes on a list of formats for the files it meets
 * (which format a name or a file is, a folder's children, the extensions for a message). Node's forms, reading
 * paths, are on `idtech-models/node`.
 */
export type { FileSystem, VfsFile } from './vfs/file-system.js';
export { memoryFileSystem } from './vfs/memory.js';
export { blobFileSystem, droppedFileSystem, urlFileSystem, type UrlFileSystemOptions } from './vfs/browser.js';
export { overlayFileSystem, subFolderFileSystem } from './vfs/overlay.js';
export { mountGameDir, ARCHIVE_EXTENSIONS, ARCHIVE_FILE_EXTENSIONS, type MountedGame, type MountOptions } from './vfs/game-dir.js';
export { safeOutputPath } from './vfs/safe-path.js';
// a list of formats and the files a tool meets
export { formatForName } from './load/format.js';
export { detectFile, folderChildren, folderOpening } from './load/model-set.js';
export { entryFor, readableExtensions } from './registry/formats.js';

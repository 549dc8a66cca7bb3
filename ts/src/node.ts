/** The Node entry: everything in `index.ts`, plus reading from file paths (streamed, never whole). */
export * from './index.js';
export { fileChunks, loadMd2, loadMd3, loadMd5Anim, loadMd5Mesh } from './load/node.js';

/**
 * A shared-corpus folder as a FileSystem: every file under `root` (a folder of ../shared/models) read into a
 * memoryFileSystem with paths relative to `root`, as a game folder or archive mounted at `root` would show them.
 * The vfs floor's own folder file system is written elsewhere; tests need only this.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import type { FileSystem } from '../../src/vfs/file-system.js';
import { SHARED_MODELS } from './models.js';

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

const cache = new Map<string, FileSystem>();

/** The folder `root` (relative to ../shared/models, '' for all of it) as a FileSystem; cached per root. */
export function sharedFileSystem(root: string): FileSystem {
  let fs = cache.get(root);
  if (!fs) {
    const abs = join(SHARED_MODELS, root);
    fs = memoryFileSystem(walk(abs).map((p) => ({ path: relative(abs, p).split('\\').join('/'), bytes: new Uint8Array(readFileSync(p)) })), root || 'shared');
    cache.set(root, fs);
  }
  return fs;
}

/** A model file of the corpus, read. */
export const sharedBytes = (path: string): Uint8Array => new Uint8Array(readFileSync(join(SHARED_MODELS, path)));

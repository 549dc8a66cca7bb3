/**
 * Node only (node:fs). The reader for the files a `.gltf` names (its buffers' `.bin`s and its images), for
 * `importGltf({ bytes, readResource: gltfFileReader(path) }, …)` and the CLI's `convert IN.gltf`. The library has
 * already refused URLs, absolute paths, `..` and malformed URIs (import/gltf-resources.ts); this reader adds what only
 * the file system can tell:
 * - the file must resolve — symbolic links followed, then compared as real paths — to a place inside the `.gltf`'s
 *   own folder (its real path): a link `tex.png → /etc/passwd` beside the model is UNSAFE_PATH, not read;
 * - it must be a regular file: a FIFO (which would block forever), a device (`/dev/zero`, which never ends) or a
 *   folder is READ_FAILED;
 * - its size is checked before it is read: a buffer must hold its declared byteLength (TRUNCATED) and is read to
 *   that length only; any file over `maxGltfFileBytes` (default 256 MiB) is RESOURCE_LIMIT.
 * docs/security.md states the rule for a reader of your own.
 */
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { shortName } from '../base/message-name.js';
import { resourceLimits } from '../base/resource-limits.js';
import type { ResourceReader } from '../vfs/resource-reader.js';
import { readRegularFile } from './regular-file.js';

export interface GltfFileReaderOptions {
  /** Largest file read (buffer or image). Default the process's `maxGltfFileBytes` (256 MiB). */
  maxGltfFileBytes?: number;
}

/** Reads what the `.gltf` at `gltfPath` names, from its own folder only (see the file comment). */
export function gltfFileReader(gltfPath: string, options: GltfFileReaderOptions = {}): ResourceReader {
  let folder: Promise<string> | undefined;
  return async (r) => {
    const root = await (folder ??= realpath(dirname(resolve(gltfPath))));
    const label = `${r.kind} ${r.index}'s uri '${shortName(r.uri)}'`;
    const fail = (code: ErrorCode, why: string) => new ModelParseError(code, `${label} ${why}`, { offset: 0 });
    const real = await realpath(join(root, r.path)).catch((e: NodeJS.ErrnoException) => {
      throw fail(ErrorCode.ReadFailed, `names ${r.path}, which cannot be found beside the glTF (${e.code ?? e.message})`);
    });
    const rel = relative(root, real);
    if (rel === '..' || rel.startsWith('../') || rel.startsWith('..\\') || isAbsolute(rel)) {
      throw fail(ErrorCode.UnsafePath, `leads to ${real} (through a symbolic link), outside the glTF's folder ${root}: not read`);
    }
    const max = options.maxGltfFileBytes ?? resourceLimits().maxGltfFileBytes;
    return readRegularFile(real, { label, maxBytes: max, limit: 'maxGltfFileBytes', expectBytes: r.byteLength });
  };
}

/** What every command shares: naming the file a failure belongs to, and knowing what kind of file it is. */
import { open } from 'node:fs/promises';
import { UsageError } from './args.js';
import { kindFromBytes, kindFromName, type FileKind } from '../formats/detect.js';

/** A failure while reading one input file; `main` prints it as `file:position: CODE: detail`, exit 1. */
export class InputError extends Error {
  constructor(readonly file: string, override readonly cause: unknown) {
    super(String(cause));
  }
}

/** The kind of `path`: by extension, else by its first bytes. */
export async function kindOf(path: string): Promise<FileKind> {
  const byName = kindFromName(path);
  if (byName) return byName;
  const fh = await open(path, 'r');
  try {
    const head = new Uint8Array(4096);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    const k = kindFromBytes(head.subarray(0, bytesRead));
    if (!k) throw new UsageError(`${path}: not a model file this tool reads (.md5mesh, .md5anim, .md2, .md3)`);
    return k;
  } finally {
    await fh.close();
  }
}

/** Runs `f`, attributing any failure to `file`. */
export async function load<T>(file: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw new InputError(file, e);
  }
}

/**
 * A file's bytes as chunks read into ONE reused buffer: each chunk is only valid until the next is requested.
 * That suits the parsers, which consume a chunk before asking for another (and copy only a token cut at its end);
 * it keeps a 1 GB read from leaving a trail of 64 KiB buffers for the garbage collector, which is what holds
 * `inspect` of a huge md5anim to a flat RSS. Closes the file when the consumer stops, early or not.
 */
export async function* reusedFileChunks(path: string, chunkSize = 64 * 1024): AsyncGenerator<Uint8Array, void, undefined> {
  const fh = await open(path, 'r');
  try {
    const buf = new Uint8Array(chunkSize);
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, chunkSize, null);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  } finally {
    await fh.close();
  }
}

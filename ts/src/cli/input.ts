/** What every command shares: naming the file a failure belongs to, and knowing what kind of file it is. */
import { open, stat } from 'node:fs/promises';
import { kindFromBytes, kindFromName, READ_KINDS, type FileKind } from '../formats/detect.js';

/** The kinds a command can be handed (detect.ts also knows `md5camera`, only to refuse it by name). */
export type ReadKind = Exclude<FileKind, 'md5camera'>;

/** `.md5mesh, .md5anim, .md2, .md3`: what the tool reads, for messages. */
export const READABLE = READ_KINDS.map((k) => `.${k}`).join(', ');

/**
 * A failure that belongs to one file (an input, or an output that could not be written); `main` prints it on one
 * line (report.ts: `file:position: CODE: detail`, or `file: what`) and exits 1. `note` adds context the cause
 * cannot know (e.g. the mesh an anim was checked against).
 */
export class InputError extends Error {
  constructor(readonly file: string, override readonly cause: unknown, readonly note?: string) {
    super(String(cause));
  }
}

/** Bad input described in words (no parser error or system error behind it). */
export const badInput = (file: string, message: string): InputError => new InputError(file, new Error(message));

/** Runs `f`, attributing any failure to `file`. */
export async function load<T>(file: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw e instanceof InputError ? e : new InputError(file, e);
  }
}

/** Whether `path` is a folder; a missing path fails as bad input (`path: no such file or folder (ENOENT)`). */
export async function isFolder(path: string): Promise<boolean> {
  return (await load(path, () => stat(path))).isDirectory();
}

/**
 * The kind of the file at `path`: by extension, else by its first bytes. A folder, a file of no known kind and a
 * Doom 3 camera path each fail as bad input, with a line saying which.
 */
export async function kindOf(path: string): Promise<ReadKind> {
  if (await isFolder(path)) throw badInput(path, `is a folder, not a model file (${READABLE})`);
  const kind = kindFromName(path) ?? (await load(path, () => sniff(path)));
  if (kind === null) throw badInput(path, `not a model file this tool reads (${READABLE}): no known extension, and its first bytes are neither MD2/MD3 magic (IDP2, IDP3) nor MD5 text`);
  if (kind === 'md5camera') throw badInput(path, `a Doom 3 camera path (.md5camera), which this tool does not read (it reads ${READABLE})`);
  return kind;
}

async function sniff(path: string): Promise<FileKind | null> {
  const fh = await open(path, 'r');
  try {
    const head = new Uint8Array(4096);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    return kindFromBytes(head.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

/**
 * A file's bytes as chunks read into TWO reused buffers, the next read in flight while the consumer parses the
 * current chunk: each chunk is only valid until the next is requested. That suits the parsers, which consume a
 * chunk before asking for another (and copy only a token cut at its end); it keeps a 1 GB read from leaving a trail
 * of buffers for the garbage collector, which is what holds `inspect` of a huge md5anim to a flat RSS. 512 KiB chunks:
 * with 64 KiB ones and no read-ahead, a 100 MB md5anim spent a third of `inspect` idle, waiting on 1,500 reads
 * (docs/benchmarks.md). Closes the file when the consumer stops, early or not.
 */
export async function* reusedFileChunks(path: string, chunkSize = 1 << 19): AsyncGenerator<Uint8Array, void, undefined> {
  const fh = await open(path, 'r');
  const bufs = [new Uint8Array(chunkSize), new Uint8Array(chunkSize)];
  let pending = fh.read(bufs[0], 0, chunkSize, null);
  try {
    for (let i = 0; ; i ^= 1) {
      const { bytesRead } = await pending;
      if (bytesRead === 0) return;
      // The other buffer is free: the consumer finished with it before asking for this chunk.
      pending = fh.read(bufs[i ^ 1], 0, chunkSize, null);
      yield bufs[i].subarray(0, bytesRead);
    }
  } finally {
    await pending.catch(() => undefined); // never close under a read in flight
    await fh.close();
  }
}

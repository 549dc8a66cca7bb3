/**
 * Inputs that hold many files: an archive (.pk3 .pk4 .dpk), a folder of them or a game folder (mounted in the
 * engine's order, vfs/game-dir.ts), and `ARCHIVE:INNER` — a model file or player folder inside an archive
 * (`pak0.pk3:models/players/sarge/`). The split is at the first colon right after an archive extension, so a
 * Windows drive letter (`C:\q3\pak0.pk3:models/x.md3`) is never taken for one; a path that exists as given is
 * never split. Everything is read through the returned FileSystem: members are streamed, never extracted.
 */
import { stat } from 'node:fs/promises';
import type { ParseWarning } from '../base/errors.js';
import type { FileSystem } from '../vfs/file-system.js';
import { ARCHIVE_EXTENSIONS } from '../vfs/game-dir.js';
import { openPath } from '../vfs/node.js';
import { load } from './input.js';

export interface ArchivePath {
  archive: string;
  /** '/'-separated, no leading or trailing '/' ('' for the archive's root). */
  inner: string;
}

const SPLIT = new RegExp(`^(.+?(?:${ARCHIVE_EXTENSIONS.map((x) => x.replace('.', '\\.')).join('|')})):(.*)$`, 'i');

/** `ARCHIVE:INNER` split, or null when `arg` names no archive member (or exists as a path itself). */
export async function archivePath(arg: string): Promise<ArchivePath | null> {
  const m = SPLIT.exec(arg);
  if (!m) return null;
  if (await stat(arg).then(() => true, () => false)) return null;
  return { archive: m[1], inner: m[2].replace(/\\/g, '/').replace(/^\/+|\/+$/g, '') };
}

/** Whether `path` is a folder or an archive file (by extension): an input that holds models, not a model. */
export async function isContainer(path: string): Promise<boolean> {
  const s = await stat(path).catch(() => null);
  if (!s) return false;
  return s.isDirectory() || ARCHIVE_EXTENSIONS.some((x) => path.toLowerCase().endsWith(x));
}

export type OpenedInput = FileSystem & { close(): Promise<void>; warnings?: readonly ParseWarning[] };

/** An archive or a game folder as one FileSystem (a failure to open it is bad input naming `path`). */
export function openContainer(path: string): Promise<OpenedInput> {
  return load(path, () => openPath(path));
}

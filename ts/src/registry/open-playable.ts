/**
 * `openPlayable`: files in (any byte sources, named), one `PlayableModel` out, through the format registry. The
 * files become a file system; the one model they hold is read with what plays on it by the model-set loader (a
 * folder format when the files make one: a Quake 3 player's parts), and its registration makes it playable.
 * Formats are picked by name, or, without a known extension, by their first bytes.
 */
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { openModelSet, type ModelSet } from '../load/model-set.js';
import { playableMaterials } from '../playable/materials.js';
import type { ModelFile, OpenOptions, PlayableModel } from '../playable/playable.js';
import type { FormatEntry } from '../formats/entry.js';
import { DEFAULT_FORMATS } from './formats.js';
import { filesFileSystem, pickModel, sourceFile } from './model-files.js';
import { resolveModelTextures } from './textures.js';

export interface OpenPlayableOptions extends OpenOptions {
  /** The formats to recognise (default: every format this package reads). */
  formats?: readonly FormatEntry[];
}

const noModel = (detail: string) => new ModelParseError(ErrorCode.UnknownFormat, detail, { offset: 0 });

/**
 * Opens a model from its files: a model file with what plays on it (an `.md5mesh` with any number of `.md5anim`s,
 * each a clip), or the files of a folder format (a Quake 3 player's parts and animation.cfg). Failures reject with
 * a `ModelParseError` naming the file: the parser's for bad bytes, UNKNOWN_FORMAT for files that do not make one
 * model, ANIM_MESH_MISMATCH for an animation that does not fit.
 */
export async function openPlayable(files: ModelFile[], options: OpenPlayableOptions = {}): Promise<PlayableModel> {
  if (files.length === 0) throw noModel('no files given');
  const formats = options.formats ?? DEFAULT_FORMATS;
  const total = files.every((f) => typeof f.size === 'number') ? files.reduce((n, f) => n + (f.size ?? 0), 0) : undefined;
  let read = 0;
  let current = files[0].name;
  const vfs = files.map((f) =>
    sourceFile(f, options.signal, (n) => {
      read += n;
      current = f.name;
      options.onProgress?.(read, total, current);
    }),
  );
  const fs = filesFileSystem(vfs);
  const picked = await pickModel(vfs, formats, options.signal);
  const set: ModelSet<unknown, FormatEntry> = await openModelSet(fs, picked.path, { formats, format: picked.format, companions: picked.companions, signal: options.signal });
  const entry = set.registration;
  if (!entry.playable) throw noModel(`${entry.title}: not playable here`).inFile(set.origin);
  const opened = await entry.playable(set);
  // a re-release's MD5 model drawn in its place (docs/md5-replacements.md): playable too, beside the original
  const r = set.replacement;
  const rEntry = r ? (r.set.registration as FormatEntry) : null; // opened through the same registrations
  if (r && rEntry?.playable) opened.replacement = { model: await rEntry.playable(r.set), by: r.by, replaces: r.replaces };
  if (options.textures) {
    const t = await resolveModelTextures(options.textures.fileSystem, set, options.textures.modelPath, { skin: options.textures.skin, signal: options.signal });
    const { materials, warnings } = playableMaterials(t, opened.parts);
    opened.materials = materials;
    opened.textureWarnings = warnings;
  }
  return opened;
}

/** The formats `openPlayable` opens (model formats with a playable form), and those that play on them. */
export function supportedFormats(formats: readonly FormatEntry[] = DEFAULT_FORMATS): string[] {
  return formats.filter((f) => f.playable || (f.role === 'animation' && formats.some((m) => m.id === f.playsOn && m.playable))).map((f) => f.id);
}

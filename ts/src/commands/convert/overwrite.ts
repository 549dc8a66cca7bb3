/**
 * `convert` never writes over a file it read unless `--force`: `convert self.md3 -o self.md3` used to replace the
 * source with its re-encoding (its header name lost), and a player written back into its own folder, a `.gltf`'s
 * images or `--texture-path` images written beside OUT can land on the model's parts, skins, animation.cfg or
 * textures. Every file the run read from disk is an input: the model (or each file of a player folder), what played
 * on it (--anim), its side files (iqm.cfg, animation.cfg), the images and skins its textures came from, and the
 * archive a member was read from. Files are compared by device and inode (`stat`, links followed), so another
 * spelling of the same path, a symbolic or hard link, or another case on a case-insensitive file system is still the
 * same file; an output that does not exist yet is no input.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type ModelSet } from '../../node.js';
import { given, UsageError, type ParsedArgs } from '../args.js';
import { type ModelInput } from '../inputs.js';

/** An output that is one of the run's inputs (exit 2: the command line asks for it, nothing is written). */
export class OutputIsInputError extends UsageError {
  readonly code = 'OUTPUT_IS_INPUT';
  constructor(
    readonly output: string,
    readonly input: string,
  ) {
    super(`${output}: OUTPUT_IS_INPUT: a file this conversion reads${output === input ? '' : ` (${input})`}; writing it would replace it: choose another -o, or give --force to overwrite it`, 'convert');
  }
}

const identity = async (path: string): Promise<string | null> => {
  const s = await stat(path).catch(() => null);
  return s?.isFile() ? `${s.dev}:${s.ino}` : null;
};

/** The files on disk a model input read: the archive it is in, or the set's files and, for a folder, all it holds. */
export async function modelInputFiles(input: ModelInput, set: Pick<ModelSet, 'files' | 'sideFiles'> | null, extra: readonly string[] = []): Promise<string[]> {
  if (input.archive) return [input.archive.archive, ...extra];
  const files = [input.label, ...extra, ...(set?.files ?? []).map((f) => f.origin), ...(set?.sideFiles ?? []).map((f) => f.origin)];
  // a folder input (a player): every file in it, its skins and animation.cfg too
  if ((await stat(input.label).catch(() => null))?.isDirectory()) files.push(...(await input.fs.list(input.path)).map((f) => f.origin));
  return files;
}

/** The disk paths of the images textures were read from: their game paths under the game folder (those that exist). */
export const textureFiles = (gameFolder: string, images: Iterable<string>): string[] => [gameFolder, ...[...images].map((p) => join(gameFolder, p))];

/**
 * Refuses (OutputIsInputError) to write an output that is one of `inputs`, unless `--force` was given. Run after
 * everything is read and before anything is written.
 */
export async function refuseOverwritingInputs(a: ParsedArgs, outputs: readonly string[], inputs: readonly string[]): Promise<void> {
  if (given(a, '--force')) return;
  const read = new Map<string, string>();
  for (const p of inputs) {
    const id = await identity(p);
    if (id && !read.has(id)) read.set(id, p);
  }
  for (const out of outputs) {
    const id = await identity(out);
    const input = id ? read.get(id) : undefined;
    if (input !== undefined) throw new OutputIsInputError(out, input);
  }
}

/**
 * `convert INPUT [--anim ANIM …] -o OUT.glb|OUT.gltf`: the whole model, animated, as glTF 2.0 — a model file with the
 * animation files given to play on it (each one animation named after its file), a folder format (a Quake 3 player
 * folder), from disk or from inside an archive. Warnings go to stderr grouped by kind, then one summary line read
 * back from the written file.
 */
import type { GltfOptions, FormatEntry, ModelSet } from '../../node.js';
import { given, UsageError, type ParsedArgs } from '../args.js';
import { badInput, checkCompanions, load, partialStatus, readModel, skippedCompanions, type ModelInput } from '../inputs.js';
import { writeOutputs } from '../output.js';
import { exportWarnings, warningLines } from '../warnings.js';
import { baseName, checkClipRanges, gltfOptions, refuseIgnoredOptions } from './gltf-options.js';
import { modelInputFiles, refuseOverwritingInputs } from './overwrite.js';
import { gltfOutput, report, setWarnings, withTextures } from './pipeline.js';

/** glTF output's options that need no file, checked before any is read. */
export function checkGltfOutput(a: ParsedArgs, out: string): void {
  if (a.flags.has('--meshopt') && !out.toLowerCase().endsWith('.glb')) throw new UsageError(`--meshopt writes a .glb, not ${out}`, 'convert');
  if (a.flags.has('--reorder') && !a.flags.has('--meshopt')) throw new UsageError('--reorder goes with --meshopt (it only helps its codec)', 'convert');
  gltfOptions(a, '', []);
}

export async function convertGltf(a: ParsedArgs, input: ModelInput, format: FormatEntry, out: string, formats: readonly FormatEntry[]): Promise<number> {
  const anims = a.options.get('--anim') ?? [];
  checkCompanions(format, anims, formats);
  refuseIgnoredOptions(a, format, formats);
  const exportList: NonNullable<GltfOptions['warnings']> = [];
  // an --anim that does not fit is left out with a warning, the rest written, exit 1 (partialStatus)
  const read = await readModel(input, format, anims, formats, 'skip');
  // --replacement: the re-release's MD5 model drawn in its place (docs/md5-replacements.md)
  const set = a.flags.has('--replacement') ? replacementOf(read, format, input) : read;
  const setFormat = set === read ? format : (formats.find((f) => f.id === set.format) ?? format);
  checkClipRanges(a, setFormat.obj?.frames(set) ?? null);
  const { options, lines, warnings, inputs } = await withTextures(a, input, set, gltfOptions(a, baseName(input.path), exportList));
  const meshopt = given(a, '--meshopt') ? { reorder: a.flags.has('--reorder') } : undefined;
  const before = set.warnings.length;
  const { files, facts } = await load(input.label, () => gltfOutput(set, out, options, meshopt));
  // what the export read beside the model's files (a .md5scale's warnings join the set as its anims are read)
  warnings.push(...setWarnings({ warnings: set.warnings.slice(before) }));
  const replacementFiles = set === read ? [] : [...set.files, ...set.sideFiles].map((f) => f.origin);
  await refuseOverwritingInputs(a, files.map((f) => f.path), await modelInputFiles(input, read, [...anims, ...inputs, ...replacementFiles]));
  const bytes = await writeOutputs(files);
  warnings.push(...exportWarnings(input.archive ? set.origin : input.label, exportList));
  report([...lines, ...warningLines(warnings)], files, facts, bytes);
  return partialStatus(skippedCompanions(set), anims.length);
}

/** The replacement `--replacement` asks for, or why there is none (no MD5 files beside it, or they failed to load). */
function replacementOf(set: ModelSet<unknown, FormatEntry>, format: FormatEntry, input: ModelInput): ModelSet<unknown, FormatEntry> {
  if (!format.replacedBy) throw new UsageError(`--replacement is for the models a re-release replaces with MD5 ones (MD2, MDL), not ${format.title}`, 'convert');
  // opened through the same registrations as the set: its registration is one of them
  if (set.replacement) return set.replacement.set as ModelSet<unknown, FormatEntry>;
  const failed = set.warnings.flatMap((w) => w.warnings.filter((x) => x.code === 'REPLACEMENT_FAILED').map((x) => `${w.file}: ${x.message}`));
  const r = format.replacedBy(set.path, set.data);
  const missing = r?.companionsOptional ? `${r.model} is not there` : `${r?.model ?? 'its md5mesh'} and ${[...new Set(r?.companions.map((c) => (typeof c === 'string' ? c : c.path)))].join(', ') || 'its md5anim'} are not both there`;
  throw badInput(input.label, failed.length ? `its MD5 replacement did not load (${failed[0]})` : `no MD5 model replaces it: ${missing}`);
}

/**
 * `convert INPUT [--anim ANIM …] -o OUT.glb|OUT.gltf`: the whole model, animated, as glTF 2.0 — a model file with the
 * animation files given to play on it (each one animation named after its file), a folder format (a Quake 3 player
 * folder), from disk or from inside an archive. Warnings go to stderr grouped by kind, then one summary line read
 * back from the written file.
 */
import type { GltfOptions } from '../../export/gltf.js';
import type { FormatEntry } from '../../formats/entry.js';
import { given, UsageError, type ParsedArgs } from '../args.js';
import { checkCompanions, load, readModel, type ModelInput } from '../inputs.js';
import { writeOutputs } from '../output.js';
import { exportWarnings, warningLines } from '../warnings.js';
import { baseName, gltfOptions, refuseIgnoredOptions } from './gltf-options.js';
import { gltfOutput, report, withTextures } from './pipeline.js';

/** glTF output's options that need no file, checked before any is read. */
export function checkGltfOutput(a: ParsedArgs, out: string): void {
  if (a.flags.has('--meshopt') && !out.toLowerCase().endsWith('.glb')) throw new UsageError(`--meshopt writes a .glb, not ${out}`, 'convert');
  if (a.flags.has('--reorder') && !a.flags.has('--meshopt')) throw new UsageError('--reorder goes with --meshopt (it only helps its codec)', 'convert');
  gltfOptions(a, '', []);
}

export async function convertGltf(a: ParsedArgs, input: ModelInput, format: FormatEntry, out: string, formats: readonly FormatEntry[]): Promise<void> {
  const anims = a.options.get('--anim') ?? [];
  checkCompanions(format, anims, formats);
  refuseIgnoredOptions(a, format, formats);
  const exportList: NonNullable<GltfOptions['warnings']> = [];
  const set = await readModel(input, format, anims, formats);
  const { options, lines, warnings } = await withTextures(a, input, set, gltfOptions(a, baseName(input.path), exportList));
  const meshopt = given(a, '--meshopt') ? { reorder: a.flags.has('--reorder') } : undefined;
  const { files, facts } = await load(input.label, () => gltfOutput(set, out, options, meshopt));
  const bytes = await writeOutputs(files);
  warnings.push(...exportWarnings(input.archive ? set.origin : input.label, exportList));
  report([...lines, ...warningLines(warnings)], files, facts, bytes);
}

/**
 * The one convert pipeline: a model set (a model with what plays on it, from a loose file, an archive member or a
 * model of `--all`) → its textures → the output files → the warnings and the summary line. `convert` runs it for one
 * input (command.ts), each worker of `--all` for each model it is sent (batch-job.ts).
 */
import type { GltfOptions, FileWarnings, ModelSet, FormatEntry } from '../../node.js';
import { gltfFiles, setGltfOptions, toGlbMeshopt } from '../../write.js';
import { type ParsedArgs } from '../args.js';
import { badInput, type ModelInput } from '../inputs.js';
import { count, summaryLine, type OutputFile } from '../output.js';
import { resolveCliTextures, wantsTextures } from '../textures.js';
import { exportWarnings, parseWarnings, type FileWarning } from '../warnings.js';
import { gltfCounts, gltfJson } from './gltf-counts.js';
import { textureFiles } from './overwrite.js';

/** A set's own warnings (parse warnings at their byte; a companion left out at none), per file. */
export function setWarnings(set: Pick<ModelSet, 'warnings'>): FileWarning[] {
  return set.warnings.flatMap((w: FileWarnings & { unpositioned?: boolean }) => (w.unpositioned ? exportWarnings(w.file, w.warnings) : parseWarnings(w.file, w.warnings)));
}

export interface GltfOutput {
  files: OutputFile[];
  /** The summary line's facts, read back from the written glTF: meshes, vertices, clips. */
  facts: string[];
}

/** The set as glTF files for OUT (`.glb`, or `.gltf` + `.bin` + images); with `meshopt`, one compressed `.glb`. */
export async function gltfOutput(set: ModelSet<unknown, FormatEntry>, out: string, options: GltfOptions, meshopt?: { reorder: boolean }): Promise<GltfOutput> {
  const entry = set.registration;
  if (!entry.gltf) throw badInput(set.origin, `${entry.title}: no glTF export for this format`);
  // the set carries the registration that read it: exported, its companions played, by it — no format is looked for again
  const files: OutputFile[] = meshopt ? [{ path: out, bytes: await toGlbMeshopt(set, { ...options, reorder: meshopt.reorder }) }] : await gltfFiles(set, out, options);
  const c = gltfCounts(gltfJson(files[0].bytes as Uint8Array));
  return { files, facts: [count(c.meshes, 'mesh', 'meshes'), count(c.vertices, 'vertex', 'vertices'), count(c.animations, 'clip')] };
}

/** The set's warnings; with textures wanted (not --no-textures), the resolved textures in `options`, their report lines and warnings, and the image files read (`inputs`). */
export async function withTextures(a: ParsedArgs, input: ModelInput, set: ModelSet<unknown, FormatEntry>, options: GltfOptions): Promise<{ options: GltfOptions; lines: string[]; warnings: FileWarning[]; inputs: string[] }> {
  const warnings = setWarnings(set);
  if (!wantsTextures(a, 'convert')) return { options, lines: [], warnings, inputs: [] };
  const t = await resolveCliTextures(input, set, a, 'convert', set.origin);
  return { options: { ...options, textures: t.textures }, lines: t.report, warnings: [...warnings, ...t.warnings], inputs: textureFiles(t.gameFolder, t.textures.images.keys()) };
}

/** Prints the report and warning lines, then the summary line, on stderr. */
export function report(lines: readonly string[], files: readonly OutputFile[], facts: readonly string[], bytes: number): void {
  for (const line of lines) process.stderr.write(line + '\n');
  process.stderr.write(summaryLine(files, facts, bytes) + '\n');
}

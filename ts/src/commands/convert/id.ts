/**
 * `convert IN -o OUT.<id extension>` (or a folder format's flag: `--player -o OUTDIR`): an id format written by its
 * registration's writer (`FormatEntry.writer.fromGltf`: the glTF import, the writer, and the target engine's
 * refusals of what would be written, read back by our parsers). IN is a `.glb` / `.gltf` — a `.gltf`'s buffers and
 * images are read from its own folder only (load/gltf-files.ts) — or any model this tool reads, which is first exported to
 * glTF in memory with its animations and textures (`convert mesh.md5mesh --anim a.md5anim -o x.md3`).
 * `--validate` turns the engine's refusals into errors (nothing written, exit 1); `--split` cuts MD3 surfaces to
 * ioquake3's limits.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { GltfInput } from '../../write.js';
import { gltfFileReader, type GltfOptions, type FormatEntry, type WriterCapability, DEFAULT_FORMATS } from '../../node.js';
import { given, optionValue, UsageError, type OptionSpec, type ParsedArgs } from '../args.js';
import { inputFormat, load, modelInput, partialStatus, readModel, skippedCompanions } from '../inputs.js';
import { writeOutputs } from '../output.js';
import { exportWarnings, groupLines, parseWarnings, warningLines, type FileWarning } from '../warnings.js';
import { baseName, refuseSkin } from './gltf-options.js';
import { modelInputFiles, refuseOverwritingInputs } from './overwrite.js';
import { gltfOutput, report, withTextures } from './pipeline.js';

/** The group heading of these options, and the outputs it names. */
export const ID_OUTPUT = `id output (${DEFAULT_FORMATS.flatMap((f) => f.writer?.extensions ?? []).join(', ')})`;
/** Options of other groups that id output takes too. */
export const ID_SHARED_OPTIONS = new Set(['--fps']);

/** A writer's flag (`--player`) as an option, from the registrations. */
const flagOptions: OptionSpec[] = DEFAULT_FORMATS.flatMap((f) => (f.writer?.folderFlag ? [{ name: f.writer.folderFlag.name, group: ID_OUTPUT, help: f.writer.folderFlag.help }] : []));

export const ID_OPTIONS: OptionSpec[] = [
  { name: '--scale', value: 'S', group: ID_OUTPUT, help: 'Multiply positions and tag origins by S (MD3 holds ±512 units in 1/64 steps; MD2 quantises each frame to its own bounds in 255 steps). Default 1.' },
  {
    name: '--validate',
    group: ID_OUTPUT,
    help: "Check the limits of the engine the output is for (each writer names its own: ioquake3 for .md3, Quake 2 for .md2, Doom 3 for .md5mesh …; docs/limits.md) on what would be written: name each limit past and where, and write nothing (exit 1) when there is one. Without it they are warnings and the file is written.",
  },
  ...flagOptions,
  {
    name: '--texture-path',
    value: 'GAMEPATH',
    group: ID_OUTPUT,
    help: "Name each material's base colour image GAMEPATH/<image>.png|.jpg in the shaders (MD5: without the extension) and write the images beside OUT, so the game finds them when OUT's folder is GAMEPATH. Without it, shaders are the materials' names.",
  },
  {
    name: '--assimp-anim',
    group: ID_OUTPUT,
    help: "With .md5mesh output: write the first animation as OUT.md5anim instead of OUT_<animation>.md5anim. assimp's MD5 loader reads only the md5anim named after its mesh (X.md5anim beside X.md5mesh) and no other; further animations keep OUT_<animation>.md5anim.",
  },
  {
    name: '--no-atlas',
    group: ID_OUTPUT,
    help: "MD2 and MDL (one skin set for the whole model): draw every surface with the first surface's material's skin, as earlier versions did, instead of packing the materials' images into one skin (the default; .md2 writes it as OUT's name .png beside OUT, .mdl carries it quantised to Quake's palette).",
  },
  {
    name: '--split',
    group: ID_OUTPUT,
    help: "Cut MD3 surfaces past ioquake3's tessellator limits (999 vertices, 1999 triangles) into pieces that fit, each with the surface's name and shader.",
  },
];

/** The writer OUT asks for: a flag given (`--player`), else the one whose extension OUT has; null when none. */
export function writerFor(a: ParsedArgs, out: string, formats: readonly FormatEntry[]): { entry: FormatEntry; writer: WriterCapability } | null {
  for (const f of formats) if (f.writer?.folderFlag && given(a, f.writer.folderFlag.name)) return { entry: f, writer: f.writer };
  const ext = out.slice(out.lastIndexOf('.')).toLowerCase();
  for (const f of formats) if (f.writer?.extensions.includes(ext)) return { entry: f, writer: f.writer };
  return null;
}

function positive(a: ParsedArgs, name: string): number | undefined {
  const text = optionValue(a, name);
  if (text === undefined) return undefined;
  const v = Number(text);
  if (!(v > 0) || !Number.isFinite(v)) throw new UsageError(`${name} must be a number > 0, not ${text}`, 'convert');
  return v;
}

/** The glTF input: the file's bytes (and a `.gltf`'s files), or any model this tool reads exported to glTF in memory. */
async function gltfInput(a: ParsedArgs, inputArg: string, formats: readonly FormatEntry[]): Promise<GltfInput & { warnings: FileWarning[]; lines: string[]; inputs: string[]; skipped: string[] }> {
  if (/\.(glb|gltf)$/i.test(inputArg)) {
    for (const o of ['--anim', '--skin', '--game-dir']) if (given(a, o)) throw new UsageError(`${o} reads an id model; ${inputArg} is glTF`, 'convert');
    const bytes = new Uint8Array(await load(inputArg, () => readFile(inputArg)));
    // the files it names: regular files inside its own folder only (load/gltf-files.ts, docs/security.md)
    const reader = gltfFileReader(inputArg);
    const inputs = [inputArg];
    const readResource: typeof reader = (r) => (inputs.push(join(dirname(inputArg), r.path)), reader(r));
    return { bytes, readResource, warnings: [], lines: [], inputs, skipped: [] };
  }
  const input = await modelInput(inputArg);
  try {
    const format = await inputFormat(input, formats);
    refuseSkin(a, format, formats);
    const set = await readModel(input, format, a.options.get('--anim') ?? [], formats, 'skip');
    const exportList: NonNullable<GltfOptions['warnings']> = [];
    const { options, lines, warnings, inputs } = await withTextures(a, input, set, { name: baseName(input.path), warnings: exportList, quantize: false });
    const { files } = await load(input.label, () => gltfOutput(set, 'memory.glb', options));
    warnings.push(...exportWarnings(input.label, exportList));
    return { bytes: files[0].bytes as Uint8Array, warnings, lines, skipped: skippedCompanions(set), inputs: await modelInputFiles(input, set, [...(a.options.get('--anim') ?? []), ...inputs]) };
  } finally {
    await input.close();
  }
}

/** Findings of `--validate` (or warnings without it): false when they stop the write. */
function engineFindings(a: ParsedArgs, out: string, engine: FileWarning[], refusal: string): boolean {
  if (!given(a, '--validate') || engine.length === 0) return true;
  // every finding on its own line (not grouped as warnings are): which limit, in which file, and where
  for (const w of engine) process.stderr.write(`${w.file}: error ${groupLines({ first: w, members: [w], count: 1, identical: true })[0]}\n`);
  process.stderr.write(`idtech-models: ${out}: not written: ${refusal}\n`);
  return false;
}

export async function convertId(a: ParsedArgs, out: string, target: { entry: FormatEntry; writer: WriterCapability }, formats: readonly FormatEntry[]): Promise<number> {
  const inputArg = a.positionals[0];
  const { writer } = target;
  for (const [option, why] of Object.entries(writer.refuses ?? {})) if (given(a, option)) throw new UsageError(why, 'convert');
  if (given(a, '--assimp-anim') && !writer.extensions.includes('.md5mesh')) throw new UsageError('--assimp-anim names the md5anim written beside an .md5mesh', 'convert');
  // an id model's frames are kept (each clip at its own key rate) unless --fps asks for others; glTF is sampled at
  // the target's default rate
  const gltfIn = /\.(glb|gltf)$/i.test(inputArg);
  const fps = positive(a, '--fps') ?? (gltfIn ? writer.defaultFps : undefined);
  if (fps !== undefined && given(a, '--fps')) {
    const wrong = writer.checkFps?.(fps);
    if (wrong) throw new UsageError(wrong, 'convert');
  }
  const scale = positive(a, '--scale') ?? 1;
  const gltf = await gltfInput(a, inputArg, formats);
  const result = await load(inputArg, () => writer.fromGltf(gltf, { fps, keyRate: !gltfIn && fps === undefined, scale, texturePath: optionValue(a, '--texture-path'), split: given(a, '--split'), atlas: !given(a, '--no-atlas'), out, assimpNames: given(a, '--assimp-anim') }));
  const engine = result.engine.flatMap((e) => parseWarnings(e.file, e.warnings));
  if (!engineFindings(a, out, engine, result.refusal)) return 1;
  await refuseOverwritingInputs(a, result.files.map((f) => f.path), gltf.inputs);
  if (writer.folderFlag) await mkdir(out, { recursive: true }).catch(() => undefined);
  const written = await writeOutputs(result.files);
  report([...gltf.lines, ...warningLines([...gltf.warnings, ...exportWarnings(inputArg, result.warnings), ...engine])], result.files, result.facts, written);
  return partialStatus(gltf.skipped, a.options.get('--anim')?.length ?? 0);
}


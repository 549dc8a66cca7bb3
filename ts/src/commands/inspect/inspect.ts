/**
 * `inspect FILE [--json]`: what a model file holds, read as a stream (never whole) by its format's registration
 * (`FormatEntry.inspect`: md5anim frame by frame and md5mesh mesh by mesh, so memory stays flat however long the
 * file is); `inspect ARCHIVE_OR_DIR`: the models an archive or game folder holds (archive.ts).
 */
import { readingFile, type ParseWarning, type FormatEntry, type Summary, DEFAULT_FORMATS } from '../../node.js';
import { readableExtensions } from '../../files.js';
import { UsageError, type CliContext, type Command, type CommandSpec, type ParsedArgs } from '../args.js';
import { ARCHIVES, companionExtensions, folderNouns, listed } from '../format-words.js';
import { inputFormat, isContainer, load, modelInput, readModel, reusedFileChunks, type ModelInput } from '../inputs.js';
import { LIMIT_OPTIONS } from '../limits.js';
import { fileProgress, PROGRESS_MIN_BYTES } from '../progress.js';
import { resolveCliTextures, surfaceLines, TEXTURE_OPTIONS, wantsTextures } from '../textures.js';
import { groupLines, groupWarnings, parseWarnings, type FileWarning } from '../warnings.js';
import { inspectContainer } from './archive.js';
import { replacementLines, replacementSummary } from './replacement.js';

/** `.md2, .md3, .md5mesh or .md5anim`: what the package reads. */
const READABLE = readableExtensions(DEFAULT_FORMATS).replace(/, ([^,]*)$/, ' or $1');
/** What plays on which model, for the listing's help: `.md5anim beside an .md5mesh, .iqm beside an .iqm`. */
const BESIDE = DEFAULT_FORMATS.filter((f) => f.role === 'model' && f.companionsBeside).map((f) => `${companionExtensions(f, DEFAULT_FORMATS).join(' ')} beside an ${f.extensions[0]}`);

const spec: CommandSpec = {
  name: 'inspect',
  summary: 'what a model file holds: counts, names, shaders, clips, warnings',
  usage: ['inspect FILE [--json] [--skin NAME] [--game-dir DIR] [--no-textures]', 'inspect ARCHIVE_OR_DIR [--json]'],
  about: [
    `FILE is a model file (${READABLE}), recognised by its extension or, without one, by its first bytes, ` +
      'or a file inside an archive (ARCHIVE:INNER). ' +
      'Prints its format and version, its counts (joints, meshes or surfaces, vertices, triangles, weights, frames), ' +
      'joint names, shaders and skins, clips and tags, and any warnings, grouped one line per kind with a count.',
    `The file is streamed, never held whole: a 1 GB md5anim inspects in a few tens of MB. Reading a file over ${PROGRESS_MIN_BYTES / 2 ** 20} MB ` +
      'shows a progress bar when stderr is a terminal.',
    "For a model (not an .md5anim), each surface's texture as convert resolves it: in the game folder above FILE " +
      '(or --game-dir), through skins, shader scripts and .mtr materials: `texture N  "surface": shader → image`.',
    `ARCHIVE_OR_DIR (a ${ARCHIVES}, a folder of them or a game folder) lists the models inside: path, format, frames, ` +
      `the animation files that play on each (${listed(BESIDE, 'and')}), ${listed(folderNouns(DEFAULT_FORMATS))}s and the skins offered for each.`,
    'Exit status: 0 read, 1 bad input (one line on stderr: file, error code, position), 2 bad usage.',
  ],
  options: [{ name: '--json', help: 'Print one JSON object instead of the table: every field, with warnings ungrouped as { code, message, offset }.' }, ...TEXTURE_OPTIONS, ...LIMIT_OPTIONS],
  examples: ['inspect models/monsters/imp/imp.md5mesh', 'inspect tris.md2 --json', 'inspect baseq3/pak0.pk3'],
};

/** Reads the model with a progress bar on stderr (when it is a TTY and the file is big), erased whatever happens. */
async function summarize(input: ModelInput, format: FormatEntry): Promise<{ summary: Summary; materialsOf?: unknown }> {
  const inspect = format.inspect!.bind(format);
  if (!input.archive) {
    const progress = await fileProgress(input.path);
    try {
      return await readingFile(input.label, () => inspect(reusedFileChunks(input.path), { onProgress: progress.update }));
    } finally {
      progress.done();
    }
  }
  const file = (await input.fs.file(input.path))!;
  return readingFile(input.label, () => inspect(file.stream(), { sizeHint: file.size }));
}

async function run(a: ParsedArgs, { formats }: CliContext): Promise<void> {
  if (a.positionals.length !== 1) throw new UsageError('inspect takes one FILE', 'inspect');
  const path = a.positionals[0];
  if (await isContainer(path)) return inspectContainer(path, a.flags.has('--json'), formats);
  const input = await modelInput(path);
  try {
    const format = await inputFormat(input, formats);
    if (!format.inspect && !format.inspectSet) throw new UsageError(`${path}: ${format.title} is inspected by its files (inspect a file in it, or the folder above it for a listing)`, 'inspect');
    // a model of several files (a folder format) is read whole, as convert reads it
    const { summary: found, materialsOf } = format.inspect ? await load(input.label, () => summarize(input, format)) : await format.inspectSet!(await readModel(input, format, [], formats));
    const summary: Summary = { file: path, ...found };
    // a re-release's MD5 model drawn in its place (docs/md5-replacements.md)
    if (format.replacedBy) Object.assign(summary, await load(input.label, () => replacementSummary(input, format, formats)));
    let textureLines: string[] = [];
    if (materialsOf && format.materials && wantsTextures(a, 'inspect')) {
      const t = await resolveCliTextures(input, materialsOf, a, 'inspect', input.label, format);
      textureLines = surfaceLines(t.textures).map((line) => line.trimStart());
      Object.assign(summary, {
        gameFolder: t.gameFolder,
        textures: t.textures.materials.map((m) => ({ surface: m.surface, shader: m.shaderName, image: m.diffuse?.path ?? null, builtin: m.diffuse?.builtin ?? null, normal: m.normal?.path ?? null })),
        textureWarnings: t.warnings,
      });
    }
    print(path, summary, textureLines, a.flags.has('--json'));
  } finally {
    await input.close();
  }
}

/** Fields the table shows in their own rows below the plain ones (--json keeps them as data). */
const OWN_ROWS = new Set(['perMesh', 'perSurface', 'warnings', 'textures', 'textureWarnings', 'gameFolder', 'replacement']);

/** A plain field as the table shows it: names quoted (they may be empty or hold spaces), nothing left blank. */
function cell(v: unknown): string {
  if (Array.isArray(v)) return v.length === 0 ? 'none' : v.map((s) => JSON.stringify(s)).join(' ');
  if (v === '') return '(empty)';
  return String(v);
}

/** `label` padded to the table's first column, then `text`; a group's further lines indented under its text. */
const row = (label: string, text: string) => `${label.padEnd(20)} ${text}`;
const rows = (label: string, lines: readonly string[]) => lines.map((l, i) => (i === 0 ? row(label, l) : row('', l)));

/** The table: each fact once — plain fields, then per mesh/surface, textures as convert resolves them, warnings grouped. */
function print(file: string, summary: Summary, textureLines: readonly string[], json: boolean): void {
  if (json) {
    process.stdout.write(JSON.stringify(summary) + '\n');
    return;
  }
  const lines: string[] = [];
  for (const [k, v] of Object.entries(summary)) if (!OWN_ROWS.has(k)) lines.push(row(k, cell(v)));
  if (Array.isArray(summary.perMesh)) {
    (summary.perMesh as { vertices: number; triangles: number; weights: number; shader: string }[]).forEach((m, i) => lines.push(row(`mesh ${i}`, `${m.vertices} vertices, ${m.triangles} triangles, ${m.weights} weights, shader ${JSON.stringify(m.shader)}`)));
  }
  if (Array.isArray(summary.perSurface)) {
    // `frames`: how a surface stores its frames, where a format says (MDC: base and compressed)
    (summary.perSurface as { name: string; vertices: number; triangles: number; shader: string; frames?: string }[]).forEach((s, i) => lines.push(row(`surface ${i}`, `${JSON.stringify(s.name)}: ${s.vertices} vertices, ${s.triangles} triangles, shader ${JSON.stringify(s.shader)}${s.frames ? `, ${s.frames}` : ''}`)));
  }
  for (const [label, text] of replacementLines(summary)) lines.push(row(label, text));
  if (Array.isArray(summary.textures)) {
    lines.push(row('game folder', String(summary.gameFolder)));
    textureLines.forEach((t, i) => lines.push(row(`texture ${i}`, t)));
    for (const g of groupWarnings(summary.textureWarnings as FileWarning[])) lines.push(...rows('texture warning', groupLines(g)));
  }
  if (Array.isArray(summary.warnings)) {
    const groups = groupWarnings(parseWarnings(file, summary.warnings as ParseWarning[]));
    lines.push(row('warnings', summary.warnings.length === 0 ? 'none' : String(summary.warnings.length)));
    for (const g of groups) lines.push(...rows('warning', groupLines(g)));
  }
  process.stdout.write(lines.join('\n') + '\n');
}

export const inspect: Command = { spec, run };

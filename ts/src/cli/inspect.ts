/** `inspect FILE [--json]`: what a model file holds, read as a stream (never whole). */
import type { ParseWarning } from '../base/errors.js';
import type { Md2Model, Md3Model, Md5Mesh, Md5MeshPart } from '../base/model.js';
import { parseStream } from '../base/source.js';
import type { Md5AnimHeader, Md5MeshHeader } from '../formats/md5/index.js';
import { Md5AnimParser } from '../formats/md5/anim.js';
import { openMd5Meshes } from '../formats/md5/mesh-stream.js';
import { UsageError, type Command, type CommandSpec, type ParsedArgs } from './args.js';
import { kindOf, load, READABLE, reusedFileChunks, type ReadKind } from './input.js';
import { isContainer } from './archive-input.js';
import { inspectContainer } from './inspect-archive.js';
import { fileProgress, PROGRESS_MIN_BYTES } from './progress.js';
import { loadMd2, loadMd3 } from '../load/node.js';
import { LIMIT_OPTIONS } from './limits.js';
import { resolveCliTextures, TEXTURE_OPTIONS, wantsTextures } from './textures.js';
import { md2Summary, md3Summary } from './summary-morph.js';
import { groupText, groupWarnings, parseWarnings, type FileWarning } from './warnings.js';

const spec: CommandSpec = {
  name: 'inspect',
  summary: 'what a model file holds: counts, names, shaders, clips, warnings',
  usage: ['inspect FILE [--json] [--skin NAME] [--game-dir DIR] [--no-textures]', 'inspect ARCHIVE_OR_DIR [--json]'],
  about: [
    `FILE is an ${READABLE.replace(/, ([^,]*)$/, ' or $1')} file, recognised by its extension or, without one, by its first bytes. ` +
      'Prints its format and version, its counts (joints, meshes or surfaces, vertices, triangles, weights, frames), ' +
      'joint names, shaders and skins, clips and tags, and any warnings, grouped one line per kind with a count.',
    `The file is streamed, never held whole: a 1 GB md5anim inspects in a few tens of MB. Reading a file over ${PROGRESS_MIN_BYTES / 2 ** 20} MB ` +
      'shows a progress bar when stderr is a terminal.',
    "For a model (not an .md5anim), each surface's texture as convert resolves it: in the game folder above FILE " +
      '(or --game-dir), through skins, shader scripts and .mtr materials: `texture N  "surface": shader → image`.',
    'ARCHIVE_OR_DIR (a .pk3/.pk4/.dpk, a folder of them or a game folder) lists the models inside: path, format, frames, ' +
      "an .md5mesh's .md5anim files beside it, Quake 3 player folders (lower/upper/head.md3) and the skins offered for each.",
    'Exit status: 0 read, 1 bad input (one line on stderr: file, error code, position), 2 bad usage.',
  ],
  options: [{ name: '--json', help: 'Print one JSON object instead of the table: every field, with warnings ungrouped as { code, message, offset }.' }, ...TEXTURE_OPTIONS, ...LIMIT_OPTIONS],
  examples: ['inspect models/monsters/imp/imp.md5mesh', 'inspect tris.md2 --json', 'inspect baseq3/pak0.pk3'],
};

type Summary = Record<string, unknown>;

/**
 * One summariser per file kind; each streams its file. md5anim goes frame by frame and md5mesh mesh by mesh, so
 * memory stays flat however long the file is (a 1 GB md5anim inspects in a few tens of MB).
 */
const summarize: Record<ReadKind, (file: string) => Promise<Summary>> = {
  md5mesh: (file) =>
    load(file, () =>
      withProgress(file, async (onProgress) => {
        const model = await openMd5Meshes(reusedFileChunks(file), { onProgress });
        // Only each mesh's counts are kept; its arrays are dropped as the next mesh is read.
        const meshes: MeshCounts[] = [];
        for await (const m of model) meshes.push({ name: m.name, shader: m.shader, vertexCount: m.vertexCount, triangleCount: m.triangleCount, weightTotal: m.weightTotal });
        return { ...meshSummary(file, model.header, meshes), warnings: model.header.warnings ?? [] };
      }),
    ),
  md5anim: (file) =>
    load(file, () =>
      withProgress(file, async (onProgress) => {
        // Frame mode, pushed: every frame is read and checked, its values and bounds checked but not kept (nor the
        // values converted: inspect reports none), so memory stays constant; no pause per frame (openMd5AnimFrames'
        // pull costs ~5% of the parse here).
        let frames = 0;
        const parser = new Md5AnimParser({ keepBounds: false, keepValues: false, onFrame: (index) => void (frames = index + 1) });
        const anim = await parseStream(parser, reusedFileChunks(file), { onProgress });
        if (frames !== anim.frameCount) throw new Error(`internal: streamed ${frames} of ${anim.frameCount} frames`);
        return animSummary(file, anim);
      }),
    ),
  // MD2/MD3 are bounded by their limits (a few MB at most): parsed whole, still streamed from the file.
  md2: (file) => load(file, () => withProgress(file, async (onProgress) => md2Summary(file, await loadMd2(file, { onProgress })))),
  md3: (file) => load(file, () => withProgress(file, async (onProgress) => md3Summary(file, await loadMd3(file, { onProgress })))),
};

type MeshCounts = Pick<Md5MeshPart, 'name' | 'shader' | 'vertexCount' | 'triangleCount' | 'weightTotal'>;

/** Runs `read` with a progress bar on stderr (when it is a TTY and the file is big), erased whatever happens. */
async function withProgress<T>(file: string, read: (onProgress: (bytes: number) => void) => Promise<T>): Promise<T> {
  const progress = await fileProgress(file);
  try {
    return await read(progress.update);
  } finally {
    progress.done();
  }
}

function meshSummary(path: string, mesh: Md5MeshHeader, parts: readonly MeshCounts[]) {
  let vertices = 0, triangles = 0, weights = 0;
  for (const m of parts) {
    vertices += m.vertexCount;
    triangles += m.triangleCount;
    weights += m.weightTotal;
  }
  return {
    file: path,
    format: 'md5mesh',
    version: mesh.version,
    commandline: mesh.commandline,
    joints: mesh.joints.count,
    meshes: parts.length,
    vertices,
    triangles,
    weights,
    jointNames: mesh.joints.names,
    shaders: parts.map((m) => m.shader),
    perMesh: parts.map((m) => ({ name: m.name, shader: m.shader, vertices: m.vertexCount, triangles: m.triangleCount, weights: m.weightTotal })),
  };
}

function animSummary(path: string, anim: Md5AnimHeader) {
  return {
    file: path,
    format: 'md5anim',
    version: anim.version,
    commandline: anim.commandline,
    joints: anim.jointCount,
    frames: anim.frameCount,
    frameRate: anim.frameRate,
    animatedComponents: anim.componentCount,
    durationSeconds: anim.frameCount > 1 ? (anim.frameCount - 1) / anim.frameRate : 0,
    jointNames: anim.names,
  };
}

async function run(a: ParsedArgs): Promise<void> {
  if (a.positionals.length !== 1) throw new UsageError('inspect takes one FILE', 'inspect');
  const file = a.positionals[0];
  if (await isContainer(file)) return inspectContainer(file, a.flags.has('--json'));
  const kind = await kindOf(file);
  const summary = await summarize[kind](file);
  if (kind !== 'md5anim' && wantsTextures(a, 'inspect')) Object.assign(summary, await textureSummary(file, kind, a, summary));
  if (a.flags.has('--json')) {
    process.stdout.write(JSON.stringify(summary) + '\n');
    return;
  }
  const lines: string[] = [];
  for (const [k, v] of Object.entries(summary)) {
    if (k === 'perMesh' || k === 'perSurface' || k === 'warnings') continue;
    lines.push(`${k.padEnd(20)} ${Array.isArray(v) ? v.map((s) => JSON.stringify(s)).join(' ') : String(v)}`);
  }
  if (Array.isArray(summary.perMesh)) {
    (summary.perMesh as { vertices: number; triangles: number; weights: number; shader: string }[]).forEach((m, i) => lines.push(`mesh ${i}`.padEnd(20) + ` ${m.vertices} vertices, ${m.triangles} triangles, ${m.weights} weights, shader ${JSON.stringify(m.shader)}`));
  }
  if (Array.isArray(summary.perSurface)) {
    (summary.perSurface as { name: string; vertices: number; triangles: number; shader: string }[]).forEach((s, i) => lines.push(`surface ${i}`.padEnd(20) + ` ${JSON.stringify(s.name)}: ${s.vertices} vertices, ${s.triangles} triangles, shader ${JSON.stringify(s.shader)}`));
  }
  if (Array.isArray(summary.textures)) {
    (summary.textures as { surface: string; shader: string; image: string | null; normal: string | null }[]).forEach((t, i) =>
      lines.push(`texture ${i}`.padEnd(20) + ` ${JSON.stringify(t.surface)}: ${t.shader ? `${t.shader} → ` : ''}${t.image ?? 'no image'}${t.normal ? `, normal map ${t.normal}` : ''}`));
    lines.push(`${'game folder'.padEnd(20)} ${summary.gameFolder}`);
    for (const g of groupWarnings(summary.textureWarnings as FileWarning[])) lines.push(`${'texture warning'.padEnd(20)} ${groupText(g)}`);
  }
  if (Array.isArray(summary.warnings)) {
    const groups = groupWarnings(parseWarnings(file, summary.warnings as ParseWarning[]));
    lines.push(`${'warnings'.padEnd(20)} ${summary.warnings.length === 0 ? 'none' : summary.warnings.length}`);
    for (const g of groups) lines.push(`${'warning'.padEnd(20)} ${groupText(g)}`);
  }
  process.stdout.write(lines.join('\n') + '\n');
}

/** Each surface's resolved texture (textures.ts), for the table and --json. */
async function textureSummary(file: string, kind: 'md5mesh' | 'md2' | 'md3', a: ParsedArgs, summary: Summary): Promise<Summary> {
  // An md5mesh is not read twice: the resolver needs only each mesh's name and shader, which the streamed pass kept
  // (a 50 MB md5mesh inspected in half the time and memory). MD2/MD3 are small and parsed whole again.
  const meshNames = () => ({ format: 'md5mesh', meshes: (summary.perMesh as { name: string; shader: string }[]).map(({ name, shader }) => ({ name, shader })) }) as unknown as Md5Mesh;
  const model = await load<Md2Model | Md3Model | Md5Mesh>(file, async () => (kind === 'md2' ? loadMd2(file) : kind === 'md3' ? loadMd3(file) : meshNames()));
  const { textures, warnings } = await resolveCliTextures(file, model, a);
  return {
    gameFolder: textures.place.gameDir,
    textures: textures.materials.map((m) => ({ surface: m.surface, shader: m.shaderName, image: m.diffuse?.path ?? null, normal: m.normal?.path ?? null })),
    textureWarnings: warnings,
  };
}

export const inspect: Command = { spec, run };

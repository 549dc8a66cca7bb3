/** `inspect FILE [--json]`: what a model file holds, read as a stream (never whole). */
import type { Md5MeshPart } from '../base/model.js';
import type { Md5AnimHeader, Md5MeshHeader } from '../formats/md5/index.js';
import { openMd5AnimFrames } from '../formats/md5/frame-stream.js';
import { openMd5Meshes } from '../formats/md5/mesh-stream.js';
import { parseArgs, UsageError } from './args.js';
import type { FileKind } from '../formats/detect.js';
import { kindOf, load, reusedFileChunks } from './input.js';
import { fileProgress } from './progress.js';
import { loadMd2, loadMd3 } from '../load/node.js';
import { md2Summary, md3Summary } from './summary-morph.js';

type Summary = Record<string, unknown>;

/**
 * One summariser per file kind; each streams its file. md5anim goes frame by frame and md5mesh mesh by mesh, so
 * memory stays flat however long the file is (a 1 GB md5anim inspects in a few tens of MB).
 */
const summarize: Partial<Record<FileKind, (file: string) => Promise<Summary>>> = {
  md5mesh: (file) =>
    load(file, () =>
      withProgress(file, async (onProgress) => {
        const model = await openMd5Meshes(reusedFileChunks(file), { onProgress });
        // Only each mesh's counts are kept; its arrays are dropped as the next mesh is read.
        const meshes: MeshCounts[] = [];
        for await (const m of model) meshes.push({ name: m.name, shader: m.shader, vertexCount: m.vertexCount, triangleCount: m.triangleCount, weightTotal: m.weightTotal });
        return meshSummary(file, model.header, meshes);
      }),
    ),
  md5anim: (file) =>
    load(file, () =>
      withProgress(file, async (onProgress) => {
        // Bounds are checked but not kept: the only per-frame memory is the current frame.
        const anim = await openMd5AnimFrames(reusedFileChunks(file), { onProgress, keepBounds: false });
        let frames = 0;
        for await (const f of anim) frames = f.index + 1;
        if (frames !== anim.header.frameCount) throw new Error(`internal: streamed ${frames} of ${anim.header.frameCount} frames`);
        return animSummary(file, anim.header);
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

export async function inspect(argv: string[]): Promise<void> {
  const a = parseArgs(argv, [], ['--json']);
  if (a.positionals.length !== 1) throw new UsageError('inspect takes one FILE');
  const file = a.positionals[0];
  const kind = await kindOf(file);
  const summarizer = summarize[kind];
  if (!summarizer) throw new UsageError(`${file}: inspect does not read ${kind} files yet`);
  const summary = await summarizer(file);
  if (a.flags.has('--json')) {
    process.stdout.write(JSON.stringify(summary) + '\n');
    return;
  }
  const lines: string[] = [];
  for (const [k, v] of Object.entries(summary)) {
    if (k === 'perMesh' || k === 'perSurface') continue;
    lines.push(`${k.padEnd(20)} ${Array.isArray(v) ? v.map((s) => JSON.stringify(s)).join(' ') : String(v)}`);
  }
  if (Array.isArray(summary.perMesh)) {
    (summary.perMesh as { vertices: number; triangles: number; weights: number; shader: string }[]).forEach((m, i) => lines.push(`mesh ${i}`.padEnd(20) + ` ${m.vertices} vertices, ${m.triangles} triangles, ${m.weights} weights, shader ${JSON.stringify(m.shader)}`));
  }
  if (Array.isArray(summary.perSurface)) {
    (summary.perSurface as { name: string; vertices: number; triangles: number; shader: string }[]).forEach((s, i) => lines.push(`surface ${i}`.padEnd(20) + ` ${JSON.stringify(s.name)}: ${s.vertices} vertices, ${s.triangles} triangles, shader ${JSON.stringify(s.shader)}`));
  }
  process.stdout.write(lines.join('\n') + '\n');
}


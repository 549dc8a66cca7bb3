/** `inspect FILE [--json]`: what a model file holds, read as a stream (never whole). */
import type { Md5Anim, Md5Mesh } from '../model.js';
import { fileChunks } from '../node.js';
import { parseMd5AnimStream, parseMd5MeshStream } from '../md5/stream.js';
import { parseArgs, UsageError } from './args.js';
import type { FileKind } from './detect.js';
import { kindOf, load } from './input.js';

type Summary = Record<string, unknown>;

/** One summariser per file kind; each streams its file. */
const summarize: Partial<Record<FileKind, (file: string) => Promise<Summary>>> = {
  md5mesh: async (file) => meshSummary(file, await load(file, () => parseMd5MeshStream(fileChunks(file)))),
  md5anim: async (file) => animSummary(file, await load(file, () => parseMd5AnimStream(fileChunks(file)))),
};

function meshSummary(path: string, mesh: Md5Mesh) {
  let vertices = 0, triangles = 0, weights = 0;
  for (const m of mesh.meshes) {
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
    meshes: mesh.meshes.length,
    vertices,
    triangles,
    weights,
    jointNames: mesh.joints.names,
    shaders: mesh.meshes.map((m) => m.shader),
    perMesh: mesh.meshes.map((m) => ({ name: m.name, shader: m.shader, vertices: m.vertexCount, triangles: m.triangleCount, weights: m.weightTotal })),
  };
}

function animSummary(path: string, anim: Md5Anim) {
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
    if (k === 'perMesh') continue;
    lines.push(`${k.padEnd(20)} ${Array.isArray(v) ? v.map((s) => JSON.stringify(s)).join(' ') : String(v)}`);
  }
  if (Array.isArray(summary.perMesh)) {
    (summary.perMesh as { vertices: number; triangles: number; weights: number; shader: string }[]).forEach((m, i) => lines.push(`mesh ${i}`.padEnd(20) + ` ${m.vertices} vertices, ${m.triangles} triangles, ${m.weights} weights, shader ${JSON.stringify(m.shader)}`));
  }
  process.stdout.write(lines.join('\n') + '\n');
}


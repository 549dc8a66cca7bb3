/**
 * `idtech-models` command line.
 *   inspect FILE [--json]
 *   convert MESH [--anim ANIM] [--frame N] [--backend wasm|wasm-simd|wasm-scalar|ts] [--y-up] -o OUT.obj
 * Exit codes: 0 success, 1 bad input (one line on stderr: file, error code, position), 2 bad usage.
 */
import { open, writeFile } from 'node:fs/promises';
import { ModelParseError } from '../errors.js';
import type { Md5Anim, Md5Mesh } from '../model.js';
import { fileChunks, loadMd5Anim, loadMd5Mesh } from '../node.js';
import { toObj } from '../export/obj.js';
import { createBackend } from '../pose/select.js';
import { Md5Poser, assertAnimMatchesMesh } from '../pose/md5-poser.js';
import { formatTable, runSuite } from './bench-suite.js';
import type { BackendChoice } from '../pose/backend.js';
import { parseMd5AnimStream, parseMd5MeshStream } from '../md5/stream.js';
import { parseArgs, UsageError } from './args.js';
import { kindFromBytes, kindFromName, type FileKind } from './detect.js';

const USAGE = `usage:
  idtech-models inspect FILE [--json]
  idtech-models convert MESH.md5mesh [--anim ANIM.md5anim] [--frame N] [--backend wasm|wasm-simd|wasm-scalar|ts] [--y-up] -o OUT.obj
  idtech-models bench MESH.md5mesh [ANIM.md5anim] [--json]`;

class InputError extends Error {
  constructor(readonly file: string, override readonly cause: unknown) {
    super(String(cause));
  }
}

async function kindOf(path: string): Promise<FileKind> {
  const byName = kindFromName(path);
  if (byName) return byName;
  const fh = await open(path, 'r');
  try {
    const head = new Uint8Array(4096);
    const { bytesRead } = await fh.read(head, 0, head.length, 0);
    const k = kindFromBytes(head.subarray(0, bytesRead));
    if (!k) throw new UsageError(`${path}: not an .md5mesh or .md5anim file`);
    return k;
  } finally {
    await fh.close();
  }
}

async function load<T>(file: string, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    throw new InputError(file, e);
  }
}

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

async function inspect(argv: string[]): Promise<void> {
  const a = parseArgs(argv, [], ['--json']);
  if (a.positionals.length !== 1) throw new UsageError('inspect takes one FILE');
  const file = a.positionals[0];
  const kind = await kindOf(file);
  const summary =
    kind === 'md5mesh'
      ? meshSummary(file, await load(file, () => parseMd5MeshStream(fileChunks(file))))
      : animSummary(file, await load(file, () => parseMd5AnimStream(fileChunks(file))));
  if (a.flags.has('--json')) {
    process.stdout.write(JSON.stringify(summary) + '\n');
    return;
  }
  const lines: string[] = [];
  for (const [k, v] of Object.entries(summary)) {
    if (k === 'perMesh') continue;
    lines.push(`${k.padEnd(20)} ${Array.isArray(v) ? v.map((s) => JSON.stringify(s)).join(' ') : String(v)}`);
  }
  if ('perMesh' in summary) {
    summary.perMesh.forEach((m, i) => lines.push(`mesh ${i}`.padEnd(20) + ` ${m.vertices} vertices, ${m.triangles} triangles, ${m.weights} weights, shader ${JSON.stringify(m.shader)}`));
  }
  process.stdout.write(lines.join('\n') + '\n');
}

async function convert(argv: string[]): Promise<void> {
  const a = parseArgs(argv, ['--anim', '--frame', '--backend', '-o', '--output'], ['--y-up']);
  if (a.positionals.length !== 1) throw new UsageError('convert takes one MESH file');
  const out = (a.options.get('-o') ?? a.options.get('--output') ?? [])[0];
  if (!out) throw new UsageError('convert needs -o OUT.obj');
  if (!out.toLowerCase().endsWith('.obj')) throw new UsageError('only .obj output is supported');
  const animPaths = a.options.get('--anim') ?? [];
  if (animPaths.length > 1) throw new UsageError('convert takes at most one --anim');
  const frameText = (a.options.get('--frame') ?? [])[0];
  const frame = frameText === undefined ? 0 : Number(frameText);
  if (!Number.isInteger(frame) || frame < 0) throw new UsageError(`--frame must be a whole number ≥ 0, not ${frameText}`);
  if (frameText !== undefined && animPaths.length === 0) throw new UsageError('--frame needs --anim');
  const backendName = ((a.options.get('--backend') ?? [])[0] ?? 'auto') as BackendChoice;
  if (!['auto', 'wasm', 'wasm-simd', 'wasm-scalar', 'ts'].includes(backendName)) throw new UsageError(`unknown backend ${backendName}`);

  const meshPath = a.positionals[0];
  const mesh = await load(meshPath, () => loadMd5Mesh(meshPath));
  const anim = animPaths.length ? await load(animPaths[0], () => loadMd5Anim(animPaths[0])) : null;
  const backend = await createBackend(backendName);
  const poser = await load(meshPath, async () => new Md5Poser(backend, mesh));
  if (anim) {
    await load(animPaths[0], async () => poser.setAnim(anim));
    if (frame >= anim.frameCount) throw new UsageError(`--frame ${frame}: the anim has frames 0..${anim.frameCount - 1}`);
    poser.poseFrame(frame);
  } else {
    poser.poseBind();
  }
  const what = anim ? `${meshPath} posed by ${animPaths[0]} frame ${frame}` : `${meshPath} in its bind pose`;
  await writeFile(out, toObj(mesh, { positions: poser.positions, normals: poser.normals, yUp: a.flags.has('--y-up'), comment: `${what} (backend ${backend.name})` }));
  process.stderr.write(`wrote ${out}: ${poser.vertexCount} vertices (${backend.name})\n`);
  poser.dispose();
}

async function bench(argv: string[]): Promise<void> {
  const a = parseArgs(argv, [], ['--json']);
  if (a.positionals.length < 1 || a.positionals.length > 2) throw new UsageError('bench takes MESH [ANIM]');
  const [meshPath, animPath] = a.positionals;
  const mesh = await load(meshPath, () => loadMd5Mesh(meshPath));
  const anim = animPath ? await load(animPath, () => loadMd5Anim(animPath)) : null;
  if (anim) await load(animPath, async () => assertAnimMatchesMesh(mesh, anim));
  const result = await runSuite(meshPath.split(/[\\/]/).pop() ?? meshPath, mesh, anim, { timeMs: 200, rounds: 3 });
  if (a.flags.has('--json')) process.stdout.write(JSON.stringify(result) + '\n');
  else process.stdout.write(formatTable([result]) + '\n');
}

function describe(file: string, e: unknown): string {
  if (e instanceof ModelParseError) {
    const where = e.line !== undefined ? `${e.line}:${e.column}` : `byte ${e.offset}`;
    return `${file}:${where}: ${e.code}: ${e.detail}`;
  }
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err === 'object' && 'code' in err && typeof err.code === 'string') return `${file}: ${err.code}: ${err.message}`;
  return `${file}: ${String(e)}`;
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'inspect':
        await inspect(rest);
        return 0;
      case 'convert':
        await convert(rest);
        return 0;
      case 'bench':
        await bench(rest);
        return 0;
      case undefined:
      case '-h':
      case '--help':
      case 'help':
        process.stdout.write(USAGE + '\n');
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command ${command}`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`idtech-models: ${e.message}\n${USAGE}\n`);
      return 2;
    }
    if (e instanceof InputError) {
      process.stderr.write(`idtech-models: ${describe(e.file, e.cause)}\n`);
      return 1;
    }
    const err = e as NodeJS.ErrnoException;
    if (err && typeof err === 'object' && (err.code === 'ENOENT' || err.code === 'EISDIR' || err.code === 'EACCES')) {
      process.stderr.write(`idtech-models: ${err.path ?? ''}: ${err.code}: ${err.message}\n`);
      return 1;
    }
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`idtech-models: internal error: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exitCode = 70;
  },
);

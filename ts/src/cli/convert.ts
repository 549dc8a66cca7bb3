/**
 * `convert MODEL [--anim ANIM] [--frame N] [--backend …] [--y-up] -o OUT.obj`: one posed frame to a file.
 * MODEL is an .md5mesh (posed by --anim's frame N, or its bind pose), or an .md2 / .md3 (its frame N).
 */
import { writeFile } from 'node:fs/promises';
import { loadMd2, loadMd3, loadMd5Anim, loadMd5Mesh } from '../load/node.js';
import { md2ToObj, md3ToObj } from '../export/obj-morph.js';
import { Md2Poser } from '../pose/md2-poser.js';
import { Md3Poser } from '../pose/md3-poser.js';
import type { PoseBackend } from '../kernels/backend.js';
import { toObj } from '../export/obj.js';
import { createBackend } from '../kernels/select.js';
import { Md5Poser } from '../pose/md5-poser.js';
import type { BackendChoice } from '../kernels/backend.js';
import { parseArgs, UsageError } from './args.js';
import { kindOf, load } from './input.js';
import { convertGltf, GLTF_FLAGS, GLTF_OPTIONS } from './convert-gltf.js';

export async function convert(argv: string[]): Promise<void> {
  const a = parseArgs(argv, ['--anim', '--frame', '--backend', '-o', '--output', ...GLTF_OPTIONS], ['--y-up', ...GLTF_FLAGS]);
  if (a.positionals.length !== 1) throw new UsageError('convert takes one input file (or a Quake 3 player folder)');
  const out = (a.options.get('-o') ?? a.options.get('--output') ?? [])[0];
  if (!out) throw new UsageError('convert needs -o OUT.obj|OUT.glb|OUT.gltf');
  const ext = out.toLowerCase().replace(/^.*(\.[^.]*)$/, '$1');
  if (ext === '.glb' || ext === '.gltf') return convertGltf(a, out);
  if (ext !== '.obj') throw new UsageError(`${out}: output must end in .obj, .glb or .gltf`);
  for (const g of [...GLTF_OPTIONS, ...GLTF_FLAGS]) {
    if (a.options.has(g) || a.flags.has(g)) throw new UsageError(`${g} is for glTF output`);
  }
  const animPaths = a.options.get('--anim') ?? [];
  if (animPaths.length > 1) throw new UsageError('OBJ output takes at most one --anim (glTF takes many)');
  const frameText = (a.options.get('--frame') ?? [])[0];
  const frame = frameText === undefined ? 0 : Number(frameText);
  if (!Number.isInteger(frame) || frame < 0) throw new UsageError(`--frame must be a whole number ≥ 0, not ${frameText}`);
  const backendName = ((a.options.get('--backend') ?? [])[0] ?? 'auto') as BackendChoice;
  if (!['auto', 'wasm', 'wasm-simd', 'wasm-scalar', 'ts'].includes(backendName)) throw new UsageError(`unknown backend ${backendName}`);
  const input = a.positionals[0];
  const kind = await kindOf(input);
  const yUp = a.flags.has('--y-up');
  if (kind === 'md2' || kind === 'md3') {
    if (animPaths.length) throw new UsageError(`--anim is for .md5mesh files; ${kind} frames are in the file (use --frame N)`);
    await convertMorph(kind, input, frame, await createBackend(backendName), yUp, out);
    return;
  }
  if (kind !== 'md5mesh') throw new UsageError(`${input}: convert takes an .md5mesh, .md2 or .md3 (an .md5anim goes with --anim)`);
  if (frameText !== undefined && animPaths.length === 0) throw new UsageError('--frame needs --anim');

  const meshPath = input;
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
  await writeFile(out, toObj(mesh, { positions: poser.positions, normals: poser.normals, yUp, comment: `${what} (backend ${backend.name})` }));
  process.stderr.write(`wrote ${out}: ${poser.vertexCount} vertices (${backend.name})\n`);
  poser.dispose();
}

async function convertMorph(kind: 'md2' | 'md3', input: string, frame: number, backend: PoseBackend, yUp: boolean, out: string): Promise<void> {
  const model = kind === 'md2' ? await load(input, () => loadMd2(input)) : await load(input, () => loadMd3(input));
  if (frame >= model.frameCount) throw new UsageError(`--frame ${frame}: ${input} has frames 0..${model.frameCount - 1}`);
  const comment = `${input} frame ${frame} (backend ${backend.name})`;
  let text: string, vertices: number;
  if (model.format === 'md2') {
    const poser = new Md2Poser(backend, model).poseFrame(frame);
    text = md2ToObj(model, { positions: poser.positions, yUp, comment });
    vertices = poser.vertexCount;
    poser.dispose();
  } else {
    const poser = new Md3Poser(backend, model).poseFrame(frame);
    text = md3ToObj(model, { positions: poser.positions, normals: poser.normals, yUp, comment });
    vertices = poser.vertexCount;
    poser.dispose();
  }
  await writeFile(out, text);
  process.stderr.write(`wrote ${out}: ${vertices} vertices (${backend.name})\n`);
}

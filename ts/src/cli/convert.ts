/** `convert MESH [--anim ANIM] [--frame N] [--backend …] [--y-up] -o OUT.obj`: a posed model to a file. */
import { writeFile } from 'node:fs/promises';
import { loadMd5Anim, loadMd5Mesh } from '../node.js';
import { toObj } from '../export/obj.js';
import { createBackend } from '../pose/select.js';
import { Md5Poser } from '../pose/md5-poser.js';
import type { BackendChoice } from '../pose/backend.js';
import { parseArgs, UsageError } from './args.js';
import { load } from './input.js';

export async function convert(argv: string[]): Promise<void> {
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


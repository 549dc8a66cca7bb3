/**
 * `convert MODEL [--anim ANIM] [--frame N] [--backend …] [--y-up] -o OUT.obj`: one posed frame to a file.
 * MODEL is an .md5mesh (posed by --anim's frame N, or its bind pose), or an .md2 / .md3 (its frame N).
 */
import type { BackendChoice, PoseBackend } from '../kernels/backend.js';
import { createBackend } from '../kernels/select.js';
import { md2ToObj, md3ToObj } from '../export/obj-morph.js';
import { objMaterialLibrary } from '../export/obj-material.js';
import { toObj, type ObjOptions } from '../export/obj.js';
import type { ParseWarning } from '../base/errors.js';
import type { Md2Model, Md3Model, Md5Mesh } from '../base/model.js';
import { loadMd2, loadMd3 } from '../load/node.js';
import { Md5Poser } from '../pose/md5-poser.js';
import { Md2Poser } from '../pose/md2-poser.js';
import { Md3Poser } from '../pose/md3-poser.js';
import { optionValue, UsageError, type ParsedArgs } from './args.js';
import { isFolder, kindOf, load } from './input.js';
import { loadMd5WithAnims } from './md5-inputs.js';
import { count, summaryLine, writeOutputs, type OutputFile } from './output.js';
import { resolveCliTextures, wantsTextures } from './textures.js';
import { exportWarnings, parseWarnings, warningLines, type FileWarning } from './warnings.js';

export const BACKENDS: readonly BackendChoice[] = ['auto', 'wasm', 'wasm-simd', 'wasm-scalar', 'ts'];

interface Posed {
  text: string;
  /** The .mtl and its images, when textures were resolved. */
  extra: OutputFile[];
  report: string[];
  /** For the summary: `2 meshes, 1439 vertices, frame 3 of idle.md5anim`. */
  facts: string[];
  warnings: FileWarning[];
}

export async function convertObj(a: ParsedArgs, out: string): Promise<void> {
  const input = a.positionals[0];
  const animPaths = a.options.get('--anim') ?? [];
  if (animPaths.length > 1) throw new UsageError('OBJ output takes at most one --anim (glTF output takes many)', 'convert');
  const frameText = optionValue(a, '--frame');
  const frame = frameText === undefined ? 0 : Number(frameText);
  if (!Number.isInteger(frame) || frame < 0) throw new UsageError(`--frame must be a whole number ≥ 0, not ${frameText}`, 'convert');
  const backendName = (optionValue(a, '--backend') ?? 'auto') as BackendChoice;
  if (!BACKENDS.includes(backendName)) throw new UsageError(`unknown backend ${backendName} (${BACKENDS.join(', ')})`, 'convert');
  const yUp = a.flags.has('--y-up');
  if (await isFolder(input)) throw new UsageError(`${input}: a Quake 3 player folder converts to .glb or .gltf (OBJ output is one model's frame)`, 'convert');
  const kind = await kindOf(input);
  if (kind === 'md5anim') throw new UsageError(`${input}: an .md5anim is posed on its .md5mesh: convert MESH.md5mesh --anim ${input} -o ${out}`, 'convert');
  if (kind !== 'md5mesh' && animPaths.length) throw new UsageError(`--anim is for .md5mesh files; ${kind} frames are in the file (use --frame N)`, 'convert');
  if (kind === 'md5mesh' && frameText !== undefined && animPaths.length === 0) throw new UsageError('--frame needs --anim (an .md5mesh alone has only its bind pose)', 'convert');

  const backend = await createBackend(backendName);
  const textures = wantsTextures(a, 'convert') ? objTextures(a, input, out) : null;
  const posed = kind === 'md5mesh' ? await poseMd5(input, animPaths[0], frame, backend, yUp, textures) : await poseMorph(kind, input, frame, backend, yUp, textures);
  const files: OutputFile[] = [{ path: out, bytes: posed.text }, ...posed.extra];
  const bytes = await writeOutputs(files);
  for (const line of [...posed.report, ...warningLines(posed.warnings)]) process.stderr.write(line + '\n');
  process.stderr.write(summaryLine(files, [...posed.facts, `backend ${backend.name}`], bytes) + '\n');
}

/** Resolves a model's textures and makes `OUT.mtl` with its images beside OUT (`OUT_<image>.png`). */
type ObjTextures = (model: Md2Model | Md3Model | Md5Mesh) => Promise<{ materials: ObjOptions['materials']; extra: OutputFile[]; report: string[]; warnings: FileWarning[] }>;

function objTextures(a: ParsedArgs, input: string, out: string): ObjTextures {
  return async (model) => {
    const t = await resolveCliTextures(input, model, a);
    const stem = out.slice(0, out.length - 4);
    const file = stem.split(/[\\/]/).pop()!;
    const folder = out.slice(0, out.length - file.length - 4);
    const warnings: ParseWarning[] = [];
    const lib = objMaterialLibrary(t.textures, { filePrefix: `${file}_`, warnings });
    const extra = [{ path: `${stem}.mtl`, bytes: lib.mtl }, ...lib.files.map((f) => ({ path: folder + f.uri, bytes: f.bytes }))];
    return { materials: { file: `${file}.mtl`, nameFor: lib.nameFor }, extra, report: t.report, warnings: [...t.warnings, ...exportWarnings(input, warnings)] };
  };
}

const noTextures = { materials: undefined, extra: [], report: [], warnings: [] };

async function poseMd5(meshPath: string, animPath: string | undefined, frame: number, backend: PoseBackend, yUp: boolean, textures: ObjTextures | null): Promise<Posed> {
  const { mesh, anims } = await loadMd5WithAnims('convert', meshPath, animPath ? [animPath] : []);
  const anim = anims[0]?.anim;
  if (anim && frame >= anim.frameCount) throw new UsageError(`--frame ${frame}: ${animPath} has frames 0..${anim.frameCount - 1}`, 'convert');
  const poser = await load(meshPath, async () => new Md5Poser(backend, mesh));
  try {
    if (anim) {
      await load(animPath!, async () => poser.setAnim(anim));
      poser.poseFrame(frame);
    } else {
      poser.poseBind();
    }
    const what = anim ? `${meshPath} posed by ${animPath} frame ${frame}` : `${meshPath} in its bind pose`;
    const t = textures ? await textures(mesh) : noTextures;
    const text = toObj(mesh, { positions: poser.positions, normals: poser.normals, yUp, comment: `${what} (backend ${backend.name})`, materials: t.materials });
    const pose = anim ? `frame ${frame} of ${animPath}` : 'bind pose';
    return { text, extra: t.extra, report: t.report, facts: [count(mesh.meshes.length, 'mesh', 'meshes'), count(poser.vertexCount, 'vertex', 'vertices'), pose], warnings: t.warnings };
  } finally {
    poser.dispose();
  }
}

async function poseMorph(kind: 'md2' | 'md3', input: string, frame: number, backend: PoseBackend, yUp: boolean, textures: ObjTextures | null): Promise<Posed> {
  const model = kind === 'md2' ? await load(input, () => loadMd2(input)) : await load(input, () => loadMd3(input));
  if (frame >= model.frameCount) throw new UsageError(`--frame ${frame}: ${input} has frames 0..${model.frameCount - 1}`, 'convert');
  const comment = `${input} frame ${frame} (backend ${backend.name})`;
  const t = textures ? await textures(model) : noTextures;
  const warnings = [...parseWarnings(input, model.warnings), ...t.warnings];
  const materials = t.materials;
  const more = { extra: t.extra, report: t.report };
  if (model.format === 'md2') {
    const poser = new Md2Poser(backend, model).poseFrame(frame);
    try {
      const text = md2ToObj(model, { positions: poser.positions, yUp, comment, materials });
      return { text, ...more, facts: ['1 mesh', count(poser.vertexCount, 'vertex', 'vertices'), `frame ${frame}`], warnings };
    } finally {
      poser.dispose();
    }
  }
  const poser = new Md3Poser(backend, model).poseFrame(frame);
  try {
    const text = md3ToObj(model, { positions: poser.positions, normals: poser.normals, yUp, comment, materials });
    return { text, ...more, facts: [count(model.surfaces.length, 'mesh', 'meshes'), count(poser.vertexCount, 'vertex', 'vertices'), `frame ${frame}`], warnings };
  } finally {
    poser.dispose();
  }
}

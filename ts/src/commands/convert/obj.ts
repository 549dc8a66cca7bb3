/**
 * `convert MODEL [--anim ANIM] [--frame N] [--backend …] [--y-up] -o OUT.obj`: one posed frame to a file, written by
 * the model's registration (`FormatEntry.obj`): an md5mesh posed by --anim's frame N (or its bind pose), a
 * vertex-animated model's frame N. With textures, `OUT.mtl` and its images are written beside OUT.
 */
import { type ParseWarning, type ToObjOptions as ObjOptions, type BackendChoice, createBackend, type FormatEntry } from '../../node.js';
import { objMaterialLibrary } from '../../write.js';
import { optionValue, UsageError, type ParsedArgs } from '../args.js';
import { checkCompanions, load, readModel, type ModelInput } from '../inputs.js';
import { writeOutputs, type OutputFile } from '../output.js';
import { resolveCliTextures, wantsTextures } from '../textures.js';
import { exportWarnings, warningLines, type FileWarning } from '../warnings.js';
import { modelInputFiles, refuseOverwritingInputs, textureFiles } from './overwrite.js';
import { refuseSkin } from './gltf-options.js';
import { report, setWarnings } from './pipeline.js';

export const BACKENDS: readonly BackendChoice[] = ['auto', 'wasm', 'wasm-simd', 'wasm-scalar', 'ts'];

/** OBJ output's options, checked before any file is read. */
export function objOptions(a: ParsedArgs): { anims: string[]; frame: number | undefined; backendName: BackendChoice; controllers: Map<number, number> | undefined; blend: number[] | undefined } {
  const anims = a.options.get('--anim') ?? [];
  if (anims.length > 1) throw new UsageError('OBJ output takes at most one --anim (glTF output takes many)', 'convert');
  const frameText = optionValue(a, '--frame');
  const frame = frameText === undefined ? undefined : Number(frameText);
  if (frame !== undefined && (!Number.isInteger(frame) || frame < 0)) throw new UsageError(`--frame must be a whole number ≥ 0, not ${frameText}`, 'convert');
  const backendName = (optionValue(a, '--backend') ?? 'auto') as BackendChoice;
  if (!BACKENDS.includes(backendName)) throw new UsageError(`unknown backend ${backendName} (${BACKENDS.join(', ')})`, 'convert');
  return { anims, frame, backendName, ...poseControls(a) };
}

/** `--controller N=V` (repeatable) and `--blend X[,Y]`, checked. */
function poseControls(a: ParsedArgs): { controllers: Map<number, number> | undefined; blend: number[] | undefined } {
  const given = a.options.get('--controller') ?? [];
  const controllers = given.length ? new Map<number, number>() : undefined;
  for (const text of given) {
    const m = /^(\d+)=([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)$/i.exec(text);
    if (!m || Number(m[1]) > 4) throw new UsageError(`--controller ${text}: expected N=V, N a controller index 0–4 (4 the mouth), V degrees or units, e.g. --controller 0=30`, 'convert');
    controllers!.set(Number(m[1]), Number(m[2]));
  }
  const blendText = optionValue(a, '--blend');
  let blend: number[] | undefined;
  if (blendText !== undefined) {
    blend = blendText.split(',').map(Number);
    if (blend.length > 2 || blend.some((x) => !Number.isFinite(x) || x < 0 || x > 255) || blendText.trim() === '') throw new UsageError(`--blend ${blendText}: expected X or X,Y, each 0–255 (the entity's blending bytes)`, 'convert');
  }
  return { controllers, blend };
}

export async function convertObj(a: ParsedArgs, input: ModelInput, format: FormatEntry, out: string, formats: readonly FormatEntry[]): Promise<void> {
  const { anims, frame, backendName, controllers, blend } = objOptions(a);
  const obj = format.obj;
  if (!obj) throw new UsageError(`${input.label}: a ${format.folder?.noun ?? format.title} converts to .glb or .gltf (OBJ output is one model's frame)`, 'convert');
  if ((controllers || blend) && !obj.controls) throw new UsageError(`${controllers ? '--controller' : '--blend'}: a ${format.title} has no bone controllers or blends (a Half-Life model has)`, 'convert');
  // --anim names a clip inside the model for some formats (a Half-Life sequence), a file to play on it for the others
  const clip = obj.namesClips ? anims[0] : undefined;
  const companions = obj.namesClips ? [] : anims;
  checkCompanions(format, companions, formats);
  refuseSkin(a, format, formats);
  const set = await readModel(input, format, companions, formats);
  const frames = obj.frames(set, clip);
  if (frame !== undefined && frames === null) throw new UsageError(`--frame needs --anim (${format.extensions[0] ? `an ${format.extensions[0]}` : format.title} alone has only its bind pose)`, 'convert');
  if (frame !== undefined && frames && frame >= frames.count) throw new UsageError(`--frame ${frame}: ${frames.of} has frames 0..${frames.count - 1}`, 'convert');

  const backend = await createBackend(backendName);
  const warnings: FileWarning[] = setWarnings(set);
  let lines: string[] = [];
  let materials: ObjOptions['materials'];
  const extra: OutputFile[] = [];
  const read: string[] = [...anims];
  if (wantsTextures(a, 'convert')) {
    const t = await resolveCliTextures(input, set, a, 'convert', set.origin);
    const stem = out.slice(0, out.length - 4);
    const file = stem.split(/[\\/]/).pop()!;
    const folder = out.slice(0, out.length - file.length - 4);
    const libWarnings: ParseWarning[] = [];
    const lib = objMaterialLibrary(t.textures, { filePrefix: `${file}_`, warnings: libWarnings });
    extra.push({ path: `${stem}.mtl`, bytes: lib.mtl }, ...lib.files.map((f) => ({ path: folder + f.uri, bytes: f.bytes })));
    materials = { file: `${file}.mtl`, nameFor: lib.nameFor };
    lines = t.report;
    read.push(...textureFiles(t.gameFolder, t.textures.images.keys()));
    warnings.push(...t.warnings, ...exportWarnings(input.label, libWarnings));
  }
  const posed = await load(input.label, () => obj.write(set, { frame, backend, yUp: a.flags.has('--y-up'), comment: (what) => `${what} (backend ${backend.name})`, materials, ...(clip !== undefined ? { anim: clip } : {}), ...(controllers ? { controllers } : {}), ...(blend ? { blend } : {}) }));
  const files: OutputFile[] = [{ path: out, bytes: posed.text }, ...extra];
  await refuseOverwritingInputs(a, files.map((f) => f.path), await modelInputFiles(input, set, read));
  const bytes = await writeOutputs(files);
  report([...lines, ...warningLines(warnings)], files, [...posed.facts, `backend ${backend.name}`], bytes);
}

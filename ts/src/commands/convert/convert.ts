/**
 * `convert INPUT -o OUT`: a model to glTF 2.0 (convert-gltf.ts: the whole model, every animation) or to OBJ
 * (convert-obj.ts: one posed frame), chosen by OUT's extension. The options of one output are refused for the
 * other, so no option is silently ignored.
 */
import { extname } from 'node:path';
import { DEFAULT_FORMATS } from '../../node.js';
import { given, optionValue, UsageError, type CliContext, type Command, type CommandSpec, type ParsedArgs } from '../args.js';
import { ARCHIVES, companionExtensions, folderNouns, listed, modelExtensions, namesWhere, writerExtensions } from '../format-words.js';
import { inputFormat, modelInput } from '../inputs.js';
import { LIMIT_OPTIONS } from '../limits.js';
import { TEXTURE_OPTIONS } from '../textures.js';
import { BATCH_OPTIONS, convertAll, refuseBatchOptions } from './batch.js';
import { checkGltfOutput, convertGltf } from './gltf.js';
import { convertId, ID_OPTIONS, ID_OUTPUT, ID_SHARED_OPTIONS, writerFor } from './id.js';
import { BACKENDS, convertObj, objOptions } from './obj.js';

// The help's words about formats, from the registrations (format-words.ts): a format registered is a format described.
const FORMATS = DEFAULT_FORMATS;
/** What a player folder holds, for help: from the folder formats' registrations. */
const FOLDERS = FORMATS.flatMap((f) => (f.folder ? [`a ${f.folder.noun} holding ${f.folder.describes}`] : [])).join(' or ');
const MODEL_EXTENSIONS = modelExtensions(FORMATS);
const WRITER_EXTENSIONS = writerExtensions(FORMATS);
/** The model formats animation files play on, and what plays on each: `.md5anim on an .md5mesh; .iqm on an .iqm`. */
const PLAYED = FORMATS.filter((f) => f.role === 'model' && companionExtensions(f, FORMATS).length);
const PLAYED_ON = PLAYED.map((f) => `${companionExtensions(f, FORMATS).join(' ')} on an ${f.extensions[0]}`).join('; ');
/** Models whose frames are in their own file (vertex-animated, one file). */
/** The formats whose --anim names a clip inside the model (a Half-Life sequence), not a file. */
const SEQUENCES = namesWhere(FORMATS, (f) => Boolean(f.obj?.namesClips));
/** The formats whose pose takes bone controllers and blending (--controller, --blend). */
const CONTROLS = namesWhere(FORMATS, (f) => Boolean(f.obj?.controls));
const OWN_FRAMES = FORMATS.filter((f) => f.role === 'model' && f.animation === 'vertex' && !f.folder).flatMap((f) => f.extensions);
const uses = (option: string) => (f: (typeof FORMATS)[number]) => (f.gltf?.uses as readonly string[] | undefined)?.includes(option) ?? false;

const GLTF = 'glTF output (.glb, .gltf)';
const OBJ = 'OBJ output (.obj)';

const spec: CommandSpec = {
  name: 'convert',
  summary: 'a model with its animations to .glb/.gltf, or one posed frame to .obj',
  usage: [
    'convert INPUT [--anim ANIM]… [glTF options] -o OUT.glb|OUT.gltf',
    'convert INPUT [--anim ANIM] [--frame N] [OBJ options] -o OUT.obj',
    'convert ARCHIVE_OR_DIR --all [--jobs N] [--force] [--slice I/N] [--json] -o OUTDIR',
    `convert IN.glb|IN.gltf|MODEL [--fps N] [--scale S] [--split] [--validate] -o OUT${WRITER_EXTENSIONS.join('|OUT')}`,
  ],
  about: [
    `INPUT is a model file (${MODEL_EXTENSIONS}), ${FOLDERS}, or either of them inside a ${ARCHIVES} (ARCHIVE:models/…/x.md3, or ARCHIVE/models/…/x.md3). ` +
      `Animation files are given with --anim (${PLAYED_ON}); an ${listed(OWN_FRAMES)}'s frames are in the file, ` +
      `cut into clips by frame name (run1, run2, … → run); ${listed(folderNouns(FORMATS))}'s come from its files. ` +
      'A model inside an archive is read from the archive without extracting it; there --anim names animation files inside the same archive.',
    'With --all, INPUT is an archive, a folder of them or a game folder, and every model in it is converted to a .glb under OUTDIR (docs/cli.md, "Batch conversion").',
    `glTF output is the whole model with every animation: ${namesWhere(FORMATS, (f) => f.animation === 'skeletal')} as a skinned mesh, ` +
      `${namesWhere(FORMATS, (f) => f.animation === 'vertex' && !f.folder)} as morph targets, ${listed(folderNouns(FORMATS))} as its parts chained by tags. ` +
      "OBJ output is one frame, posed, positions in the file's Z-up axes unless --y-up.",
    "Textures are resolved as the model's engine does: in the game folder above INPUT (the nearest folder holding models/, " +
      'scripts/, materials/ or textures/; or --game-dir), through .skin files, shader scripts and .mtr materials, with the ' +
      'engine\'s extension fallback. .glb embeds the images (TGA/PCX/BMP as PNG), .gltf and .obj (with a .mtl) write them beside OUT. ' +
      'stderr lists each surface and the image it got.',
    'Warnings go to stderr, one line per kind with a count; the last line says what was written. ' +
      'Exit status: 0 written, 1 bad input (one line on stderr: file, error code, position), 2 bad usage.',
  ],
  options: [
    { name: '--output', aliases: ['-o'], value: 'OUT', group: 'output', help: `The file to write; its extension picks the format: .glb (one binary glTF file), .gltf (glTF JSON plus OUT.bin next to it) or .obj; ${WRITER_EXTENSIONS.join(', ')} (an id format, from glTF input or any model). Required.` },
    { name: '--anim', value: 'ANIM', repeatable: true, group: `animation (${PLAYED.map((f) => f.extensions[0]).join(' ')} input)`, help: `An animation file to play on the model (${PLAYED_ON}); its joints must match the model's. glTF: each becomes one animation named after its file. OBJ: at most one, posed at --frame.${SEQUENCES ? ` A ${SEQUENCES} (OBJ output): the name or number of one of its sequences.` : ''}` },
    { name: '--clip', value: 'NAME:FIRST:COUNT[:FPS]', repeatable: true, group: GLTF, help: `${namesWhere(FORMATS, uses('clips'))}: export these frames as an animation named NAME, instead of the clips found from frame names; e.g. run:40:6 or run:40:6:10. FPS defaults to --fps.` },
    { name: '--fps', value: 'N', group: GLTF, help: `${namesWhere(FORMATS, uses('fps'))}: frames per second of clips that give none. Default: the rate its engine plays it at (10 for MD2 and Quake MDL, 15 for MD3); a player's animation.cfg, an IQM's animations and a Quake MDL's frame groups give their own.` },
    { name: '--step', group: GLTF, help: `${namesWhere(FORMATS, uses('step'))}: jump from frame to frame (STEP) instead of blending between them as the engines do (LINEAR, the default).` },
    { name: '--md2-frame-nodes', group: GLTF, help: 'MD2: one node and mesh per frame, shown one at a time, instead of one mesh with a morph target per frame; for tools without morph targets.' },
    { name: '--md2-box-grid', group: GLTF, help: "MD2: quantise positions in 255 steps over the box every frame fits in (smaller) instead of the default grid, fine enough that every frame reads back onto the .md2's own bytes; coarser than the file where the model moves far across its frames." },
    ...TEXTURE_OPTIONS,
    { name: '--textures', value: 'DIR', group: GLTF, help: "Instead of resolving textures, point materials at images by name: a shader or skin 'models/x/skin.tga' becomes DIR/skin.png (DIR relative to OUT, or a URL)." },
    { name: '--texture-ext', value: '.EXT', group: GLTF, help: 'The extension of the images in --textures DIR, with its dot. Default .png.' },
    { name: '--float', group: GLTF, help: `${namesWhere(FORMATS, uses('quantize'))}: float32 positions, normals and morph weights. By default they are quantised (KHR_mesh_quantization: MD3 exactly as stored, MD2 on a grid that reads back onto its own bytes; docs/gltf.md), 2–3× smaller.` },
    { name: '--meshopt', group: GLTF, help: '.glb only: compress the geometry and animation data with EXT_meshopt_compression (meshoptimizer); loaders need its decoder (three.js: GLTFLoader.setMeshoptDecoder).' },
    { name: '--reorder', group: GLTF, help: "With --meshopt: renumber each animated mesh's vertices so that they compress better (faerie.md2: 1.65x -> 1.40x its file). Vertex i is then no longer the file's vertex i; each mesh primitive's extras.sourceVertex maps them back." },
    { name: '--replacement', group: GLTF, help: "MD2/MDL: convert the MD5 model the Quake II or Quake re-release draws in its place (models/x/md5/tris.md5mesh with tris.md5anim and its .md5scale; progs/x.md5mesh with progs/x.md5anim) instead of the model itself; inspect lists it." },
    { name: '--z-up', group: GLTF, help: "Keep the file's Z-up axes. By default they are turned to glTF's Y-up (x, y, z) → (x, z, −y)." },
    { name: '--frame', value: 'N', group: OBJ, help: `The frame to pose, from 0: of --anim for a model animation files play on (without --anim, its first frame or bind pose), of the file for an ${listed(OWN_FRAMES)}${SEQUENCES ? `, of the sequence --anim names for a ${SEQUENCES} (its first without --anim)` : ''}. Default 0.` },
    { name: '--controller', value: 'N=V', repeatable: true, group: OBJ, help: `${CONTROLS}: set bone controller N (0–3; 4 the mouth) to V degrees, or units for one that moves a bone, as the engine's StudioCalcBoneAdj takes it (held within the controller's range; a looping one wraps). One not set adjusts nothing. E.g. --controller 0=30 --controller 4=2.` },
    { name: '--blend', value: 'X[,Y]', group: OBJ, help: `${CONTROLS}: the entity's blending bytes (0–255) for a sequence with blends: X mixes blends 0 and 1 (and 2, 3 of four), Y the pairs of four, both the cell of Counter-Strike's 3×3 aim grid of nine. Default 0,0: the first blend.` },
    { name: '--backend', value: 'NAME', group: OBJ, help: `What poses the frame: ${BACKENDS.join(', ')}. Default auto: WASM (with SIMD where the CPU has it), or TS where WebAssembly is missing. All pose alike.` },
    ...BATCH_OPTIONS,
    ...ID_OPTIONS,
    ...LIMIT_OPTIONS,
    { name: '--y-up', group: OBJ, help: "Turn id's Z-up into Y-up (x, y, z) → (x, z, −y), for tools that expect it. Default: the file's axes." },
  ],
  examples: [
    'convert imp.md5mesh --anim walk.md5anim --anim idle.md5anim -o imp.glb',
    'convert tris.md2 --clip run:40:6 --textures . --texture-ext .pcx -o tris.gltf',
    'convert models/players/sarge --skin red -o sarge.glb',
    'convert baseq3/pak0.pk3/models/mapobjects/teleporter/teleporter.md3 -o teleporter.glb',
    'convert drone.md5mesh --anim run.md5anim --frame 3 --y-up -o pose.obj',
    'convert pak0.pk3:models/players/sarge -o sarge.glb',
    'convert baseq3 --all --jobs 4 -o out',
    'convert sarge.glb --player -o models/players/sarge',
  ],
};

async function run(a: ParsedArgs, { formats }: CliContext): Promise<void | number> {
  if (a.flags.has('--all')) return convertAll(a, formats);
  refuseBatchOptions(a);
  if (a.positionals.length !== 1) throw new UsageError(`convert takes one INPUT (${listed(['a model file', ...folderNouns(formats)])})`, 'convert');
  const out = optionValue(a, '--output');
  if (!out) throw new UsageError(`convert needs -o OUT: its extension picks what is written (${listed(['.glb', '.gltf', '.obj', ...writerExtensions(formats)])})`, 'convert');
  const ext = extname(out).toLowerCase();
  const writer = writerFor(a, out, formats);
  const flagged = writer?.writer.folderFlag && given(a, writer.writer.folderFlag.name);
  const target = flagged ? ID_OUTPUT : ext === '.glb' || ext === '.gltf' ? GLTF : ext === '.obj' ? OBJ : writer ? ID_OUTPUT : null;
  if (!target) throw new UsageError(`${out}: the output must end in .glb, .gltf, .obj or ${formats.flatMap((f) => f.writer?.extensions ?? []).join(', ')}`, 'convert');
  for (const o of spec.options) {
    if (target === ID_OUTPUT && ID_SHARED_OPTIONS.has(o.name)) continue;
    if ((o.group === GLTF || o.group === OBJ || o.group === ID_OUTPUT) && o.group !== target && given(a, o.name)) throw new UsageError(`${o.name} is for ${o.group}, not ${ext}`, 'convert');
  }
  if (target === ID_OUTPUT) return convertId(a, out, writer!, formats);
  if (target === OBJ) objOptions(a);
  else checkGltfOutput(a, out);
  const input = await modelInput(a.positionals[0]);
  try {
    const format = await inputFormat(input, formats);
    if (format.role === 'animation') {
      const on = formats.find((f) => f.id === format.playsOn);
      const onExt = on?.extensions[0] ?? `.${format.playsOn}`;
      throw new UsageError(`${input.label}: an ${format.extensions[0]} ${target === OBJ ? 'is posed' : 'plays'} on its ${onExt}: convert MESH${onExt} --anim ${input.label} -o ${out}`, 'convert');
    }
    return target === GLTF ? await convertGltf(a, input, format, out, formats) : await convertObj(a, input, format, out, formats);
  } finally {
    await input.close();
  }
}

export const convert: Command = { spec, run };

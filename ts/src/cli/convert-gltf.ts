/**
 * `convert IN [--anim ANIM …] -o OUT.glb|OUT.gltf`: the whole model, animated, as glTF 2.0.
 * IN is an .md5mesh (each --anim becomes one animation named after its file), an .md2 or .md3 (clips from the
 * frame names, or --clip), or a Quake 3 player folder (player-folder.ts). Warnings go to stderr grouped by kind,
 * then one summary line read back from the written file.
 */
import { gltfFiles, type GltfModel, type GltfOptions } from '../export/gltf.js';
import { toGlbMeshopt } from '../export/gltf-meshopt.js';
import { loadMd2, loadMd3 } from '../load/node.js';
import { given, optionValue, UsageError, type ParsedArgs } from './args.js';
import { gltfCounts, gltfJson } from './gltf-counts.js';
import { isFolder, kindOf, load, type ReadKind } from './input.js';
import { baseName, loadMd5WithAnims } from './md5-inputs.js';
import { count, summaryLine, writeOutputs } from './output.js';
import { loadPlayerFolder } from './player-folder.js';
import { archiveModel, resolveCliTextures, wantsTextures } from './textures.js';
import { exportWarnings, parseWarnings, warningLines, type FileWarning } from './warnings.js';

type GltfInput = Exclude<ReadKind, 'md5anim'> | 'player';

/**
 * The inputs each glTF-only option acts on (docs/gltf.md's table); given for another input it would do nothing,
 * so it is refused instead. Options not listed act on every input.
 */
export const ACTS_ON: Record<string, { inputs: readonly GltfInput[]; says: string }> = {
  '--clip': { inputs: ['md2', 'md3'], says: ".md2 and .md3 files (an md5mesh's clips are its --anim files, a player's its animation.cfg)" },
  '--fps': { inputs: ['md2', 'md3', 'player'], says: '.md2, .md3 and player folders (an md5anim has its own frameRate)' },
  '--step': { inputs: ['md2', 'md3', 'player'], says: '.md2, .md3 and player folders (MD5 joints always interpolate)' },
  '--md2-frame-nodes': { inputs: ['md2'], says: '.md2 files' },
  '--md2-box-grid': { inputs: ['md2'], says: '.md2 files' },
  '--float': { inputs: ['md2', 'md3', 'player'], says: '.md2, .md3 and player folders (MD5 is always float32)' },
};

/** `--clip name:first:count[:fps]`, repeatable. */
function clips(a: ParsedArgs): GltfOptions['clips'] {
  const list = a.options.get('--clip');
  if (!list) return undefined;
  return list.map((c) => {
    const m = /^([^:]+):(\d+):(\d+)(?::(\d+(?:\.\d+)?))?$/.exec(c);
    if (!m) throw new UsageError(`--clip ${c}: expected NAME:FIRST:COUNT[:FPS], e.g. run:40:6 or run:40:6:10`, 'convert');
    return { name: m[1], firstFrame: Number(m[2]), frameCount: Number(m[3]), ...(m[4] ? { fps: Number(m[4]) } : {}) };
  });
}

export function options(a: ParsedArgs, name: string, warnings: GltfOptions['warnings']): GltfOptions {
  const fpsText = optionValue(a, '--fps');
  const fps = fpsText === undefined ? undefined : Number(fpsText);
  if (fps !== undefined && !(fps > 0)) throw new UsageError(`--fps must be a positive number, not ${fpsText}`, 'convert');
  if (given(a, '--texture-ext') && !given(a, '--textures')) throw new UsageError('--texture-ext names the images in --textures DIR: give --textures too', 'convert');
  const clipList = clips(a);
  const textures = optionValue(a, '--textures');
  const textureExt = optionValue(a, '--texture-ext');
  return {
    name,
    warnings,
    yUp: !a.flags.has('--z-up'),
    ...(a.flags.has('--step') ? { interpolation: 'STEP' as const } : {}),
    ...(a.flags.has('--md2-frame-nodes') ? { md2Frames: 'nodes' as const } : {}),
    ...(a.flags.has('--md2-box-grid') ? { md2Grid: 'box' as const } : {}),
    ...(a.flags.has('--float') ? { quantize: false } : {}),
    ...(fps ? { fps } : {}),
    ...(textures !== undefined ? { textureFolder: textures } : {}),
    ...(textureExt !== undefined ? { textureExtension: textureExt } : {}),
    ...(clipList ? { clips: clipList } : {}),
  };
}

export async function convertGltf(a: ParsedArgs, out: string): Promise<void> {
  const input = a.positionals[0];
  const animPaths = a.options.get('--anim') ?? [];
  const exportWarningList: NonNullable<GltfOptions['warnings']> = [];
  const opts = options(a, baseName(input), exportWarningList);
  const warnings: FileWarning[] = [];

  const inArchive = await archiveModel(input);
  const folder = !inArchive && (await isFolder(input));
  const kind: GltfInput | 'md5anim' = inArchive ? inArchive.format : folder ? 'player' : await kindOf(input);
  if (kind === 'md5anim') throw new UsageError(`${input}: an .md5anim plays on its .md5mesh: convert MESH.md5mesh --anim ${input} -o ${out}`, 'convert');
  if (kind !== 'md5mesh' && animPaths.length) throw new UsageError(`--anim is for .md5mesh files; ${kind === 'player' ? "a player's clips come from its animation.cfg" : `${kind} frames are in the file`}`, 'convert');
  for (const [option, acts] of Object.entries(ACTS_ON)) {
    if (given(a, option) && !acts.inputs.includes(kind)) throw new UsageError(`${option} acts on ${acts.says}`, 'convert');
  }

  let model: GltfModel;
  if (inArchive) {
    if (animPaths.length) throw new UsageError('--anim reads .md5anim files from disk; a model inside an archive converts without them', 'convert');
    model = inArchive;
    warnings.push(...parseWarnings(input, ('warnings' in inArchive && inArchive.warnings) || []));
  } else if (kind === 'player') {
    const p = await loadPlayerFolder(input);
    model = p.player;
    warnings.push(...p.warnings);
  } else if (kind === 'md5mesh') {
    const { mesh, anims } = await loadMd5WithAnims('convert', input, animPaths);
    warnings.push(...parseWarnings(input, mesh.warnings ?? []));
    model = mesh;
    opts.anims = anims.map(({ name, anim }) => ({ name, anim }));
  } else {
    const m = kind === 'md2' ? await load(input, () => loadMd2(input)) : await load(input, () => loadMd3(input));
    warnings.push(...parseWarnings(input, m.warnings));
    model = m;
  }

  let report: string[] = [];
  if (wantsTextures(a, 'convert')) {
    const t = await resolveCliTextures(input, model, a);
    opts.textures = t.textures;
    report = t.report;
    warnings.push(...t.warnings);
  }
  if (a.flags.has('--meshopt') && !out.toLowerCase().endsWith('.glb')) throw new UsageError(`--meshopt writes a .glb, not ${out}`, 'convert');
  if (a.flags.has('--reorder') && !a.flags.has('--meshopt')) throw new UsageError('--reorder goes with --meshopt (it only helps its codec)', 'convert');
  const files = await load(input, async () => (a.flags.has('--meshopt') ? [{ path: out, bytes: await toGlbMeshopt(model, { ...opts, reorder: a.flags.has('--reorder') }) }] : gltfFiles(model, out, opts)));
  const bytes = await writeOutputs(files);
  warnings.push(...exportWarnings(input, exportWarningList));
  for (const line of [...report, ...warningLines(warnings)]) process.stderr.write(line + '\n');
  const c = gltfCounts(gltfJson(files[0].bytes));
  process.stderr.write(summaryLine(files, [count(c.meshes, 'mesh', 'meshes'), count(c.vertices, 'vertex', 'vertices'), count(c.animations, 'clip')], bytes) + '\n');
}

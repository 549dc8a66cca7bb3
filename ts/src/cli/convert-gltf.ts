/**
 * `convert IN [--anim ANIM …] -o OUT.glb|OUT.gltf`: the whole model, animated, as glTF 2.0.
 * IN is an .md5mesh (each --anim becomes one animation named after its file), an .md2 or .md3 (clips from the
 * frame names, or --clip), or a folder holding a Quake 3 player (lower.md3, upper.md3, head.md3, optional
 * animation.cfg and weapon.md3). Warnings (e.g. WEIGHTS_DROPPED) go to stderr, one line each.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gltfFiles, type GltfModel, type GltfOptions, type GltfPlayer } from '../export/gltf.js';
import { checkPlayerTags } from '../formats/md3/player-parts.js';
import { parseAnimationCfg } from '../formats/md3/animation-cfg.js';
import type { ParseWarning } from '../base/errors.js';
import { loadMd2, loadMd3, loadMd5Anim, loadMd5Mesh } from '../load/node.js';
import type { ParsedArgs } from './args.js';
import { UsageError } from './args.js';
import { kindOf, load } from './input.js';

/** Options and flags only glTF output takes (`convert` parses them with its own and refuses them for OBJ). */
export const GLTF_OPTIONS = ['--textures', '--texture-ext', '--fps', '--clip'];
export const GLTF_FLAGS = ['--step', '--z-up', '--md2-frame-nodes'];

const baseName = (p: string) => (p.split(/[\\/]/).pop() ?? p).replace(/\.[^.]*$/, '');

async function isDirectory(p: string): Promise<boolean> {
  return (await stat(p)).isDirectory();
}

/** A Quake 3 player folder: lower/upper/head.md3 (+ weapon.md3, animation.cfg). */
async function loadPlayer(dir: string): Promise<GltfPlayer> {
  const part = (name: string) => join(dir, `${name}.md3`);
  const [lower, upper, head] = await Promise.all(['lower', 'upper', 'head'].map((n) => load(part(n), () => loadMd3(part(n)))));
  const weapon = await stat(part('weapon')).then(() => load(part('weapon'), () => loadMd3(part('weapon'))), () => undefined);
  const cfgPath = join(dir, 'animation.cfg');
  const cfg = await readFile(cfgPath).then((b) => load(cfgPath, async () => parseAnimationCfg(new Uint8Array(b))), () => undefined);
  const models = { lower, upper, head, ...(weapon ? { weapon } : {}) };
  await load(dir, async () => checkPlayerTags(models));
  return { models, animations: cfg };
}

/** `--clip name:first:count[:fps]`, repeatable. */
function clips(a: ParsedArgs): GltfOptions['clips'] {
  const list = a.options.get('--clip');
  if (!list) return undefined;
  return list.map((c) => {
    const m = /^([^:]+):(\d+):(\d+)(?::(\d+(?:\.\d+)?))?$/.exec(c);
    if (!m) throw new UsageError(`--clip ${c}: expected name:first:count[:fps]`);
    return { name: m[1], firstFrame: Number(m[2]), frameCount: Number(m[3]), ...(m[4] ? { fps: Number(m[4]) } : {}) };
  });
}

export async function convertGltf(a: ParsedArgs, out: string): Promise<void> {
  const input = a.positionals[0];
  const animPaths = a.options.get('--anim') ?? [];
  const fpsText = a.options.get('--fps')?.[0];
  const fps = fpsText === undefined ? undefined : Number(fpsText);
  if (fps !== undefined && !(fps > 0)) throw new UsageError(`--fps must be a positive number, not ${fpsText}`);
  if (a.options.has('--frame')) throw new UsageError('--frame is for .obj output; glTF keeps every frame');
  const warnings: ParseWarning[] = [];
  const clipList = clips(a);
  const options: GltfOptions = {
    name: baseName(input),
    warnings,
    yUp: !a.flags.has('--z-up'),
    ...(a.flags.has('--step') ? { interpolation: 'STEP' as const } : {}),
    ...(a.flags.has('--md2-frame-nodes') ? { md2Frames: 'nodes' as const } : {}),
    ...(fps ? { fps } : {}),
    ...(a.options.has('--textures') ? { textureFolder: a.options.get('--textures')![0] } : {}),
    ...(a.options.has('--texture-ext') ? { textureExtension: a.options.get('--texture-ext')![0] } : {}),
    ...(clipList ? { clips: clipList } : {}),
  };
  let model: GltfModel;
  if (await isDirectory(input)) {
    model = await loadPlayer(input);
  } else {
    const kind = await kindOf(input);
    if (kind === 'md5mesh') {
      model = await load(input, () => loadMd5Mesh(input));
      options.anims = [];
      for (const p of animPaths) options.anims.push({ name: baseName(p), anim: await load(p, () => loadMd5Anim(p)) });
    } else if (kind === 'md2') {
      model = await load(input, () => loadMd2(input));
    } else if (kind === 'md3') {
      model = await load(input, () => loadMd3(input));
    } else {
      throw new UsageError(`${input}: an .md5anim goes with --anim on its .md5mesh`);
    }
    if (kind !== 'md5mesh' && animPaths.length) throw new UsageError(`--anim is for .md5mesh files; ${kind} frames are in the file`);
  }
  const files = await load(input, async () => gltfFiles(model, out, options));
  for (const f of files) await writeFile(f.path, f.bytes);
  for (const w of warnings) process.stderr.write(`${input}: warning ${w.code}: ${w.message}\n`);
  process.stderr.write(`wrote ${files.map((f) => f.path).join(', ')}\n`);
}

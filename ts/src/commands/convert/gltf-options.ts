/**
 * The glTF export options of `convert`: parsed once (`--clip`, `--fps`, `--step`, `--float`, `--textures` …) for a
 * loose file, an archive member and each model of `--all`, and checked against what the model's format acts on
 * (its registration's `gltf.uses`): an option a format would ignore is refused, never silently dropped.
 */
import type { GltfOptions, FormatEntry, GltfOptionUse } from '../../node.js';
import { given, optionValue, UsageError, type ParsedArgs } from '../args.js';

/** The options that act on some formats only, and what each is in the registrations' terms. */
const OPTION_USES: Record<string, GltfOptionUse> = {
  '--clip': 'clips',
  '--fps': 'fps',
  '--step': 'step',
  '--md2-frame-nodes': 'frameNodes',
  '--md2-box-grid': 'md2Grid',
  '--float': 'quantize',
};

/** `a`, `a and b`, `a, b and c`. */
const listed = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

/** Refuses each option `format` does not act on, naming the formats it does act on. */
export function refuseIgnoredOptions(a: ParsedArgs, format: FormatEntry, formats: readonly FormatEntry[]): void {
  refuseSkin(a, format, formats);
  for (const [option, use] of Object.entries(OPTION_USES)) {
    if (!given(a, option) || format.gltf?.uses.includes(use)) continue;
    const takers = formats.filter((f) => f.gltf?.uses.includes(use));
    const files = takers.filter((f) => !f.folder).flatMap((f) => f.extensions);
    const said = [...(files.length ? [`${listed(files)} files`] : []), ...takers.filter((f) => f.folder).map((f) => `${f.folder!.noun}s`)];
    throw new UsageError(`${option} acts on ${listed(said)}, not on ${format.folder ? `a ${format.folder.noun}` : `${format.extensions.join(', ')} files`}`, 'convert');
  }
}

/**
 * Refuses `--skin` for a format whose materials take no skin by name (an MD2's skins are records in the file, an
 * md5mesh's come from its shaders): it was silently ignored.
 */
export function refuseSkin(a: ParsedArgs, format: FormatEntry, formats: readonly FormatEntry[]): void {
  if (!given(a, '--skin') || format.skins) return;
  const takers = formats.filter((f) => f.skins).map((f) => `${f.folder ? `a ${f.folder.noun}` : f.extensions[0]}: ${f.skins}`);
  throw new UsageError(`--skin picks a skin by name (${takers.join('; ')}); a ${format.title} has none to pick`, 'convert');
}

/**
 * Refuses a `--clip` the model's frames do not hold whole (exit 2, nothing written): its numbers were typed for
 * another file or are wrong, and a clip cut short or left out would be another animation than the one asked for.
 * `frames` is the model's frame count and file (`FormatEntry.obj.frames`).
 */
export function checkClipRanges(a: ParsedArgs, frames: { count: number; of: string } | null): void {
  const list = clips(a);
  if (!list || !frames) return;
  for (const c of list) {
    if (c.frameCount < 1) throw new UsageError(`--clip ${c.name}:${c.firstFrame}:${c.frameCount}: a clip has at least one frame`, 'convert');
    const last = c.firstFrame + c.frameCount - 1;
    if (last >= frames.count) throw new UsageError(`--clip ${c.name}:${c.firstFrame}:${c.frameCount} asks for frames ${c.firstFrame}..${last}, and ${frames.of} has frames 0..${frames.count - 1}: nothing written (a clip is exported whole or not at all)`, 'convert');
  }
}

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

/** The export options `a` gives, for a model named `name`; export warnings go to `warnings`. */
export function gltfOptions(a: ParsedArgs, name: string, warnings: NonNullable<GltfOptions['warnings']>): GltfOptions {
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

/** A path's file name without folder and extension: the glTF scene's name (`sarge` for `models/players/sarge`). */
export const baseName = (p: string): string => (p.replace(/[\\/]+$/, '').split(/[\\/]/).pop() ?? p).replace(/\.[^.]*$/, '');

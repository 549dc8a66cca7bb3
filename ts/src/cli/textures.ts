/**
 * Textures for `convert` and `inspect`: the model's game folder found on disk (load/game-folder.ts: the nearest
 * folder above it holding models/, scripts/, materials/ or textures/; an archive folder's parent; the folder of an
 * archive the path runs through), mounted in engine order, every surface resolved (materials/), the images read.
 * Reported per surface: `name → image path`, or the warning that says why there is none.
 */
import { kindFromName } from '../formats/detect.js';
import { parseMd2 } from '../formats/md2/index.js';
import { parseMd3 } from '../formats/md3/index.js';
import { parseMd5Mesh } from '../formats/md5/index.js';
import type { Md2Model, Md3Model, Md5Mesh } from '../base/model.js';
import { locateGameFolder, resolveTexturesOnDisk, type GameFolderTextures } from '../load/game-folder.js';
import type { TexturedModel } from '../load/textures.js';
import { openArchive } from '../vfs/node.js';
import { given, optionValue, UsageError, type OptionSpec, type ParsedArgs } from './args.js';
import { badInput, load } from './input.js';
import type { FileWarning } from './warnings.js';

export const TEXTURES = 'textures';

/** The options every textured command takes (convert: both outputs; inspect). */
export const TEXTURE_OPTIONS: OptionSpec[] = [
  { name: '--skin', value: 'NAME', group: TEXTURES, help: "MD3: use <model>_NAME.skin beside it; a player folder: <part>_NAME.skin for each part (default: a player's _default skins, an MD3's own shader names)." },
  { name: '--game-dir', value: 'DIR', group: TEXTURES, help: 'The game folder to resolve shaders, skins and images in (mounted with its .pk3/.pk4/.dpk files and .pk3dir/.dpkdir folders in engine order). Default: the nearest folder above the model holding models/, scripts/, materials/ or textures/.' },
  { name: '--no-textures', group: TEXTURES, help: 'Do not resolve textures: materials carry shader names only.' },
];

/** Whether the command should resolve textures (not with --no-textures, nor with glTF's name-only --textures DIR). */
export function wantsTextures(a: ParsedArgs, command: string): boolean {
  if (a.flags.has('--no-textures')) {
    for (const o of ['--skin', '--game-dir']) if (given(a, o)) throw new UsageError(`${o} resolves textures, which --no-textures turns off`, command);
    return false;
  }
  if (given(a, '--textures')) {
    for (const o of ['--skin', '--game-dir']) if (given(a, o)) throw new UsageError(`${o} resolves textures from the game folder; --textures DIR only names images by shader name: give one or the other`, command);
    return false;
  }
  return true;
}

/** Resolves `model`'s textures in its game folder (see the file comment); the report lines and warnings with it. */
export async function resolveCliTextures(input: string, model: TexturedModel, a: ParsedArgs): Promise<{ textures: GameFolderTextures; report: string[]; warnings: FileWarning[] }> {
  const textures = await load(input, () => resolveTexturesOnDisk(input, model, { skin: optionValue(a, '--skin'), gameDir: optionValue(a, '--game-dir') }));
  return { textures, report: textureReport(textures), warnings: materialWarnings(input, textures) };
}

/** `textures from DIR (…)` then one line per surface: `  part/surface: shader → image` (or `no image`). */
export function textureReport(t: GameFolderTextures): string[] {
  const how = t.place.how === 'found' ? 'found above the model' : t.place.how === 'given' ? '--game-dir' : "no game folder found: the model's own folder";
  const lines = [`textures from ${t.place.gameDir} (${how})${t.place.archive ? `, model in ${t.place.archive}` : ''}:`];
  for (const m of t.materials) {
    const label = `${m.part ? `${m.part}/` : ''}${m.surface || `#${m.index}`}`;
    const shader = m.shaderName ? `${m.shaderName} → ` : '';
    const image = m.diffuse?.path ? `${m.diffuse.path}${t.images.has(m.diffuse.path) ? '' : ' (unreadable)'}` : m.diffuse?.builtin ? `engine image ${m.diffuse.builtin}` : 'no image';
    const normal = m.normal?.path ? `, normal map ${m.normal.path}` : '';
    lines.push(`  ${label}: ${shader}${image}${normal}`);
  }
  return lines;
}

/** The resolver's warnings as the CLI prints them, each attributed to the file it concerns (else the input). */
export function materialWarnings(input: string, t: Pick<GameFolderTextures, 'warnings'>): FileWarning[] {
  return t.warnings.map((w) => ({
    file: w.path ?? input,
    warning: { code: w.code, message: w.message, offset: 0, ...(w.line !== undefined ? { line: w.line, column: w.column } : {}) },
    positioned: w.line !== undefined,
  }));
}

/**
 * A model named by a path through an archive file (`baseq3/pak0.pk3/models/x.md3`), read from the archive; null when
 * the path does not run through one.
 */
export async function archiveModel(input: string): Promise<Md2Model | Md3Model | Md5Mesh | null> {
  const place = await locateGameFolder(input);
  if (!place.archive) return null;
  const kind = kindFromName(place.path);
  if (kind !== 'md2' && kind !== 'md3' && kind !== 'md5mesh') throw badInput(input, `not a model this command reads from an archive (.md2, .md3, .md5mesh): ${place.path}`);
  return load(input, async () => {
    const archive = await openArchive(place.archive!);
    try {
      const file = await archive.file(place.path);
      if (!file) throw badInput(input, `${place.archive} holds no ${place.path}`);
      const bytes = await file.bytes();
      return kind === 'md2' ? parseMd2(bytes) : kind === 'md3' ? parseMd3(bytes) : parseMd5Mesh(bytes);
    } finally {
      await archive.close?.();
    }
  });
}

/**
 * Textures for `convert` and `inspect`, resolved as the model's engine does (its registration's `materials`):
 * - a model on disk, or named through an archive file (`baseq3/pak0.pk3/models/x.md3`): in its game folder found on
 *   disk (the nearest folder above it holding models/, scripts/, materials/ or textures/; an archive folder's
 *   parent; the folder of the archive the path runs through; or --game-dir), mounted in engine order;
 * - a model named `ARCHIVE:INNER`, and each model of `--all`: in that archive or game folder itself (its paths start
 *   at the game root).
 * Reported per surface: `name → image path`, or the warning that says why there is none.
 */
import { sep } from 'node:path';
import { resolveModelTextures, type ModelTextures, type TexturedModel } from '../textures.js';
import { resolveTexturesOnDisk, type GameFolderTextures, type FormatEntry } from '../node.js';
import { given, optionValue, UsageError, type OptionSpec, type ParsedArgs } from './args.js';
import { load, type ModelInput } from './inputs.js';
import { GAME_ARCHIVES } from './format-words.js';
import type { FileWarning } from './warnings.js';

export const TEXTURES = 'textures';


/** The options every textured command takes (convert: both outputs; inspect). */
export const TEXTURE_OPTIONS: OptionSpec[] = [
  { name: '--skin', value: 'NAME', group: TEXTURES, help: `Use <model>_NAME.skin beside the model (the formats whose engines read .skin files); a player folder: <part>_NAME.skin for each part (default: a player's _default skins, a model's own shader names).` },
  { name: '--game-dir', value: 'DIR', group: TEXTURES, help: `The game folder to resolve shaders, skins and images in (mounted with its ${GAME_ARCHIVES} files and .pk3dir/.dpkdir folders in engine order). Default: the nearest folder above the model holding models/, scripts/, materials/ or textures/.` },
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

export interface CliTextures {
  textures: ModelTextures;
  /** `textures from …:` and a line per surface. */
  report: string[];
  warnings: FileWarning[];
  /** The game folder, for `inspect`. */
  gameFolder: string;
}

/**
 * Resolves the textures of `model` (read from `input`; `path` is its file or folder there): a model set, or a bare
 * model with the registration that read it (`inspect`'s) — the format is never looked for again.
 */
export async function resolveCliTextures(input: ModelInput, model: TexturedModel, a: ParsedArgs, command: string, origin = input.label, registration?: FormatEntry): Promise<CliTextures> {
  const skin = optionValue(a, '--skin');
  if (input.archive?.form === 'colon') {
    if (given(a, '--game-dir')) throw new UsageError('--game-dir: a model inside an archive resolves its textures in that archive', command);
    const textures = await load(input.label, () => resolveModelTextures(input.fs, model, input.path, { skin, registration }));
    return { textures, report: [`textures from ${input.archive.archive}:`, ...surfaceLines(textures)], warnings: materialWarnings(origin, textures, originRoot(origin, input.path)), gameFolder: input.archive.archive };
  }
  const textures = await load(input.label, () => resolveTexturesOnDisk(input.label, model, { skin, registration, gameDir: optionValue(a, '--game-dir') }));
  return { textures, report: textureReport(textures), warnings: materialWarnings(input.label, textures, textures.place.gameDir + sep), gameFolder: textures.place.gameDir };
}

/** `textures from DIR (…)` then one line per surface. */
export function textureReport(t: GameFolderTextures): string[] {
  const how = t.place.how === 'found' ? 'found above the model' : t.place.how === 'given' ? '--game-dir' : "no game folder found: the model's own folder";
  return [`textures from ${t.place.gameDir} (${how})${t.place.archive ? `, model in ${t.place.archive}` : ''}:`, ...surfaceLines(t)];
}

/** One line per surface: `  part/surface: shader → image` (or `no image`). */
export function surfaceLines(t: ModelTextures): string[] {
  const lines: string[] = [];
  for (const m of t.materials) {
    const label = `${m.part ? `${m.part}/` : ''}${m.surface || `#${m.index}`}`;
    // an image named exactly as its shader (an MDL's skin, an implicit shader found with its extension) is said once
    const shader = m.shaderName && m.shaderName !== m.diffuse?.path ? `${m.shaderName} → ` : '';
    const image = m.diffuse?.path ? `${m.diffuse.path}${m.diffuse.embedded ? ' (carried by the model)' : t.images.has(m.diffuse.path) ? '' : ' (unreadable)'}` : m.diffuse?.builtin ? `engine image ${m.diffuse.builtin}` : 'no image';
    const normal = m.normal?.path ? `, normal map ${m.normal.path}` : '';
    lines.push(`  ${label}: ${shader}${image}${normal}`);
  }
  return lines;
}

/**
 * The resolver's warnings as the CLI prints them, each filed under the file it concerns: by its origin when it
 * exists (`pak0.pk3:models/x.skin`), else its path under `root` (where the model's paths start: `pak0.pk3:`, a game
 * folder), else the input.
 */
export function materialWarnings(input: string, t: Pick<ModelTextures, 'warnings'>, root: string): FileWarning[] {
  return t.warnings.map((w) => ({
    file: w.origin ?? (w.path ? root + w.path : input),
    warning: { code: w.code, message: w.message, offset: 0, ...(w.line !== undefined ? { line: w.line, column: w.column } : {}) },
    positioned: w.line !== undefined,
    ...(w.missing ? { missing: w.missing } : {}),
  }));
}

/** What comes before a path of the model's file system in its files' origins: `origin` less `path` (`pak0.pk3:` for `pak0.pk3:models/x.md3`). */
export function originRoot(origin: string, path: string): string {
  return path && origin.endsWith(path) ? origin.slice(0, origin.length - path.length) : `${origin}/`;
}

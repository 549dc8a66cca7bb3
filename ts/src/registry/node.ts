/**
 * Node: models and their textures from paths on disk, through the format registry. `openModelOnDisk` reads a model
 * file (with the files given to play on it) or a folder of a folder format (a Quake 3 player) as one model set;
 * `resolveTexturesOnDisk` finds the game folder above a model (`load/game-folder.ts`), mounts it in engine order and
 * resolves the model's textures there; `loadPlayer` does both for a player folder.
 */
import { mountGameDir, lazyFolderFileSystem } from '../vfs/node.js';
import type { Md3AnimationCfg, Md3Model, Md3PlayerData } from '../base/model.js';
import { GAME_FOLDER_MARKERS, locateGameFolder, looseModelRoot, type GameFolderPlace } from '../load/game-folder.js';
import { openModelSet, type ModelSet, type ModelSetOptions } from '../load/model-set.js';
import type { FormatEntry } from '../formats/entry.js';
import { DEFAULT_FORMATS } from './formats.js';
import { resolveModelTextures, type ModelTextures, type ResolveTexturesOptions, type TexturedModel } from './textures.js';

export interface DiskModelOptions extends Omit<ModelSetOptions, 'formats'> {
  formats?: readonly FormatEntry[];
}

/**
 * The model at `path` on disk — a model file, or a folder holding a folder format (a Quake 3 player) — with the
 * files `companions` names (paths on disk) played on it. Every failure names its file (`ModelParseError.file`).
 */
export async function openModelOnDisk(path: string, options: DiskModelOptions = {}): Promise<ModelSet> {
  // what the model's format reads beside it (an IQM's iqm.cfg) stays in the game folder it sits in
  const at = options.root === undefined ? await looseModelRoot(path) : { path, root: options.root };
  return openModelSet(lazyFolderFileSystem(''), at.path, { ...options, root: at.root, formats: options.formats ?? DEFAULT_FORMATS });
}

export interface GameFolderTextures extends ModelTextures {
  place: GameFolderPlace;
}

/**
 * Node: the textures of the model at `path` on disk (a player: its folder), resolved in its game folder
 * (`locateGameFolder`) mounted with `mountGameDir`. What `idtech-models convert` does before exporting.
 */
export async function resolveTexturesOnDisk(path: string, model: TexturedModel, options: ResolveTexturesOptions & { gameDir?: string } = {}): Promise<GameFolderTextures> {
  const place = await locateGameFolder(path, options.gameDir);
  const fs = await mountGameDir(place.gameDir, { signal: options.signal });
  try {
    const t = await resolveModelTextures(fs, model, place.path, options);
    const mountWarnings = fs.warnings.map((w) => ({ code: w.code, message: w.message }));
    if (place.how === 'fallback') mountWarnings.push({ code: 'NO_GAME_FOLDER', message: `${path}: no folder above it holds ${GAME_FOLDER_MARKERS.join('/, ')}/: resolved from the model's own folder (give --game-dir)` });
    return { ...t, warnings: [...mountWarnings, ...t.warnings], place };
  } finally {
    await fs.close();
  }
}

/** What `loadPlayer` returns: the parts and animation.cfg (as `Md3Player` and `toGlb` take them) and the resolved skin. */
export interface LoadedPlayer {
  lower: Md3Model;
  upper: Md3Model;
  head: Md3Model;
  /** animation.cfg, when the folder has one. */
  animationCfg: Md3AnimationCfg | undefined;
  /** The parts as `toGlb` / `new Md3Player(backend, models)` take them. */
  models: { lower: Md3Model; upper: Md3Model; head: Md3Model };
  animations: Md3AnimationCfg | undefined;
  /** Each part's surfaces resolved through `<part>_<skin>.skin` in the game folder, with the image bytes: `toGlb(player, { textures: materials })`. */
  materials: GameFolderTextures;
}

/**
 * A Quake 3 player folder (`models/players/NAME/`: lower.md3, upper.md3, head.md3, animation.cfg; names in any case)
 * with its skin resolved in the game folder above it (ioquake3 cg_players.c CG_RegisterClientModelname /
 * CG_RegisterClientSkin). A missing part throws ModelParseError READ_FAILED; a missing skin or image is a warning.
 */
export async function loadPlayer(dir: string, options: Omit<ResolveTexturesOptions, 'formats'> & { gameDir?: string; formats?: readonly FormatEntry[] } = {}): Promise<LoadedPlayer> {
  const set = await openModelOnDisk(dir.replace(/[\\/]+$/, ''), { signal: options.signal, formats: options.formats });
  if (set.format !== 'player') throw new TypeError(`${dir}: a ${set.format}, not a Quake 3 player folder`);
  const player = set.data as Md3PlayerData;
  const { lower, upper, head } = player.models;
  const models = { lower, upper, head };
  const materials = await resolveTexturesOnDisk(dir, models, options);
  return { lower, upper, head, animationCfg: player.animations, models, animations: player.animations, materials };
}

/**
 * Tremulous' two MD3 model sets besides the segmented player (docs/md3.md, "Tremulous"), as data: a non-segmented
 * player (an alien: one model, `nonseg.md3`, played by its folder's `nonsegmented` animation.cfg — cg_players.c
 * CG_RegisterClientModelname) and a buildable (cg_buildable.c CG_InitBuildables / CG_Buildable: up to three drawn
 * models from `configs/buildables/<name>.cfg`, models 1 and 2 placed on model 0's `tag_turret`, all playing the
 * BANIM_* frames of `models/buildables/<name>/animation.cfg`). Read by `tremulous-format.ts`; drawn by
 * `tremulous-view.ts`, exported by `gltf-tremulous.ts`, played by `tremulous-playable.ts`.
 */
import type { ParseWarning } from '../../base/errors.js';
import type { Md3Model } from '../../base/model.js';
import type { Md3AnimationCfg } from './animation-cfg.js';

/** One model of the set. */
export interface TremulousPart {
  /** What its objects are called after: `nonseg`; a buildable's `model0`…`model2`, or its file's base name without a config. */
  name: string;
  /** The model file, as stored. */
  path: string;
  /** Its path under the game's root as the buildable's config names it (`models/buildables/mgturret/turret_base.md3`); absent for a file of the folder. */
  gamePath?: string;
  model: Md3Model;
  /**
   * The part and tag it is placed on (a buildable's models 1 and 2: model 0's `tag_turret`). CG_Buildable takes the
   * tag's origin only (CG_PositionEntityOnTag / CG_PositionRotatedEntityOnTag, then the axes replaced by the turret's
   * aim): the part keeps the buildable's orientation.
   */
  on?: { part: string; tag: string };
}

/** What a buildable's `configs/buildables/<name>.cfg` says about drawing it (bg_misc.c BG_ParseBuildableFile). */
export interface BuildableConfig {
  /** `model 0..3 PATH` (index clamped to 0..3, as the game does); '' where none is given. */
  models: [string, string, string, string];
  /** `modelScale`: every model's axes scaled by it (a negative one is 0, as the game makes it). */
  modelScale: number;
  /** `zOffset`: the whole buildable moved along its up axis (the surface normal) by it, unscaled. */
  zOffset: number;
  mins: [number, number, number];
  maxs: [number, number, number];
  warnings: ParseWarning[];
}

export interface TremulousModel {
  /** The set's format id (what its registration `owns`): `nonseg` or `buildable`. */
  format: 'nonseg' | 'buildable';
  /** Parents before the parts placed on them. */
  parts: TremulousPart[];
  /** The animation.cfg (nonsegmented or buildable form); absent for a buildable folder without one. */
  animations?: Md3AnimationCfg;
  /** A buildable's config, when `configs/buildables/<name>.cfg` was found (`configPath`: that path, under the game's root). */
  config?: BuildableConfig;
  configPath?: string;
  /** The config's `modelScale` and `zOffset` (1 and 0 without a config). */
  scale: number;
  zOffset: number;
}

/** The game's root above `…/models/<…>/<folder>`: the path before its last `models` folder ('' at the root; the grandparent without one). */
export function gameRootOf(folder: string): string {
  const segments = folder.replace(/\/+$/, '').split('/');
  for (let i = segments.length - 2; i >= 0; i--) if (segments[i].toLowerCase() === 'models') return segments.slice(0, i).join('/');
  return segments.slice(0, Math.max(0, segments.length - 3)).join('/');
}

/** Where each part is in a file system whose path of the set's folder (or of one of its models) is `path`. */
export function tremulousPartPaths(data: TremulousModel, path: string): string[] {
  const folder = /\.md3$/i.test(path) ? path.slice(0, Math.max(0, path.lastIndexOf('/'))) : path.replace(/\/+$/, '');
  const root = gameRootOf(folder);
  return data.parts.map((p) => (p.gamePath ? (root ? `${root}/${p.gamePath}` : p.gamePath) : `${folder ? `${folder}/` : ''}${p.path.slice(p.path.lastIndexOf('/') + 1)}`));
}

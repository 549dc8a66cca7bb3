/**
 * The Quake 3 player as a folder format: `models/players/NAME/` holding lower.md3, upper.md3 and head.md3, read the
 * way ioquake3's cgame loads one (cg_players.c CG_RegisterClientModelname: the three parts, then `animation.cfg`;
 * names in any case, as the engine's archive lookups are). Here animation.cfg is optional (without it every part
 * plays all its frames), and a weapon.md3 lying in the folder hangs on upper's tag_weapon (the engine takes weapons
 * from models/weapons2/; a converted player keeps one with it).
 */
import { readingFile } from '../../base/errors.js';
import type { ReadOptions } from '../../base/source.js';
import { readScriptFile } from '../../vfs/bounded-read.js';
import type { FileWarnings, FolderForm, ModelFormat } from '../../load/format.js';
import type { Md3AnimationCfg } from './animation-cfg.js';
import { playerTagWarnings, type Md3PlayerData, type Md3PlayerModels } from './player-parts.js';

/** The three files a player folder must hold (lower case). */
export const PLAYER_PART_FILES = ['lower.md3', 'upper.md3', 'head.md3'] as const;
/** What a player folder may hold besides them. */
export const PLAYER_OPTIONAL_FILES = ['weapon.md3', 'animation.cfg'] as const;

const playerFolder: FolderForm<Md3PlayerData> = {
  describes: 'lower.md3, upper.md3 and head.md3 (animation.cfg and weapon.md3 optional)',
  noun: 'Quake 3 player folder',
  required: PLAYER_PART_FILES,
  optional: PLAYER_OPTIONAL_FILES,
  // Tremulous reads a player folder's animation.cfg first: nonseg.md3 with it is the non-segmented player's (tremulous-format.ts)
  matches: (children) => PLAYER_PART_FILES.every((n) => children.has(n)) && !(children.has('nonseg.md3') && children.has('animation.cfg')),
  files: (children) => [...PLAYER_PART_FILES, ...PLAYER_OPTIONAL_FILES].flatMap((n) => (children.has(n) ? [children.get(n)!] : [])),
  async load(children, _folder, options: ReadOptions = {}) {
    // the parsers on the first player read, as md3Format's
    const [{ parseMd3Stream }, { parseAnimationCfg }] = await Promise.all([import('./index.js'), import('./animation-cfg.js')]);
    const warnings: FileWarnings[] = [];
    const part = async (name: string) => {
      const f = children.get(name)!;
      const model = await readingFile(f.origin, () => parseMd3Stream(f.stream({ signal: options.signal }), { ...options, sizeHint: f.size }));
      warnings.push({ file: f.origin, warnings: model.warnings });
      return model;
    };
    const lower = await part('lower.md3');
    const upper = await part('upper.md3');
    const head = await part('head.md3');
    const weapon = children.has('weapon.md3') ? await part('weapon.md3') : undefined;
    let animations: Md3AnimationCfg | undefined;
    const cfg = children.get('animation.cfg');
    if (cfg) {
      animations = await readingFile(cfg.origin, async () => parseAnimationCfg(await readScriptFile(cfg))); // at most maxScriptBytes
      warnings.push({ file: cfg.origin, warnings: animations.warnings });
    }
    // A part without the tag the chain hangs the next part on still loads, as in ioquake3 (R_LerpTag's identity).
    const models: Md3PlayerModels = { lower, upper, head, ...(weapon ? { weapon } : {}) };
    // Filed under the part that lacks the tag, at no byte of it (the tag table is whole, just without that name).
    for (const w of playerTagWarnings(models)) warnings.push({ file: children.get(`${w.part}.md3`)!.origin, warnings: [w.warning], unpositioned: true });
    return { data: { models, ...(animations ? { animations } : {}) }, warnings };
  },
};

export const md3PlayerFormat: ModelFormat<Md3PlayerData> = {
  id: 'player',
  title: 'Quake 3 player (a folder of MD3 parts)',
  name: 'MD3',
  description: 'its lower, upper and head parts joined by tags, played by its animation.cfg',
  extensions: [],
  role: 'model',
  animation: 'vertex',
  folder: playerFolder,
  // ioquake3 cgame builds `models/players/%s/%s_%s.skin` from the part and the skin name
  skinNames: () => ['lower', 'upper', 'head'],
};

/**
 * What a Quake 3 player's parts and Tremulous' folder models can do without reading files (their `ModelEntry`s):
 * recognised by their data, exported to glTF (a player as one scene attached by tags), their skins and shaders found.
 * Plain object literals, so a bundler drops them where unused; ids and titles are the formats' (`player-format.ts`,
 * `tremulous-format.ts`; a test holds them equal). Apart from `md3Model` (model-entry.ts) so that an app exporting one
 * MD3 does not carry these exporters (the split build makes each `*model-entry*.ts` file a chunk of its own).
 */
import type { Md3Model } from '../../base/model.js';
import type { Md3PlayerData, Md3PlayerModels } from './player-parts.js';
import type { ModelEntry } from '../entry.js';
import type { MaterialSet } from '../../materials/resolver.js';
import { tremulousPartPaths, type TremulousModel } from './tremulous-parts.js';

/** A player as its data (`{ models, animations }`), or its three parts alone (`{ lower, upper, head }`, as `loadPlayer` gives them). */
export type PlayerLike = Md3PlayerData | { lower: Md3Model; upper: Md3Model; head: Md3Model };
const partsOf = (p: PlayerLike) => ('models' in p ? p.models : p);

export const playerModel: ModelEntry<PlayerLike> = {
  id: 'player',
  title: 'Quake 3 player (a folder of MD3 parts)',
  owns: (data): data is PlayerLike => typeof data === 'object' && data !== null && ('models' in data || ('lower' in data && 'upper' in data && 'head' in data)),
  skins: '<part>_NAME.skin for each part',
  // The parts by their skins; a weapon kept in the folder by its own shaders, as an MD3 beside them.
  async materials(resolver, player, folder, o) {
    const parts: Md3PlayerModels = partsOf(player);
    const set = await resolver.player(parts, folder, { skin: o.skin });
    const weapon = parts.weapon;
    if (!weapon) return set;
    const own = await resolver.md3(weapon, folder ? `${folder}/weapon.md3` : 'weapon.md3');
    return { materials: [...set.materials, ...own.materials.map((m) => ({ ...m, part: 'weapon' as const }))], warnings: [...set.warnings, ...own.warnings] };
  },
  gltf: {
    uses: ['fps', 'step', 'quantize'],
    load: async () => {
      const { addPlayer } = await import('./gltf-player.js');
      return (ctx, player, name, options) => addPlayer(ctx, 'models' in player ? player : { models: player }, name, options).rootNodes;
    },
  },
};

/**
 * Tremulous' model sets (`tremulous-parts.ts`), one entry per form: each part's surfaces by its own shaders, a
 * non-segmented player's through `nonseg_<skin>.skin` (cg_players.c CG_RegisterClientSkin; `default` unless a skin is
 * asked for, and the model's own shaders when the folder has no such skin, as for a buildable).
 */
function tremulousModel(id: 'nonseg' | 'buildable', title: string): ModelEntry<TremulousModel> {
  return {
    id,
    title,
    owns: (data): data is TremulousModel => (data as TremulousModel | null)?.format === id && Array.isArray((data as TremulousModel).parts),
    async materials(resolver, data, path, o) {
      const materials: MaterialSet['materials'] = [];
      const warnings: MaterialSet['warnings'] = [];
      const paths = tremulousPartPaths(data, path);
      for (const [i, p] of data.parts.entries()) {
        let set = await resolver.md3(p.model, paths[i], id === 'nonseg' ? { skin: o.skin ?? 'default' } : o.skin ? { skin: o.skin } : {});
        if (id === 'nonseg' && !o.skin && set.warnings.some((w) => w.code === 'SKIN_NOT_FOUND')) set = await resolver.md3(p.model, paths[i]);
        materials.push(...set.materials.map((m) => ({ ...m, part: p.name })));
        warnings.push(...set.warnings);
      }
      return { materials, warnings };
    },
    gltf: {
      uses: ['fps', 'step', 'quantize'],
      load: async () => {
        const { addTremulous } = await import('./gltf-tremulous.js');
        return (ctx, data, name, options) => addTremulous(ctx, data, name, options).rootNodes;
      },
    },
  };
}

export const nonsegModel: ModelEntry<TremulousModel> = /* @__PURE__ */ tremulousModel('nonseg', 'Tremulous non-segmented player (nonseg.md3 and its animation.cfg)');
export const buildableModel: ModelEntry<TremulousModel> = /* @__PURE__ */ tremulousModel('buildable', 'Tremulous buildable (its MD3s and animation.cfg)');

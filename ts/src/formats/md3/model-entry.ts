/**
 * What a parsed MD3, and a Quake 3 player's parts, can do without reading files (their `ModelEntry`s): recognised by
 * their data, exported to glTF (a player as one scene attached by tags), their skins and shaders found. Plain object
 * literals, so a bundler drops them where unused; ids and titles are the formats' (`formats/md3/format.ts`,
 * `player-format.ts`; a test holds them equal).
 */
import type { Md3Model } from '../../base/model.js';
import type { Md3PlayerData, Md3PlayerModels } from './player-parts.js';
import type { ModelEntry } from '../entry.js';

export const md3Model: ModelEntry<Md3Model> = {
  id: 'md3',
  title: 'Quake 3 model (MD3)',
  owns: (data): data is Md3Model => (data as Md3Model | null)?.format === 'md3',
  materials: (resolver, model, path, o) => resolver.md3(model, path, o.skin ? { skin: o.skin } : {}),
  skins: '<model>_NAME.skin beside it',
  gltf: {
    uses: ['clips', 'fps', 'step', 'quantize'],
    load: async () => {
      const { addMd3 } = await import('./gltf.js');
      return (ctx, model, name, options) => addMd3(ctx, model, name, options).rootNodes;
    },
  },
};

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

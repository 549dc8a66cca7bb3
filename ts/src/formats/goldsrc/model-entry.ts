/**
 * What a parsed studio model can do without reading files (its `ModelEntry`): recognised by its data, exported to
 * glTF (a skinned mesh, one animation per sequence; its texture and group files handed in as `options.anims`, as the
 * registration's `gltfOptions` does), its textures decoded through their own palettes. A plain object literal, so a
 * bundler drops it where unused; its id and title are the format's (`formats/goldsrc/format.ts`).
 */
import type { ModelEntry } from '../entry.js';
import type { GoldsrcModel } from './model.js';

export const goldsrcModel: ModelEntry<GoldsrcModel> = {
  id: 'hl1mdl',
  title: 'Half-Life studio model (GoldSrc MDL)',
  owns: (data): data is GoldsrcModel => (data as GoldsrcModel | null)?.format === 'hl1mdl',
  // its own textures, else its <name>T.mdl's, each decoded through its palette
  // in the skin family a skin choice names (`family1`: the view offers them as skins), for the meshes `body` draws
  materials: async (resolver, model, path, options) => (await import('./materials.js')).resolveGoldsrcMaterials(resolver.fs, model, path, options?.skin, options?.body),
  gltf: {
    uses: [],
    load: async () => {
      const { addGoldsrc } = await import('./gltf.js');
      return (ctx, model, name, options) => addGoldsrc(ctx, model, name, (options.anims ?? []) as readonly unknown[]).rootNodes;
    },
  },
};

/**
 * What a parsed MDS can do without reading files (its `ModelEntry`): recognised by its data, exported to glTF (a
 * skinned mesh bound in frame 0, one animation of every frame, tags as nodes on their bones), its materials found
 * through a `.skin` or the surfaces' shader names. A plain object literal, so a bundler drops it where unused.
 */
import type { ModelEntry } from '../entry.js';
import type { MdsModel } from './model.js';

export const mdsModel: ModelEntry<MdsModel> = {
  id: 'mds',
  title: 'Return to Castle Wolfenstein skeletal model (MDS)',
  owns: (data): data is MdsModel => (data as MdsModel | null)?.format === 'mds',
  skins: '<model>_NAME.skin beside it',
  materials: async (resolver, model, path, o) => (await import('./materials.js')).resolveWolfMaterials(resolver, model.surfaces, path, o.skin),
  gltf: {
    uses: [],
    load: async () => {
      const { addWolf } = await import('../../export/gltf-wolf.js');
      return (ctx, model, name) => addWolf(ctx, { skeleton: model, surfaces: model.surfaces, tags: model.tags }, name, { lodScale: model.lodScale, lodBias: model.lodBias }).rootNodes;
    },
  },
};

/**
 * What a parsed MD3 can do without reading files (its `ModelEntry`): recognised by its data, exported to glTF, its
 * skins and shaders found. A plain object literal, so a bundler drops it where unused; id and title are the format's
 * (`formats/md3/format.ts`; a test holds them equal). The folder formats' entries (players, Tremulous) are in
 * folder-model-entries.ts: an app exporting one MD3 does not carry their exporters.
 */
import type { Md3Model } from '../../base/model.js';
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
      const { addMd3 } = await import('../../export/gltf-md3.js');
      return (ctx, model, name, options) => addMd3(ctx, model, name, options).rootNodes;
    },
  },
};

/**
 * What a parsed MD2 can do without reading files (its `ModelEntry`): recognised by its data, exported to glTF (morph
 * targets from the MD2 kernels' decoded frames), its skin found. A plain object literal, so a bundler drops it
 * where unused; its id and title are the format's (`formats/md2/format.ts`; a test holds them equal).
 */
import type { Md2Model } from '../../base/model.js';
import type { ModelEntry } from '../entry.js';

export const md2Model: ModelEntry<Md2Model> = {
  id: 'md2',
  title: 'Quake 2 model (MD2)',
  owns: (data): data is Md2Model => (data as Md2Model | null)?.format === 'md2',
  materials: (resolver, model, path) => resolver.md2(model, path),
  gltf: {
    uses: ['clips', 'fps', 'step', 'frameNodes', 'md2Grid', 'quantize'],
    load: async () => {
      const { addMd2 } = await import('./gltf.js');
      return (ctx, model, name, options) => addMd2(ctx, model, name, options).rootNodes;
    },
  },
};

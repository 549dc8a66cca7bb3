/**
 * What a parsed MDL can do without reading files (its `ModelEntry`): recognised by its data, exported to glTF (morph
 * targets from MD2's blend kernel, the skins it carries), the skin it shows found (decoded through the game's palette,
 * replacement skins first: formats/mdl/materials.ts). A plain object literal, so a bundler drops it where unused; its id and
 * title are the format's (`formats/mdl/format.ts`; a test holds them equal).
 */
import type { MdlModel } from '../../base/model.js';
import type { ModelEntry } from '../entry.js';


export const mdlModel: ModelEntry<MdlModel> = {
  id: 'mdl',
  title: 'Quake model (MDL)',
  owns: (data): data is MdlModel => (data as MdlModel | null)?.format === 'mdl',
  skins: 'the skin record NAME the file carries (skin0, skin1 …)',
  materials: async (resolver, model, path, options) => (await import('./materials.js')).shownSkin(resolver.fs, model, path, options.skin),
  gltf: {
    uses: ['clips', 'fps', 'step', 'frameNodes', 'quantize'],
    load: async () => {
      const { addMdl } = await import('./gltf.js');
      return (ctx, model, name, options) => addMdl(ctx, model, name, options).rootNodes;
    },
  },
};

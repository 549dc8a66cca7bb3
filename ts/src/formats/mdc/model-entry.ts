/**
 * What a parsed MDC can do without reading files (its `ModelEntry`): recognised by its data, exported to glTF as the
 * MD3 it decodes to (`to-md3.ts`: every frame a morph target, tags as nodes), its skins and shaders found as an
 * MD3's. A plain object literal, so a bundler drops it where unused.
 */
import type { ModelEntry } from '../entry.js';
import type { MdcModel } from './model.js';

export const mdcModel: ModelEntry<MdcModel> = {
  id: 'mdc',
  title: 'RTCW/ET compressed model (MDC)',
  owns: (data): data is MdcModel => (data as MdcModel | null)?.format === 'mdc',
  materials: async (resolver, model, path, o) => resolver.md3((await import('./to-md3.js')).mdcToMd3(model), path, o.skin ? { skin: o.skin } : {}),
  skins: '<model>_NAME.skin beside it',
  gltf: {
    uses: ['clips', 'fps', 'step', 'quantize'],
    load: async () => {
      const [{ addMd3 }, { mdcToMd3 }] = await Promise.all([import('../../export/gltf-md3.js'), import('./to-md3.js')]);
      return (ctx, model, name, options) => addMd3(ctx, mdcToMd3(model), name, options).rootNodes;
    },
  },
};

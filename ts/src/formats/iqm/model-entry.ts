/**
 * What a parsed IQM can do without reading files (its `ModelEntry`): recognised by its data, exported to glTF (a
 * skinned mesh, its animation files as `options.anims`), its materials found (iqm.cfg, a `.skin`, shader names). A
 * plain object literal, so a bundler drops it where unused; its id and title are the format's
 * (`formats/iqm/format.ts`; a test holds them equal).
 */
import type { IqmModel } from '../../base/model.js';
import type { NamedIqmAnimation } from './gltf.js';
import type { ModelEntry } from '../entry.js';
import type { FileSystem } from '../../vfs/file-system.js';

/** The Cubescript reader, loaded when a model has a config (a chunk of its own: the front door stays small). */
export const readIqmConfigLater = async (fs: FileSystem, path: string) => (await import('./iqm-cfg.js')).readIqmConfig(fs, path);

export const iqmModel: ModelEntry<IqmModel> = {
  id: 'iqm',
  title: 'Inter-Quake Model (IQM)',
  owns: (data): data is IqmModel => (data as IqmModel | null)?.format === 'iqm',
  skins: '<model>_NAME.skin beside it',
  materials: (resolver, model, path, o) => resolver.iqm(model, path, { ...(o.skin ? { skin: o.skin } : {}), readConfig: readIqmConfigLater }),
  gltf: {
    uses: [],
    load: async () => {
      const { addIqm } = await import('./gltf.js');
      return (ctx, model, name, options) => addIqm(ctx, model, name, (options.anims ?? []) as unknown as NamedIqmAnimation[]).rootNodes;
    },
  },
};

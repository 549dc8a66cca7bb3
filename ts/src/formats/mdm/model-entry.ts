/**
 * What a parsed MDM or MDX can do without reading files: recognised by its data; an MDM exported to glTF with the MDX
 * handed in as `options.anims` (as the registration's `gltfOptions` does), its materials found as MD3's.
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import type { ModelEntry } from '../entry.js';
import type { MdmModel, MdxModel } from './model.js';
import { mdxOf, pairDrawable } from './pairing.js';

export const mdmModel: ModelEntry<MdmModel> = {
  id: 'mdm',
  title: 'Enemy Territory skeletal mesh (MDM)',
  owns: (data): data is MdmModel => (data as MdmModel | null)?.format === 'mdm',
  skins: '<model>_NAME.skin beside it',
  materials: async (resolver, model, path, o) => (await import('./materials.js')).resolveMdmMaterials(resolver, model.surfaces, path, o.skin),
  gltf: {
    uses: [],
    load: async () => {
      const { addWolf } = await import('../../export/gltf-wolf.js');
      return (ctx, model, name, options) => {
        const mdx = mdxOf(((options.anims ?? []) as unknown[]).map((data) => ({ data })));
        if (!mdx) throw new ModelParseError(ErrorCode.MissingBlock, 'an .mdm is drawn only through its skeleton: give its .mdx', { offset: 0 });
        return addWolf(ctx, pairDrawable(model, mdx), name, { lodScale: model.lodScale, lodBias: model.lodBias, skeleton: mdx.name }).rootNodes;
      };
    },
  },
};

export const mdxModel: ModelEntry<MdxModel> = {
  id: 'mdx',
  title: 'Enemy Territory skeleton (MDX)',
  owns: (data): data is MdxModel => (data as MdxModel | null)?.format === 'mdx',
};

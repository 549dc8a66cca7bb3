/**
 * What a parsed MDL can do without reading files (its `ModelEntry`): recognised by its data, exported to glTF (morph
 * targets from MD2's blend kernel, the skins it carries), the skin it shows found (decoded through the game's palette,
 * replacement skins first: formats/mdl/materials.ts). A plain object literal, so a bundler drops it where unused; its id and
 * title are the format's (`formats/mdl/format.ts`; a test holds them equal).
 */
import type { MdlModel } from '../../base/model.js';
import { addMdl } from './gltf.js';
import { mdlSkinNames, resolveMdlMaterials } from './materials.js';
import type { MaterialResolver, MaterialSet } from '../../materials/resolver.js';
import type { ModelEntry } from '../entry.js';

/**
 * The skin a drawing shows: record `skinN` of the file (the names the view's `extras.skins` offers; `--skin skin1`),
 * record 0 when none is asked for — as the engine draws `self.skin`, 0 unless QuakeC sets it. Its material comes
 * at index 0, the view's one group; the glTF exporter's `mdlSkin` picks among the carried skins when no textures are
 * handed in.
 */
async function shownSkin(fs: MaterialResolver['fs'], model: MdlModel, path: string, skin: string | undefined): Promise<MaterialSet> {
  const set = await resolveMdlMaterials(fs, model, path);
  const names = mdlSkinNames(model);
  let record = skin === undefined ? 0 : names.indexOf(skin);
  if (record < 0) {
    set.warnings.push({ code: 'SKIN_NOT_FOUND', message: `skin ${skin}: the model carries ${names.length ? names.join(', ') : 'no skin'}; showing ${names[0] ?? 'none'}`, path });
    record = 0;
  }
  const shown = set.materials.filter((m) => m.index === record).map((m) => ({ ...m, index: 0 }));
  const used = new Set(shown.flatMap((m) => [m.diffuse?.path, m.emissive?.path]));
  const pixels = new Map([...set.pixels].filter(([key]) => used.has(key)));
  return { materials: shown, warnings: set.warnings, pixels };
}

export const mdlModel: ModelEntry<MdlModel> = {
  id: 'mdl',
  title: 'Quake model (MDL)',
  owns: (data): data is MdlModel => (data as MdlModel | null)?.format === 'mdl',
  materials: (resolver, model, path, options) => shownSkin(resolver.fs, model, path, options.skin),
  gltf: {
    uses: ['clips', 'fps', 'step', 'frameNodes', 'quantize'],
    add: (ctx, model, name, options) => addMdl(ctx, model, name, options).rootNodes,
  },
};

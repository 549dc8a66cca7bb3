/**
 * What parsed MD5 data can do without reading files (its `ModelEntry`s): an md5mesh is recognised, exported to glTF
 * (a skinned mesh, its md5anims as `options.anims`) and its materials found (`.mtr`, Cube's `md5.cfg`); an md5anim
 * and a camera path are only recognised. Plain object literals, so a bundler drops them where unused; ids and titles
 * are the formats' (`formats/md5/format.ts`; a test holds them equal).
 */
import type { Md5Anim, Md5Mesh } from '../../base/model.js';
import type { ModelEntry } from '../entry.js';

export const md5MeshModel: ModelEntry<Md5Mesh> = {
  id: 'md5mesh',
  title: 'Doom 3 mesh (md5mesh)',
  owns: (data): data is Md5Mesh => (data as Md5Mesh | null)?.format === 'md5mesh',
  materials: (resolver, mesh, path) => resolver.md5(mesh, path),
  gltf: {
    uses: [],
    load: async () => {
      const { addMd5 } = await import('./gltf.js');
      return (ctx, mesh, _name, options, result) => {
        const list = (options.anims ?? []).map((a, i) => ('anim' in a ? a : { name: `anim${i}`, anim: a }));
        const out = addMd5(ctx, mesh, list);
        result.md5 = out.stats;
        return out.rootNodes;
      };
    },
  },
};

export const md5AnimModel: ModelEntry<Md5Anim> = {
  id: 'md5anim',
  title: 'Doom 3 animation (md5anim)',
  owns: (data): data is Md5Anim => (data as Md5Anim | null)?.format === 'md5anim',
};

export const md5CameraModel: ModelEntry<unknown> = {
  id: 'md5camera',
  title: 'Doom 3 camera path (md5camera)',
  owns: (_data): _data is unknown => false,
};

/**
 * MDL registered at test time, from the room's plain functions only (the package's own registration, `registry/`,
 * is the lead's): what lets the tests reach MDL through the registry's doors — `toGlb(model, { formats })`,
 * `resolveModelTextures(fs, model, path, { formats })` — as the registered format will be reached.
 */
import type { MdlModel } from '../../src/base/model.js';
import { addMdl } from '../../src/export/gltf-mdl.js';
import { mdlToObj } from '../../src/export/obj-mdl.js';
import { mdlFormat } from '../../src/formats/mdl/format.js';
import { resolveMdlMaterials } from '../../src/materials/mdl.js';
import { mdlPlayable } from '../../src/playable/mdl-playable.js';
import { mdlView } from '../../src/registry/mdl-view.js';
import { MdlPoser } from '../../src/pose/mdl-poser.js';
import type { FormatEntry } from '../../src/registry/entry.js';
import { DEFAULT_FORMATS } from '../../src/registry/formats.js';
import { toGlb } from '../../src/registry/gltf.js';
import { resolveModelTextures } from '../../src/registry/textures.js';
import type { GltfOptions } from '../../src/export/gltf.js';
import type { FileSystem } from '../../src/vfs/file-system.js';

const fileName = (path: string) => path.slice(path.replace(/\\/g, '/').lastIndexOf('/') + 1);

export const mdlTestEntry: FormatEntry<MdlModel> = {
  ...mdlFormat,
  owns: (data): data is MdlModel => (data as MdlModel | null)?.format === 'mdl',
  materials: (resolver, model, path) => resolveMdlMaterials(resolver.fs, model, path),
  playable: async (set) => mdlPlayable(set.data, fileName(set.path)),
  view: async (set, backend) => mdlView(set.data, backend),
  gltf: {
    uses: ['clips', 'fps', 'step', 'frameNodes', 'quantize'],
    add: (ctx, model, name, options) => addMdl(ctx, model, name, options).rootNodes,
  },
  obj: {
    frames: (set) => ({ count: set.data.poseCount, of: set.path }),
    async write(set, o) {
      const frame = o.frame ?? 0;
      const poser = new MdlPoser(o.backend, set.data).poseFrame(frame);
      try {
        const text = mdlToObj(set.data, { positions: poser.positions, normals: poser.normals, yUp: o.yUp, comment: o.comment(`${set.path} pose ${frame}`), materials: o.materials });
        return { text, facts: ['1 mesh', `${set.data.vertexCount} vertices`, `pose ${frame}`] };
      } finally {
        poser.dispose();
      }
    },
  },
};

/** The package's formats with MDL: what the tests hand the registry's functions as `formats`. */
export const MDL_FORMATS: readonly FormatEntry[] = [...DEFAULT_FORMATS, mdlTestEntry];

/** `toGlb` of an MDL through the registry (MdlModel is not among the package's registered models' types yet). */
export const mdlGlb = (model: MdlModel, options: GltfOptions = {}): Uint8Array => toGlb(model as never, { ...options, formats: MDL_FORMATS });

/** `resolveModelTextures` of an MDL through the registry. */
export const mdlTextures = (fs: FileSystem, model: MdlModel, path: string) => resolveModelTextures(fs, model as never, path, { formats: MDL_FORMATS });

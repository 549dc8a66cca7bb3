/**
 * RTCW/ET's MDC registered (docs/mdc.md): read, inspected field by field, then decoded once into the MD3 data shape
 * (`to-md3.ts`), so it is posed by the MD3 poser and kernels, exported, played and drawn exactly as an MD3 is, through
 * what the floors below share for that shape (export/gltf-md3.ts, export/obj-md3.ts, playable/md3-playable.ts, the
 * formats floor's md3-view.ts): never the md3/ room itself. The format's room is imported when a file is first read.
 */
import type { ModelSet } from '../../load/model-set.js';
import { formatEntry } from '../entry.js';
import { mdcFormat } from './format.js';
import { mdcModel } from './model-entry.js';
import type { MdcModel } from './model.js';

const asMd3 = async (set: ModelSet<MdcModel>) => {
  const { mdcToMd3 } = await import('./to-md3.js');
  return { ...set, data: mdcToMd3(set.data) };
};

export const mdcEntry = /* @__PURE__ */ formatEntry(mdcFormat, mdcModel, {
  async inspect(source, options) {
    const { parseMdcStream } = await import('./parser.js');
    const { mdcSummary } = await import('./summary.js');
    const model = await parseMdcStream(source, options);
    return { summary: mdcSummary(model), materialsOf: model };
  },
  playable: async (set) => {
    const { md3Playable } = await import('../../playable/md3-playable.js');
    const p = md3Playable((await asMd3(set)).data);
    return { ...p, format: 'mdc', summary: p.summary.replace(/^MD3/, 'MDC') };
  },
  async view(set, backend) {
    const { md3View, md3Clips } = await import('../md3-view.js');
    const m = (await asMd3(set)).data;
    return md3View(m, backend, md3Clips(m));
  },
  obj: {
    frames: (set) => ({ count: set.data.frameCount, of: set.path }),
    write: async (set, o) => (await import('../../export/obj-md3.js')).md3ObjFrame((await asMd3(set)).data, set.path, o),
  },
});

export type { MdcModel };

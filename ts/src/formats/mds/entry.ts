/**
 * RtCW's skeletal model registered (docs/mds.md): read as a stream, inspected table by table, posed as the renderer
 * poses it (pose/wolf-skeleton.ts composes the bones, the skinning kernels skin the weights on either backend),
 * exported to glTF and OBJ, played and viewed. The format's room is imported when a file is first read.
 */
import { formatEntry } from '../entry.js';
import { mdsFormat } from './format.js';
import { mdsModel } from './model-entry.js';
import type { MdsModel } from './model.js';

const drawable = (m: MdsModel) => ({ skeleton: m, surfaces: m.surfaces, tags: m.tags });

export const mdsEntry = /* @__PURE__ */ formatEntry(mdsFormat, mdsModel, {
  // bounded by its header's counts, each checked against ofsEnd before anything is allocated
  async inspect(source, options) {
    const { parseMdsStream } = await import('./parser.js');
    const { mdsSummary } = await import('./summary.js');
    const model = await parseMdsStream(source, options);
    return { summary: mdsSummary(model), materialsOf: model };
  },
  playable: async (set) => {
    const m = set.data;
    const V = m.surfaces.reduce((n, s) => n + s.vertexCount, 0), T = m.surfaces.reduce((n, s) => n + s.triangles.length / 3, 0);
    return (await import('../../playable/wolf-playable.js')).wolfPlayable(drawable(m), set.format, m, `RtCW MDS: ${m.bones.length} bones, ${m.surfaces.length} surfaces, ${V} vertices, ${T} triangles, ${m.frames.length} frames`);
  },
  view: async (set, backend) => (await import('../wolf-view.js')).wolfView(drawable(set.data), backend),
  obj: {
    frames: (set) => ({ count: set.data.frames.length, of: set.path }),
    write: async (set, o) => (await import('../../export/obj-wolf.js')).writeWolfObj(drawable(set.data), set.path, o),
  },
});

export type { MdsModel };

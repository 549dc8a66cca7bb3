/**
 * ET's skeletal mesh and skeleton registered (docs/mds.md): an MDM opened with the MDX beside it (or given) is one
 * model set, posed, exported, played and viewed as an MDS is (pose/wolf-bind.ts and the doors beside it); an MDX alone
 * is inspected, and names the meshes that play it.
 */
import { ErrorCode, ModelParseError } from '../../base/errors.js';
import type { ModelSet } from '../../load/model-set.js';
import { formatEntry } from '../entry.js';
import { mdmFormat, mdxFormat } from './format.js';
import { mdmModel, mdxModel } from './model-entry.js';
import type { MdmModel } from './model.js';
import { mdxOf, pairDrawable } from './pairing.js';

function pairOf(set: ModelSet<MdmModel>) {
  const mdx = mdxOf(set.companions);
  if (!mdx) throw new ModelParseError(ErrorCode.MissingBlock, `${set.path} is drawn only through its skeleton: no .mdx beside it with its name, and none given`, { offset: 0 });
  return { mdx, drawable: pairDrawable(set.data, mdx) };
}

export const mdmEntry = /* @__PURE__ */ formatEntry(mdmFormat, mdmModel, {
  async inspect(source, options) {
    const { parseMdmStream } = await import('./parser.js');
    const { mdmSummary } = await import('./summary.js');
    const model = await parseMdmStream(source, options);
    return { summary: mdmSummary(model), materialsOf: model };
  },
  async inspectSet(set) {
    const { mdmSummary } = await import('./summary.js');
    return { summary: mdmSummary(set.data, mdxOf(set.companions)), materialsOf: set.data };
  },
  gltfOptions: (set, options) => ({ ...options, anims: set.companions.map((c) => c.data) as never }),
  playable: async (set) => {
    const { mdx, drawable } = pairOf(set);
    const m = set.data;
    const V = m.surfaces.reduce((n, s) => n + s.vertexCount, 0), T = m.surfaces.reduce((n, s) => n + s.triangles.length / 3, 0);
    return (await import('../../playable/wolf-playable.js')).wolfPlayable(drawable, set.format, m, `ET MDM+MDX: ${mdx.bones.length} bones, ${m.surfaces.length} surfaces, ${V} vertices, ${T} triangles, ${mdx.frames.length} frames`);
  },
  view: async (set, backend) => (await import('../wolf-view.js')).wolfView(pairOf(set).drawable, backend),
  obj: {
    frames: (set) => ({ count: pairOf(set).mdx.frames.length, of: set.companions.find((c) => mdxOf([c]))?.path ?? set.path }),
    write: async (set, o) => (await import('../../export/obj-wolf.js')).writeWolfObj(pairOf(set).drawable, set.path, o),
  },
});

export const mdxEntry = /* @__PURE__ */ formatEntry(mdxFormat, mdxModel, {
  async inspect(source, options) {
    const { parseMdxStream } = await import('./parser.js');
    const { mdxSummary } = await import('./summary.js');
    return { summary: mdxSummary(await parseMdxStream(source, options)) };
  },
});

export type { MdmModel };

/**
 * Half-Life's studio model registered (docs/goldsrc.md): read with its texture and sequence group files, inspected
 * table by table, posed as the engine poses it (anim.ts decodes the run-length channels, the skeleton kernels
 * compose and skin on either backend: poser.ts), exported to glTF and OBJ. The format's room is imported when a
 * file is first read, as for MD3 (formats/md3/entry.ts).
 */
import type { GltfOptions } from '../../export/gltf.js';
import { formatEntry } from '../entry.js';
import { goldsrcParts } from './companions.js';
import { goldsrcFormat } from './format.js';
import { goldsrcModel } from './model-entry.js';
import type { GoldsrcModel } from './model.js';

export const goldsrcEntry = /* @__PURE__ */ formatEntry(goldsrcFormat, goldsrcModel, {
  // bounded by its header's counts, each checked against the file's length before anything is allocated
  async inspect(source, options) {
    const { parseGoldsrcStream } = await import('./index.js');
    const { goldsrcSummary } = await import('./summary.js');
    const model = await parseGoldsrcStream(source, options);
    return { summary: goldsrcSummary(model), ...(model.kind === 'studio' ? { materialsOf: model } : {}) };
  },
  // the texture and group files the set read go to the exporter with the model
  gltfOptions: (set, options) => ({ ...options, anims: [{ goldsrc: true, ...goldsrcParts(set.data, set.companions, set.path) }] as unknown as GltfOptions['anims'] }),
  playable: async (set) => (await import('./playable.js')).goldsrcPlayable(set),
  view: async (set, backend, settings) => (await import('./view.js')).goldsrcView(set, backend, settings),
  obj: {
    // --anim names a sequence of the model (its label or number); --frame a frame of it (of the first without --anim)
    namesClips: true,
    // --controller N=V and --blend X[,Y]: the entity's controllers and blending (controls.ts)
    controls: true,
    frames: (set, anim) => {
      const m = set.data;
      let i = anim === undefined ? 0 : m.sequences.findIndex((s) => s.label.toLowerCase() === anim.toLowerCase());
      if (i < 0 && anim !== undefined && /^\d+$/.test(anim)) i = Number(anim);
      const seq = m.sequences[i];
      // a name that is none is refused by the writer, which lists the sequences
      if (!seq) return anim === undefined ? null : { count: Number.MAX_SAFE_INTEGER, of: `sequence ${JSON.stringify(anim)}` };
      return { count: seq.frameCount, of: `${set.path} sequence ${JSON.stringify(seq.label)}` };
    },
    write: async (set, o) => (await import('./obj-frame.js')).writeGoldsrcObj(set, o),
  },
});

export type { GoldsrcModel };

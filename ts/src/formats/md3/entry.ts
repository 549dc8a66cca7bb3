/**
 * MD3's registrations: a lone MD3 (frames kept quantised, blended by the MD3 kernels: `Md3Poser`; one surface per
 * part) and the Quake 3 player folder (its parts chained by tags: `Md3Player`, animated by its animation.cfg). The
 * format's room (its parser and header reader) is imported when a file is first read, so a command that loads the
 * list of formats does not load every parser (docs/benchmarks.md, the CLI's start).
 */
import type { Md3Model } from '../../base/model.js';
import { md3Format } from './format.js';
import { md3PlayerFormat } from './player-format.js';
import type { Md3PlayerData } from './player-parts.js';
import { fileHead } from '../../vfs/file-system.js';
import type { ModelFormat } from '../../load/format.js';
import { formatEntry, plainWarnings, type Summary } from '../entry.js';
import { md3Model } from './model-entry.js';
import { buildableModel, nonsegModel, playerModel, type PlayerLike } from './folder-model-entries.js';
import { buildableFormat, nonsegFormat } from './tremulous-format.js';
import type { TremulousModel } from './tremulous-parts.js';
import type { ModelSet } from '../../load/model-set.js';
import type { PoseBackend } from '../../kernels/backend.js';

/** What `inspect` prints for an MD3. */
export function md3Summary(m: Md3Model): Summary {
  let vertices = 0, triangles = 0;
  for (const s of m.surfaces) {
    vertices += s.vertexCount;
    triangles += s.triangleCount;
  }
  return {
    format: 'md3',
    version: m.version,
    name: m.name,
    frames: m.frameCount,
    surfaces: m.surfaces.length,
    vertices,
    triangles,
    tags: m.tagNames,
    frameNames: [...new Set(m.frameNames)].slice(0, 16),
    shaders: m.surfaces.flatMap((s) => s.shaders.map((sh) => sh.name)),
    perSurface: m.surfaces.map((s) => ({ name: s.name, vertices: s.vertexCount, triangles: s.triangleCount, shader: s.shaders[0]?.name ?? '' })),
    warnings: plainWarnings(m.warnings),
  };
}


export const md3Entry = /* @__PURE__ */ formatEntry(md3Format, md3Model, {
  async inspect(source, options) {
    const { parseMd3Stream } = await import('./index.js');
    const model = await parseMd3Stream(source, options);
    return { summary: md3Summary(model), materialsOf: model };
  },
  async headerFrames(file) {
    const { readMd3Header, MD3_HEADER_BYTES } = await import('./index.js');
    const b = await fileHead(file, MD3_HEADER_BYTES);
    return readMd3Header(b, b.length).numFrames;
  },
  playable: async (set) => (await import('../../playable/md3-playable.js')).md3Playable(set.data),
  async view(set, backend) {
    const { md3View, md3Clips } = await import('../md3-view.js');
    return md3View(set.data, backend, md3Clips(set.data));
  },
  obj: {
    frames: (set) => ({ count: set.data.frameCount, of: set.path }),
    write: async (set, o) => (await import('./obj.js')).writeObjFrame(set, o),
  },
  writer: {
    extensions: ['.md3'],
    defaultFps: 15,
    fromGltf: async (gltf, options) => (await import('./writer.js')).md3FromGltf(gltf, options),
    model: async (gltf, options) => (await import('./writer.js')).md3ModelFromGltf(gltf, options),
  },
});

const playerFormat = md3PlayerFormat as ModelFormat<PlayerLike>;

export const playerEntry = /* @__PURE__ */ formatEntry(playerFormat, playerModel, {
  inspectSet: async (set) => ({ summary: (await import('./tremulous-summary.js')).playerSummary(set as ModelSet<Md3PlayerData>), materialsOf: set.data }),
  playable: async (set) => (await import('./player-playable.js')).playerPlayable(set.data as Md3PlayerData),
  view: async (set, backend) => (await import('./player-view.js')).playerView('models' in set.data ? set.data : { models: set.data }, backend),
  writer: {
    extensions: [],
    folderFlag: {
      name: '--player',
      help: "IN holds a Quake 3 player (nodes lower, upper, head, as convert writes one): write OUTDIR/lower.md3, upper.md3, head.md3 and animation.cfg, -o naming OUTDIR. Animations named as Quake 3's (LEGS_WALK, TORSO_STAND, BOTH_DEATH1…) fill their slots; others take the free slots in order. Without --fps each is sampled at its own key rate.",
    },
    fromGltf: async (gltf, options) => (await import('./writer.js')).playerFromGltf(gltf, options),
  },
});

/** Tremulous' non-segmented player and buildable (`tremulous-format.ts`): model sets drawn, played and exported as the cgame draws them. */
const tremulousCapabilities = {
  inspectSet: async (set: ModelSet<TremulousModel>) => ({ summary: (await import('./tremulous-summary.js')).tremulousSummary(set), materialsOf: set.data }),
  playable: async (set: ModelSet<TremulousModel>) => (await import('./tremulous-playable.js')).tremulousPlayable(set.data),
  view: async (set: ModelSet<TremulousModel>, backend: PoseBackend) => (await import('./tremulous-view.js')).tremulousView(set.data, backend),
};

export const nonsegEntry = /* @__PURE__ */ formatEntry(nonsegFormat, nonsegModel, tremulousCapabilities);
export const buildableEntry = /* @__PURE__ */ formatEntry(buildableFormat, buildableModel, tremulousCapabilities);

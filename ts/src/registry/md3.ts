/**
 * MD3's registrations: a lone MD3 (frames kept quantised, blended by the MD3 kernels: `Md3Poser`; one surface per
 * part) and the Quake 3 player folder (its parts chained by tags: `Md3Player`, animated by its animation.cfg).
 */
import type { Md3Model } from '../base/model.js';
import { addMd3 } from '../export/gltf-md3.js';
import { addPlayer } from '../export/gltf-player.js';
import { md3Format } from '../formats/md3/format.js';
import { readMd3Header } from '../formats/md3/header.js';
import { HEADER_BYTES } from '../formats/md3/layout.js';
import { md3PlayerFormat } from '../formats/md3/player-format.js';
import type { Md3PlayerData, Md3PlayerModels } from '../formats/md3/player-parts.js';
import { parseMd3Stream } from '../formats/md3/stream.js';
import { fileHead } from '../vfs/file-system.js';
import { md3ToObj } from '../export/obj-morph.js';
import { Md3Poser } from '../pose/md3-poser.js';
import { md3Playable } from '../playable/morph-playable.js';
import { playerPlayable } from '../playable/player-playable.js';
import type { FormatEntry, Summary } from './entry.js';
import { plainWarnings } from './md2.js';

function md3Summary(m: Md3Model): Summary {
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

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const md3Entry: FormatEntry<Md3Model> = {
  ...md3Format,
  owns: (data): data is Md3Model => (data as Md3Model | null)?.format === 'md3',
  async inspect(source, options) {
    const model = await parseMd3Stream(source, options);
    return { summary: md3Summary(model), materialsOf: model };
  },
  async headerFrames(file) {
    const b = await fileHead(file, HEADER_BYTES);
    return readMd3Header(b, b.length).numFrames;
  },
  materials: (resolver, model, path, o) => resolver.md3(model, path, o.skin ? { skin: o.skin } : {}),
  playable: async (set) => md3Playable(set.data),
  async view(set, backend) {
    const { md3View, md3Clips } = await import('./views.js');
    return md3View(set.data, backend, md3Clips(set.data));
  },
  gltf: {
    uses: ['clips', 'fps', 'step', 'quantize'],
    add: (ctx, model, name, options) => addMd3(ctx, model, name, options).rootNodes,
  },
  obj: {
    frames: (set) => ({ count: set.data.frameCount, of: set.path }),
    async write(set, o) {
      const model = set.data;
      const frame = o.frame ?? 0;
      const poser = new Md3Poser(o.backend, model).poseFrame(frame);
      try {
        const text = md3ToObj(model, { positions: poser.positions, normals: poser.normals, yUp: o.yUp, comment: o.comment(`${set.path} frame ${frame}`), materials: o.materials });
        return { text, facts: [count(model.surfaces.length, 'mesh', 'meshes'), count(poser.vertexCount, 'vertex', 'vertices'), `frame ${frame}`] };
      } finally {
        poser.dispose();
      }
    },
  },
  writer: {
    extensions: ['.md3'],
    defaultFps: 15,
    fromGltf: async (gltf, options) => (await import('./writers.js')).md3FromGltf(gltf, options),
  },
};

/** A player as its data (`{ models, animations }`), or its three parts alone (`{ lower, upper, head }`, as `loadPlayer` gives them). */
type PlayerLike = Md3PlayerData | { lower: Md3Model; upper: Md3Model; head: Md3Model };
const partsOf = (p: PlayerLike) => ('models' in p ? p.models : p);

export const playerEntry: FormatEntry<PlayerLike> = {
  ...(md3PlayerFormat as FormatEntry<PlayerLike>),
  owns: (data): data is PlayerLike => typeof data === 'object' && data !== null && ('models' in data || ('lower' in data && 'upper' in data && 'head' in data)),
  // The parts by their skins; a weapon kept in the folder by its own shaders, as an MD3 beside them.
  async materials(resolver, player, folder, o) {
    const parts: Md3PlayerModels = partsOf(player);
    const set = await resolver.player(parts, folder, { skin: o.skin });
    const weapon = parts.weapon;
    if (!weapon) return set;
    const own = await resolver.md3(weapon, folder ? `${folder}/weapon.md3` : 'weapon.md3');
    return { materials: [...set.materials, ...own.materials.map((m) => ({ ...m, part: 'weapon' as const }))], warnings: [...set.warnings, ...own.warnings] };
  },
  playable: async (set) => playerPlayable(set.data as Md3PlayerData),
  view: async (set, backend) => (await import('./views.js')).playerView('models' in set.data ? set.data : { models: set.data }, backend),
  gltf: {
    uses: ['fps', 'step', 'quantize'],
    add: (ctx, player, name, options) => addPlayer(ctx, 'models' in player ? player : { models: player }, name, options).rootNodes,
  },
  writer: {
    extensions: [],
    folderFlag: {
      name: '--player',
      help: "IN holds a Quake 3 player (nodes lower, upper, head, as convert writes one): write OUTDIR/lower.md3, upper.md3, head.md3 and animation.cfg, -o naming OUTDIR. Animations named as Quake 3's (LEGS_WALK, TORSO_STAND, BOTH_DEATH1…) fill their slots; others take the free slots in order. Without --fps each is sampled at its own key rate.",
    },
    fromGltf: async (gltf, options) => (await import('./writers.js')).playerFromGltf(gltf, options),
  },
};

/**
 * The corpus's textured models (../shared/models README groups A1–A5, B1–B3, C1–C3) in their game folders, and
 * readers for what the textured exports write: a GLB's chunks, a PNG's pixels (fast-png, an independent decoder).
 */
import { decode as decodePng, convertIndexedToRgb } from 'fast-png';
import { join } from 'node:path';
import type { GltfModel } from '../../src/registry/gltf.js';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import type { TexturedModel } from '../../src/registry/textures.js';
import { sharedBytes } from './shared-fs.js';

const PLAYERS = 'res-players_src.dpkdir';
const TREM = 'res-tremulous_src.dpkdir';
const AAA = 'aaa-assets';
const WEAPONS = 'res-weapons_src.dpkdir';
const AQ = 'distrib/baseaq/pak0';

export interface Case {
  root: string;
  path: string;
  skin?: string;
}

/** Every textured model of the corpus (README groups), in its game folder. */
export const TEXTURED: Case[] = [
  { root: TREM, path: 'models/mapobjects/stasis/stasis.md3' },
  { root: TREM, path: 'models/mapobjects/plant_life/grass.md3' },
  { root: TREM, path: 'models/mapobjects/nexus6/wallthing.md3' },
  { root: TREM, path: 'models/mapobjects/nexus6/computer.md3' },
  { root: AAA, path: 'models/fx/portal/portals.md3', skin: 'blue' },
  { root: AAA, path: 'models/fx/portal/portals.md3', skin: 'orange' },
  { root: AAA, path: 'models/weapons/grenade_launcher/grenade_launcher.md3' },
  { root: WEAPONS, path: 'models/weapons/grenade/grenade.md5mesh' },
  { root: WEAPONS, path: 'models/weapons/firebomb/firebomb.md5mesh' },
  { root: 'actors', path: 'drone/mesh.md5mesh' },
  { root: AQ, path: 'models/indicator/arrow_blue.md2' },
  { root: AQ, path: 'models/indicator/arrow_red.md2' },
  { root: 'AC', path: 'packages/models/mapmodels/sitters/ton/down/tris.md2' },
  { root: 'assimp/test/models-nonbsd/MD2', path: 'dolphin.md2' },
  { root: PLAYERS, path: 'models/players/human_bsuit' },
];

export function parse(c: Case): TexturedModel & GltfModel {
  const bytes = (p: string) => sharedBytes(join(c.root, p));
  if (c.path.endsWith('.md3')) return parseMd3(bytes(c.path));
  if (c.path.endsWith('.md2')) return parseMd2(bytes(c.path));
  if (c.path.endsWith('.md5mesh')) return parseMd5Mesh(bytes(c.path));
  const part = (n: string) => parseMd3(bytes(`${c.path}/${n}.md3`));
  return { models: { lower: part('lower'), upper: part('upper'), head: part('head') } };
}

/** A GLB's JSON and binary chunk. */
export function readGlb(glb: Uint8Array): { json: any; bin: Uint8Array } {
  const dv = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const jsonLength = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength)));
  const o = 20 + jsonLength;
  const bin = o < glb.byteLength ? glb.subarray(o + 8, o + 8 + dv.getUint32(o, true)) : new Uint8Array(0);
  return { json, bin };
}

/** A PNG's pixels as RGBA8 (fast-png: an independent decoder). */
export function pngRgba(bytes: Uint8Array): { width: number; height: number; rgba: Uint8Array } {
  const png = decodePng(bytes);
  let data: ArrayLike<number> = png.data;
  let channels = png.channels;
  if (png.palette) {
    data = convertIndexedToRgb(png);
    channels = data.length / (png.width * png.height);
  }
  const n = png.width * png.height;
  const rgba = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    const s = i * channels;
    if (channels <= 2) rgba.set([data[s], data[s], data[s], channels === 2 ? data[s + 1] : 255], i * 4);
    else rgba.set([data[s], data[s + 1], data[s + 2], channels === 4 ? data[s + 3] : 255], i * 4);
  }
  return { width: png.width, height: png.height, rgba };
}


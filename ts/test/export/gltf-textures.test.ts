/**
 * Textured glTF on the corpus's textured models (../shared/models README groups A1–A5, B1–B3, C1–C3): each one
 * resolved in its game folder (resolveModelTextures), exported to .glb, checked by the Khronos validator, and read
 * back — every resolved image is in the file at its size with the source's pixels (TGA/PCX/BMP re-encoded as PNG,
 * decoded back here with fast-png), JPEG/PNG byte for byte; alpha mode and sides follow the shader.
 */
import { decode as decodePng, convertIndexedToRgb } from 'fast-png';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMd3 } from '../../src/formats/md3/index.js';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import { toGlb, gltfFiles, type GltfModel } from '../../src/export/gltf.js';
import { decodeImage } from '../../src/images/decode.js';
import { resolveModelTextures, type ModelTextures, type TexturedModel } from '../../src/load/textures.js';
import { sharedBytes, sharedFileSystem } from '../helpers/shared-fs.js';
import { expectClean, validate } from './validate.js';

const PLAYERS = 'res-players_src.dpkdir';
const TREM = 'res-tremulous_src.dpkdir';
const AAA = 'aaa-assets';
const WEAPONS = 'res-weapons_src.dpkdir';
const AQ = 'distrib/baseaq/pak0';

interface Case {
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

function parse(c: Case): TexturedModel & GltfModel {
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

const results: string[] = [];
const resolved = new Map<Case, ModelTextures>();
const label = (c: Case) => `${c.root}/${c.path}${c.skin ? ` (skin ${c.skin})` : ''}`;

async function exported(c: Case) {
  const model = parse(c);
  const textures = await resolveModelTextures(sharedFileSystem(c.root), model, c.path, { skin: c.skin });
  resolved.set(c, textures);
  const warnings: any[] = [];
  const glb = toGlb(model, { textures, warnings, name: c.path });
  return { model, textures, glb, warnings, ...readGlb(glb) };
}

describe('every textured corpus model exports to a valid .glb with its images inside', () => {
  for (const c of TEXTURED) {
    test(label(c), async () => {
      const { textures, glb, json, bin } = await exported(c);
      expectClean(results, label(c), await validate(glb));
      const found = textures.materials.filter((m) => m.diffuse?.path);
      expect(found.length, 'resolved materials').toBeGreaterThan(0);
      for (const m of found) {
        const mat = json.materials.find((x: any) => x.extras?.shader === m.shaderName && x.extras?.image === m.diffuse!.path);
        expect(mat, `${m.surface}: a material showing ${m.diffuse!.path}`).toBeDefined();
        const tex = (mat.pbrMetallicRoughness.baseColorTexture ?? mat.emissiveTexture).index;
        const image = json.images[json.textures[tex].source];
        const view = json.bufferViews[image.bufferView];
        const embedded = bin.subarray(view.byteOffset, view.byteOffset + view.byteLength);
        const source = decodeImage(textures.images.get(m.diffuse!.path)!, m.diffuse!.path);
        if (source.kind === 'passthrough') {
          expect(image.mimeType).toBe(source.mimeType);
          expect(Buffer.compare(Buffer.from(embedded), Buffer.from(source.bytes)), `${m.diffuse!.path} passed through as is`).toBe(0);
        } else {
          expect(image.mimeType).toBe('image/png');
          const back = pngRgba(embedded);
          expect([back.width, back.height]).toEqual([source.width, source.height]);
          expect(Buffer.compare(Buffer.from(back.rgba), Buffer.from(source.rgba)), `${m.diffuse!.path} pixels`).toBe(0);
        }
        expect(mat.doubleSided ?? false).toBe(m.doubleSided);
      }
    });
  }
});

describe('render states follow the shader', () => {
  const material = async (c: Case, surface: string) => {
    const { json, textures } = await exported(c);
    const m = textures.materials.find((x) => x.surface === surface)!;
    return { gltf: json.materials.find((x: any) => x.extras?.shader === m.shaderName && x.extras?.image === (m.diffuse?.path ?? undefined)), resolved: m, json };
  };

  test('grass: alphaFunc GE128 → MASK at 0.5, cull disable → doubleSided', async () => {
    const { gltf } = await material(TEXTURED[1], 'grass');
    expect([gltf.alphaMode, gltf.alphaCutoff, gltf.doubleSided]).toEqual(['MASK', 0.5, true]);
  });

  test('portal ring (skin blue): blendFunc add → the image as emissive over a black base', async () => {
    const { gltf, resolved, json } = await material(TEXTURED[4], 'portalring');
    expect(resolved.blendMode).toBe('additive');
    expect(gltf.pbrMetallicRoughness.baseColorFactor).toEqual([0, 0, 0, 1]);
    expect(gltf.pbrMetallicRoughness.baseColorTexture).toBeUndefined();
    expect(json.images[json.textures[gltf.emissiveTexture.index].source].name).toBe('bluering');
    expect(gltf.emissiveFactor).toEqual([1, 1, 1]);
  });

  test('Doom 3 / Daemon normal maps become normalTexture (grenade.md5mesh, grenade_launcher .mtr TGA)', async () => {
    for (const [c, surface, normal] of [[TEXTURED[7], '', 'grenade_n'], [TEXTURED[6], 'glauncher', 'launcher_n']] as const) {
      const { gltf, json } = await material(c, surface);
      expect(json.images[json.textures[gltf.normalTexture.index].source].name).toBe(normal);
    }
  });

  test('stasis window: blendFunc filter has no glTF form → opaque, with BLEND_APPROXIMATED', async () => {
    const { warnings, json } = await exported(TEXTURED[0]);
    const window = json.materials.find((x: any) => x.extras?.surface === 'window');
    expect(window.alphaMode).toBeUndefined();
    expect(warnings.filter((w) => w.code === 'BLEND_APPROXIMATED').map((w) => w.message)).toEqual([expect.stringMatching(/^models\/mapobjects\/stasis\/window\.tga: blendFunc GL_DST_COLOR GL_ZERO/)]);
  });

  test('a missing image is a warning and an untextured material, never an exception', async () => {
    const c = TEXTURED[2];
    const model = parse(c);
    const textures = await resolveModelTextures(sharedFileSystem(c.root), model, c.path);
    const warnings: any[] = [];
    const glb = toGlb(model, { textures: { materials: textures.materials, images: new Map() }, warnings });
    const { json } = readGlb(glb);
    expect(json.images).toBeUndefined();
    expect(json.materials[0].pbrMetallicRoughness.baseColorTexture).toBeUndefined();
    expect(warnings.map((w) => w.code)).toEqual(['TEXTURE_NOT_GIVEN']);
    expect((await validate(glb)).errors).toBe(0);
  });

  test('.gltf output: the images are files beside it, referenced by name', async () => {
    const c = TEXTURED[0];
    const model = parse(c);
    const textures = await resolveModelTextures(sharedFileSystem(c.root), model, c.path);
    const files = gltfFiles(model, 'out/stasis.gltf', { textures });
    const json = JSON.parse(new TextDecoder().decode(files[0].bytes));
    const uris = json.images.map((i: any) => i.uri);
    expect(files.slice(2).map((f) => f.path)).toEqual(uris.map((u: string) => `out/${u}`));
    expect(uris).toContain('stasis_chamber.png');
    expect(uris).toContain('stasis_meters.jpg');
  });
});

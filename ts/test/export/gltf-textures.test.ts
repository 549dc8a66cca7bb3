/**
 * Textured glTF on the corpus's textured models (../shared/models README groups A1–A5, B1–B3, C1–C3): each one
 * resolved in its game folder (resolveModelTextures), exported to .glb, checked by the Khronos validator, and read
 * back — every resolved image is in the file at its size with the source's pixels (TGA/PCX/BMP re-encoded as PNG,
 * decoded back here with fast-png), JPEG/PNG byte for byte; alpha mode and sides follow the shader.
 */
import { describe, expect, test } from 'vitest';
import { toGlb, gltfFiles } from '../../src/registry/gltf.js';
import { decodeImage } from '../../src/images/decode.js';
import { resolveModelTextures, type ModelTextures } from '../../src/registry/textures.js';
import { sharedFileSystem } from '../helpers/shared-fs.js';
import { parse, pngRgba, readGlb, TEXTURED, type Case } from '../helpers/textured.js';
import { expectClean, validate } from './validate.js';

const results: string[] = [];
const resolved = new Map<Case, ModelTextures>();
const label = (c: Case) => `${c.root}/${c.path}${c.skin ? ` (skin ${c.skin})` : ''}`;

async function exported(c: Case) {
  const model = parse(c);
  const textures = await resolveModelTextures(sharedFileSystem(c.root), model, c.path, { skin: c.skin });
  resolved.set(c, textures);
  const warnings: any[] = [];
  const glb = await toGlb(model, { textures, warnings, name: c.path });
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
        const path = m.diffuse!.path!; // found: the ones with a path
        const mat = json.materials.find((x: any) => x.extras?.shader === m.shaderName && x.extras?.image === path);
        expect(mat, `${m.surface}: a material showing ${path}`).toBeDefined();
        const tex = (mat.pbrMetallicRoughness.baseColorTexture ?? mat.emissiveTexture).index;
        const image = json.images[json.textures[tex].source];
        const view = json.bufferViews[image.bufferView];
        const embedded = bin.subarray(view.byteOffset, view.byteOffset + view.byteLength);
        const source = decodeImage(textures.images.get(path)!, path);
        if (source.kind === 'passthrough') {
          expect(image.mimeType).toBe(source.mimeType);
          expect(Buffer.compare(Buffer.from(embedded), Buffer.from(source.bytes)), `${path} passed through as is`).toBe(0);
        } else {
          expect(image.mimeType).toBe('image/png');
          const back = pngRgba(embedded);
          expect([back.width, back.height]).toEqual([source.width, source.height]);
          expect(Buffer.compare(Buffer.from(back.rgba), Buffer.from(source.rgba)), `${path} pixels`).toBe(0);
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
    const glb = await toGlb(model, { textures: { materials: textures.materials, images: new Map() }, warnings });
    const { json } = readGlb(glb);
    expect(json.images).toBeUndefined();
    expect(json.materials[0].pbrMetallicRoughness.baseColorTexture).toBeUndefined();
    expect(warnings.map((w) => w.code)).toEqual(['TEXTURE_NOT_GIVEN']);
    expect((await validate(glb)).errors).toBe(0);
  });

  test('an image that does not decode is a warning and an untextured material', async () => {
    const c = TEXTURED[10]; // arrow_blue.md2: its PCX skin
    const model = parse(c);
    const textures = await resolveModelTextures(sharedFileSystem(c.root), model, c.path);
    const broken = new Map([...textures.images].map(([path, bytes]) => [path, bytes.subarray(0, 40)]));
    const warnings: any[] = [];
    const glb = await toGlb(model, { textures: { materials: textures.materials, images: broken }, warnings });
    expect(readGlb(glb).json.images).toBeUndefined();
    expect(warnings.map((w) => w.code)).toEqual(['TEXTURE_DECODE_FAILED']);
    expect(warnings[0].message).toMatch(/^models\/indicator\/arrow_blue\.pcx: /);
    expect((await validate(glb)).errors).toBe(0);
  });

  test('.gltf output: the images are files beside it, referenced by name', async () => {
    const c = TEXTURED[0];
    const model = parse(c);
    const textures = await resolveModelTextures(sharedFileSystem(c.root), model, c.path);
    const files = await gltfFiles(model, 'out/stasis.gltf', { textures });
    const json = JSON.parse(new TextDecoder().decode(files[0].bytes));
    const uris = json.images.map((i: any) => i.uri);
    expect(files.slice(2).map((f) => f.path)).toEqual(uris.map((u: string) => `out/${u}`));
    expect(uris).toContain('stasis_chamber.png');
    // JPEGs keep their bytes and extension; computer's additive third stage is its emissive image.
    const computer = TEXTURED[3];
    const cModel = parse(computer);
    const cJson = JSON.parse(new TextDecoder().decode((await gltfFiles(cModel, 'out/computer.gltf', { textures: await resolveModelTextures(sharedFileSystem(computer.root), cModel, computer.path) }))[0].bytes));
    expect(cJson.images.map((i: any) => i.uri)).toEqual(['computer_computer.jpg', 'computer_computer.blend.jpg']);
    expect(cJson.materials[0].emissiveTexture.index).toBe(1);
  });
});

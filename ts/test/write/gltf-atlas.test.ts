/**
 * glTF with several materials → MD2 / MDL: the materials' images packed into one skin (import/gltf-atlas.ts).
 *
 * The real case: Tremulous' stasis.md3 (6 surfaces, 6 PNG skins: chamber 256², lifemeter 128² …) exported by the CLI
 * to .glb (6 materials, each its image embedded), then converted by the CLI to .md2 and .mdl. For every triangle, the
 * written skin's texel at the triangle's centroid (in the file's own texel convention: MD2 st / skinsize, MDL's
 * (s + 0.5) / skinwidth) must be one of the source material's texels within one texel of the centroid of the source
 * UVs (st are whole texels: each corner is within half a texel). The tolerance: MD2 exact (the PNG skin is texel for
 * texel: max channel difference 0); MDL the same palette index as one of those source texels quantised to Quake's
 * palette (the only error is the palette's). Before the atlas every surface drew with the first material's image.
 *
 * Made-up cases (generated here): repeating UVs baked in the sampler's wrap mode, too many repeats refused, images
 * taller than MAX_LBM_HEIGHT scaled down, untextured materials as a swatch of their colour, `atlas: false`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Document, WebIO } from '@gltf-transform/core';
import { parseMd2 } from '../../src/formats/md2/index.js';
import { parseMdl } from '../../src/formats/mdl/index.js';
import { gltfToMd2 } from '../../src/formats/md2/from-gltf.js';
import { gltfToMdl } from '../../src/formats/mdl/from-gltf.js';
import { decodePngRgba } from '../../src/images/png-decode.js';
import { encodePng } from '../../src/images/png-encode.js';
import { DEFAULT_QUAKE_PALETTE, quantizeQuakeSkin } from '../../src/images/quake-palette.js';
import { readGltfDocument } from '../../src/import/gltf.js';
import { sceneNodes, trianglePrimitives, type TrianglePrimitive } from '../../src/import/gltf-scene.js';
import { MAX_BAKED_TILES } from '../../src/import/gltf-atlas.js';
import { cliTemp, runCli, shared } from '../helpers/cli.js';
import { atlasBombGlb } from '../../../fixtures/generate-hostile-gltf.mjs';

const STASIS = shared('res-tremulous_src.dpkdir/models/mapobjects/stasis/stasis.md3');

interface Image {
  width: number;
  height: number;
  rgba: Uint8Array;
}
const texel = (img: Image, x: number, y: number) => img.rgba.subarray(4 * (y * img.width + x), 4 * (y * img.width + x) + 4);
const clampTo = (i: number, n: number) => Math.max(0, Math.min(n - 1, i));

/** Each source primitive's image (decoded), in the order the importers merge them. */
async function sources(bytes: Uint8Array): Promise<{ prims: TrianglePrimitive[]; images: Image[] }> {
  const doc = await readGltfDocument({ bytes });
  const prims = trianglePrimitives(sceneNodes(doc), []);
  const images = prims.map((p) => decodePngRgba(p.prim.getMaterial()!.getBaseColorTexture()!.getImage()!));
  return { prims, images };
}

/** The source texels within one texel of the centroid of triangle `t`'s uvs (local triangle index in `p`). */
function sourceTexels(p: TrianglePrimitive, t: number, img: Image): Uint8Array[] {
  let u = 0, v = 0;
  for (let k = 0; k < 3; k++) (u += p.uvs[2 * p.triangles[3 * t + k]] / 3), (v += p.uvs[2 * p.triangles[3 * t + k] + 1] / 3);
  const x = Math.floor(u * img.width), y = Math.floor(v * img.height);
  const out: Uint8Array[] = [];
  for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) out.push(texel(img, clampTo(x + dx, img.width), clampTo(y + dy, img.height)));
  return out;
}

const channelDiff = (a: Uint8Array, b: Uint8Array) => Math.max(...[0, 1, 2].map((k) => Math.abs(a[k] - b[k])));

describe('stasis.md3 → .glb (6 textured materials) → .md2 / .mdl: each surface drawn with its own material\'s image', () => {
  const dir = cliTemp('atlas');
  let glb: Uint8Array;
  let src: Awaited<ReturnType<typeof sources>>;
  beforeAll(async () => {
    const made = await runCli('convert', STASIS, '-o', join(dir, 'stasis.glb'));
    expect(made.status, made.stderr).toBe(0);
    glb = new Uint8Array(readFileSync(join(dir, 'stasis.glb')));
    src = await sources(glb);
  });

  it('the glb is a real multi-material model: 6 primitives, 6 materials, 6 decoded PNG images', () => {
    expect(src.prims).toHaveLength(6);
    expect(new Set(src.prims.map((p) => p.prim.getMaterial())).size).toBe(6);
    expect(src.images.map((i) => `${i.width}×${i.height}`).sort()).toEqual(['128×128', '128×128', '256×256', '64×64', '64×64', '64×64']);
  });

  it('convert -o x.md2: skin x.png beside it; every triangle\'s centroid texel is its own material\'s (exact)', async () => {
    const run = await runCli('convert', join(dir, 'stasis.glb'), '-o', join(dir, 'stasis.md2'));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/GLTF_MATERIALS_MERGED/);
    expect(run.stderr).toMatch(/6 materials packed into one skin/);
    const md2 = parseMd2(new Uint8Array(readFileSync(join(dir, 'stasis.md2'))));
    expect(md2.skins.map((s) => s.name)).toEqual(['stasis.png']);
    const skin = decodePngRgba(new Uint8Array(readFileSync(join(dir, 'stasis.png'))));
    expect([skin.width, skin.height]).toEqual([md2.skinWidth, md2.skinHeight]);
    expect(md2.skinHeight).toBeLessThanOrEqual(480);
    let t = 0, worst = 0, checked = 0;
    src.prims.forEach((p, i) => {
      for (let local = 0; local < p.triangles.length / 3; local++, t++) {
        let s = 0, tt = 0;
        for (let k = 0; k < 3; k++) (s += md2.st[2 * md2.triangleStIndices[3 * t + k]] / 3), (tt += md2.st[2 * md2.triangleStIndices[3 * t + k] + 1] / 3);
        const got = texel(skin, clampTo(Math.floor(s), skin.width), clampTo(Math.floor(tt), skin.height));
        worst = Math.max(worst, Math.min(...sourceTexels(p, local, src.images[i]).map((w) => channelDiff(got, w))));
        checked++;
      }
    });
    expect(t).toBe(md2.triangleCount);
    expect(checked).toBe(345);
    expect(worst, 'max channel difference from the nearest source texel').toBe(0);
  });

  it('convert -o x.mdl: every triangle\'s centroid texel is its own material\'s, quantised to Quake\'s palette (same index)', async () => {
    const run = await runCli('convert', join(dir, 'stasis.glb'), '-o', join(dir, 'stasis.mdl'));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/GLTF_MATERIALS_MERGED/);
    const mdl = parseMdl(new Uint8Array(readFileSync(join(dir, 'stasis.mdl'))));
    expect(mdl.skinWidth % 4).toBe(0);
    expect(mdl.skinHeight).toBeLessThanOrEqual(480);
    let t = 0, misses = 0;
    src.prims.forEach((p, i) => {
      for (let local = 0; local < p.triangles.length / 3; local++, t++) {
        let s = 0, tt = 0;
        for (let k = 0; k < 3; k++) (s += (mdl.st[2 * mdl.triangleStIndices[3 * t + k]] + 0.5) / 3), (tt += (mdl.st[2 * mdl.triangleStIndices[3 * t + k] + 1] + 0.5) / 3);
        const got = mdl.skinPixels[clampTo(Math.floor(tt), mdl.skinHeight) * mdl.skinWidth + clampTo(Math.floor(s), mdl.skinWidth)];
        const near = sourceTexels(p, local, src.images[i]);
        const rgba = new Uint8Array(4 * near.length);
        near.forEach((c, k) => rgba.set(c, 4 * k));
        if (!quantizeQuakeSkin(rgba, null, near.length, 1, DEFAULT_QUAKE_PALETTE).includes(got)) misses++;
      }
    });
    expect(t).toBe(mdl.triangleCount);
    expect(misses).toBe(0);
  });

  it('--no-atlas keeps the old merge: the first material\'s skin for all, GLTF_MATERIALS_MERGED', async () => {
    const run = await runCli('convert', join(dir, 'stasis.glb'), '--no-atlas', '-o', join(dir, 'merged.md2'));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/GLTF_MATERIALS_MERGED/);
    expect(parseMd2(new Uint8Array(readFileSync(join(dir, 'merged.md2')))).skins.map((s) => s.name)).toEqual(['bubbles']);
  });
});

/** A glTF of quads side by side: each with its material (an image of `w`×`h` whose texel (x, y) is (x, y, i, 255), or a colour) and uv range. */
async function quads(parts: { image?: [number, number]; color?: number[]; uv?: [number, number, number, number]; wrap?: number }[]): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const mesh = doc.createMesh();
  parts.forEach((part, i) => {
    const [u0, v0, u1, v1] = part.uv ?? [0, 0, 1, 1];
    const positions = new Float32Array([i, 0, 0, i + 1, 0, 0, i + 1, 1, 0, i, 1, 0]);
    const uvs = new Float32Array([u0, v1, u1, v1, u1, v0, u0, v0]);
    const m = doc.createMaterial(`m${i}`).setBaseColorFactor((part.color ?? [1, 1, 1, 1]) as [number, number, number, number]);
    if (part.image) {
      const [w, h] = part.image;
      const rgba = new Uint8Array(4 * w * h);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rgba.set([x & 255, y & 255, 40 * i, 255], 4 * (y * w + x));
      m.setBaseColorTexture(doc.createTexture(`t${i}`).setMimeType('image/png').setImage(encodePng(rgba, w, h)));
      if (part.wrap) m.getBaseColorTextureInfo()!.setWrapS(part.wrap as 33648).setWrapT(part.wrap as 33648);
    }
    mesh.addPrimitive(
      doc
        .createPrimitive()
        .setMaterial(m)
        .setIndices(doc.createAccessor().setType('SCALAR').setArray(new Uint16Array([0, 1, 2, 0, 2, 3])).setBuffer(buffer))
        .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer))
        .setAttribute('TEXCOORD_0', doc.createAccessor().setType('VEC2').setArray(uvs).setBuffer(buffer)),
    );
  });
  doc.createScene().addChild(doc.createNode().setMesh(mesh));
  return new WebIO().writeBinary(doc);
}

/** The MD2's skin texel at uv (u, v) of quad `q` (its first triangle's st, interpolated bilinearly over the quad's corners). */
function md2Texel(md2: ReturnType<typeof parseMd2>, skin: Image, q: number, u: number, v: number): Uint8Array {
  const st = (c: number) => [md2.st[2 * md2.triangleStIndices[c]], md2.st[2 * md2.triangleStIndices[c] + 1]];
  // triangle 2q is corners (0, 2, 1) of the quad in id's winding: 0 = (u0, v1), 1 = (u1, v1), 2 = (u1, v0)
  const [a, c, b] = [st(6 * q), st(6 * q + 1), st(6 * q + 2)];
  const s = a[0] + u * (b[0] - a[0]), t = c[1] + v * (a[1] - c[1]);
  return texel(skin, clampTo(Math.floor(s), skin.width), clampTo(Math.floor(t), skin.height));
}

describe('the atlas on made-up models', () => {
  it('repeating UVs (0..3 × 0..2, REPEAT) are baked: the texel at uv (u, v) is the image\'s at (u mod 1, v mod 1)', async () => {
    const md2 = await gltfToMd2({ bytes: await quads([{ image: [16, 8], uv: [0, 0, 3, 2] }, { image: [8, 8] }]) }, { atlasName: 'a' });
    expect(md2.warnings.map((w) => w.code)).toEqual([]);
    const skin = decodePngRgba(md2.textures[0].bytes);
    const back = parseMd2(await writeBack(md2));
    // quad 0's uv across its face: 0..3 and 0..2; sample texel centres of the 3 × 2 tiles
    for (const [fu, fv] of [[0.1, 0.1], [0.5, 0.3], [0.9, 0.8], [0.37, 0.61]]) {
      const u = fu * 3, v = fv * 2;
      const x = Math.floor((u % 1) * 16), y = Math.floor((v % 1) * 8);
      const got = md2Texel(back, skin, 0, fu, fv);
      expect(Math.abs(got[0] - x) <= 1 && Math.abs(got[1] - y) <= 1 && got[2] === 0, `uv (${u}, ${v}): got ${[...got]}, want (${x}, ${y}, 0)`).toBe(true);
    }
  });

  it('MIRRORED_REPEAT is baked mirrored; more than MAX_BAKED_TILES repeats: GLTF_ATLAS_REFUSED and the old merge', async () => {
    const md2 = await gltfToMd2({ bytes: await quads([{ image: [16, 8], uv: [0, 0, 2, 1], wrap: 33648 }, { image: [8, 8] }]) });
    const skin = decodePngRgba(md2.textures[0].bytes);
    const back = parseMd2(await writeBack(md2));
    // u = 1.25 mirrors to 0.75
    expect(Math.abs(md2Texel(back, skin, 0, 0.625, 0.5)[0] - 12)).toBeLessThanOrEqual(1);
    const many = await gltfToMd2({ bytes: await quads([{ image: [4, 4], uv: [0, 0, MAX_BAKED_TILES + 1, 1] }, { image: [4, 4] }]) });
    expect(many.warnings.map((w) => w.code)).toEqual(['GLTF_ATLAS_REFUSED', 'GLTF_MATERIALS_MERGED']);
    expect(many.warnings[0].message).toMatch(/17×1 repeats/);
  });

  it('images taller than MAX_LBM_HEIGHT together: scaled to fit (GLTF_ATLAS_SCALED); MDL\'s width a multiple of 4; an untextured material is its colour', async () => {
    const bytes = await quads([{ image: [300, 400] }, { image: [300, 400] }, { image: [300, 300] }, { color: [1, 0, 0, 1] }]);
    const mdl = await gltfToMdl({ bytes });
    expect(mdl.warnings.map((w) => w.code)).toEqual(['GLTF_ATLAS_SCALED']);
    expect(mdl.skinHeight).toBeLessThanOrEqual(480);
    expect(mdl.skinWidth % 4).toBe(0);
    // the red quad's corners all sit on one texel of the palette's red
    const red = quantizeQuakeSkin(Uint8Array.of(255, 0, 0, 255), null, 1, 1, DEFAULT_QUAKE_PALETTE)[0];
    const corner = mdl.triangleStIndices[6 * 3];
    expect(mdl.skinPixels[mdl.st[2 * corner + 1] * mdl.skinWidth + mdl.st[2 * corner]]).toBe(red);
    const md2 = await gltfToMd2({ bytes });
    expect(md2.skinHeight).toBeLessThanOrEqual(480);
    expect(md2.warnings[0].message).toMatch(/4 materials' images are packed into one \d+×\d+ skin scaled by 0\.\d+/);
    const flat = await gltfToMd2({ bytes }, { atlas: false });
    expect(flat.warnings.map((w) => w.code)).toEqual(['GLTF_MATERIALS_MERGED']);
  });
});

async function writeBack(md2: Awaited<ReturnType<typeof gltfToMd2>>): Promise<Uint8Array> {
  const { writeMd2 } = await import('../../src/formats/md2/write.js');
  const { md2GlCommands } = await import('../../src/formats/md2/write-glcmds.js');
  return writeMd2({ ...md2, glCommands: md2GlCommands(md2) });
}

describe('materials without images', () => {
  it('MD2 keeps the merge (its skin names the first material, a path the game may hold); MDL packs a swatch of each colour', async () => {
    const bytes = await quads([{ color: [1, 0, 0, 1] }, { color: [0, 0, 1, 1] }]);
    const md2 = await gltfToMd2({ bytes });
    expect(md2.warnings.map((w) => w.code)).toEqual(['GLTF_MATERIALS_MERGED']);
    expect(md2.skins.map((x) => x.name)).toEqual(['m0']);
    const mdl = await gltfToMdl({ bytes });
    expect(mdl.warnings.map((w) => w.code)).toEqual([]);
    const at = (q: number) => {
      const c = mdl.triangleStIndices[6 * q];
      return mdl.skinPixels[mdl.st[2 * c + 1] * mdl.skinWidth + mdl.st[2 * c]];
    };
    const index = (rgb: number[]) => quantizeQuakeSkin(Uint8Array.of(...rgb, 255), null, 1, 1, DEFAULT_QUAKE_PALETTE)[0];
    expect([at(0), at(1)]).toEqual([index([255, 0, 0]), index([0, 0, 255])]);
  });
});

describe('the atlas\'s bound (maxAtlasPixels)', () => {
  it('the images\' declared pixels in all over maxAtlasPixels: refused before any is decoded (GLTF_ATLAS_REFUSED names the limit), the old merge', async () => {
    const bytes = atlasBombGlb({ materials: 3, side: 64 });
    const fits = await gltfToMdl({ bytes, limits: { maxAtlasPixels: 3 * 64 * 64 } });
    expect(fits.warnings.map((w) => w.code)).toEqual([]);
    const over = await gltfToMdl({ bytes, limits: { maxAtlasPixels: 3 * 64 * 64 - 1 } });
    expect(over.warnings.map((w) => w.code)).toEqual(['GLTF_ATLAS_REFUSED', 'GLTF_MATERIALS_MERGED']);
    expect(over.warnings[0].message).toMatch(/more than maxAtlasPixels 12287 \(raise it with --limit maxAtlasPixels=N\) pixels in all/);
    // repeats count: 2 materials of 64², each over 3 tiles, are 6 × 64² texels baked
    const tiles = atlasBombGlb({ materials: 2, side: 64, repeats: 3 });
    expect((await gltfToMdl({ bytes: tiles, limits: { maxAtlasPixels: 6 * 64 * 64 } })).warnings.map((w) => w.code)).toEqual([]);
    const baked = await gltfToMd2({ bytes: tiles, limits: { maxAtlasPixels: 6 * 64 * 64 - 1 } });
    expect(baked.warnings[0].message).toMatch(/repeats baked, have more than maxAtlasPixels/);
  });
});

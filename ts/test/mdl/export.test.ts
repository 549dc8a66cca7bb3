/**
 * What the registry will call for an MDL, each on real data: glTF (validator 0 errors; every clip key equals the
 * poser within the grid's half step; the embedded skin PNG pixel-equal to the palette lookup of the file's bytes,
 * fullbrights split into the emissive texture; EF flags in extras), OBJ of pose N, the playable opener, and the
 * skin decode against the reference lookup with the corpus' palette.lmp (and the built-in palette against that file).
 */
import { readFileSync } from 'node:fs';
import { decode as decodePng } from 'fast-png';
import { afterAll, describe, expect, it, test } from 'vitest';
import { mdlToObj } from '../../src/formats/mdl/obj.js';
import { mdlDrawVertices, parseMdl } from '../../src/formats/mdl/index.js';
import { DEFAULT_QUAKE_PALETTE, parseQuakePalette, QUAKE_FULLBRIGHT_FIRST } from '../../src/images/quake-palette.js';
import { createTsBackend } from '../../src/kernels/ts-backend.js';
import { mdlEmbeddedMaterials, mdlSkinPicture } from '../../src/formats/mdl/materials.js';
import { mdlPlayable } from '../../src/formats/mdl/playable.js';
import { MdlPoser } from '../../src/formats/mdl/poser.js';
import { diagonal, maxAbsDiff } from '../helpers/compare.js';
import { gltfPositions, readGlb, yUp, type Gltf } from '../export/gltf-eval.js';
import { expectClean as expectCleanIn, validate } from '../export/validate.js';
import { referenceMdl, referenceMdlSkin } from '../reference/mdl.js';
import { buildMdl, richSpec } from './_build.js';
import { mdlRows, PALETTE_PATH, readRow } from './_helpers.js';
import { toGlb } from '../../src/registry/gltf.js';

const results: string[] = [];
afterAll(() => console.log(`glTF validator, MDL:\n  ${results.join('\n  ')}`));
const palette = parseQuakePalette(new Uint8Array(readFileSync(PALETTE_PATH)));
const baseName = (p: string) => p.split('/').pop()!.replace(/\.[^.]+$/, '');

/** An image of the GLB, decoded to RGBA8. */
function glbImage(g: Gltf, image: number): Uint8Array {
  const view = g.json.bufferViews[g.json.images[image].bufferView];
  const png = decodePng(g.bin.subarray(view.byteOffset ?? 0, (view.byteOffset ?? 0) + view.byteLength));
  const px = png.data as Uint8Array;
  const out = new Uint8Array(png.width * png.height * 4);
  // Palette PNGs of 1, 2 or 4 bits pack several indices a byte, each row from a byte boundary.
  const rowBytes = Math.ceil((png.width * png.depth) / 8);
  const index = (i: number) => {
    if (png.depth === 8) return px[i];
    const x = i % png.width, y = (i - x) / png.width, bit = x * png.depth;
    return (px[y * rowBytes + (bit >> 3)] >> (8 - png.depth - (bit & 7))) & ((1 << png.depth) - 1);
  };
  for (let i = 0; i < png.width * png.height; i++) {
    if (png.palette) {
      const c = png.palette[index(i)];
      out.set([c[0], c[1], c[2], c[3] ?? 255], 4 * i);
      continue;
    }
    const grey = png.channels <= 2;
    for (let k = 0; k < 3; k++) out[4 * i + k] = px[png.channels * i + (grey ? 0 : k)];
    out[4 * i + 3] = png.channels === 4 || png.channels === 2 ? px[png.channels * i + png.channels - 1] : 255;
  }
  return out;
}

/** The reference lookup with fullbright texels black (what the engine lights), and only those texels (what it adds). */
function splitReference(rgba: Uint8Array, indices: Uint8Array): { base: Uint8Array; glow: Uint8Array } {
  const base = rgba.slice(), glow = new Uint8Array(rgba.length);
  for (let i = 0; i < indices.length; i++) {
    glow[4 * i + 3] = 255;
    if (indices[i] < QUAKE_FULLBRIGHT_FIRST) continue;
    for (let k = 0; k < 3; k++) (glow[4 * i + k] = rgba[4 * i + k]), (base[4 * i + k] = 0);
  }
  return { base, glow };
}

test('the built-in palette is LibreQuake\'s gfx/palette.lmp, byte for byte (scripts/gen-quake-palette.mjs)', () => {
  expect([...DEFAULT_QUAKE_PALETTE]).toEqual([...palette]);
});

describe('every real MDL', () => {
  for (const row of mdlRows()) {
    it(`${row.path}: skins decode pixel-equal to the palette lookup; glTF 0 errors, skin and emissive embedded, clips match the poser`, async () => {
      const bytes = readRow(row);
      const ref = referenceMdl(bytes);
      const model = parseMdl(bytes);
      const size = model.skinWidth * model.skinHeight;
      for (let p = 0; p < model.pictureCount; p++) {
        const want = referenceMdlSkin(bytes, ref, p, palette);
        const pic = mdlSkinPicture(model, p, palette);
        expect(Buffer.from(pic.rgba).equals(Buffer.from(want)), `picture ${p}`).toBe(true);
        const split = splitReference(want, bytes.subarray(ref.pictureOffsets[p], ref.pictureOffsets[p] + size));
        expect(Buffer.from(pic.base).equals(Buffer.from(split.base))).toBe(true);
        const bright = [...bytes.subarray(ref.pictureOffsets[p], ref.pictureOffsets[p] + size)].some((c) => c >= QUAKE_FULLBRIGHT_FIRST);
        expect(pic.glow === null).toBe(!bright);
        if (pic.glow) expect(Buffer.from(pic.glow).equals(Buffer.from(split.glow))).toBe(true);
      }

      const name = baseName(row.path);
      const glb = await toGlb(model, { name });
      expectCleanIn(results, row.path, await validate(glb));
      const g = readGlb(glb);
      const node = g.json.nodes.find((n: any) => n.mesh !== undefined);
      expect(node.extras.quake.flags).toBe(model.flags);
      expect(node.extras.quake.effects.includes('EF_ROTATE')).toBe((model.flags & 8) !== 0);
      // The skin (the default palette is the corpus' palette), and the fullbrights as the emissive texture.
      const mat = g.json.materials[g.json.meshes[node.mesh].primitives[0].material];
      const want0 = splitReference(referenceMdlSkin(bytes, ref, 0, palette), bytes.subarray(ref.pictureOffsets[0], ref.pictureOffsets[0] + size));
      const baseTex = g.json.textures[mat.pbrMetallicRoughness.baseColorTexture.index].source;
      expect(Buffer.from(glbImage(g, baseTex)).equals(Buffer.from(want0.base))).toBe(true);
      const glow0 = mdlSkinPicture(model, 0).glow;
      if (glow0) expect(Buffer.from(glbImage(g, g.json.textures[mat.emissiveTexture.index].source)).equals(Buffer.from(want0.glow))).toBe(true);
      else expect(mat.emissiveTexture).toBeUndefined();

      // Every clip's keys are the poses (10 fps, or a frame group's intervals), within the grid's half step.
      const poser = new MdlPoser(createTsBackend(), model);
      const drawn = mdlDrawVertices(model);
      const at = (p: number) => {
        poser.poseFrame(p);
        const out = new Float32Array(drawn.sourceVertex.length * 3);
        drawn.sourceVertex.forEach((s, i) => out.set(poser.positions.subarray(3 * s, 3 * s + 3), 3 * i));
        return yUp(out);
      };
      const step = node.scale[0];
      if (model.poseCount > 1) expect(g.json.animations.map((a: any) => a.name)).toEqual(model.clips.map((c, i) => c.name || `clip${i}`)); // s_light.mdl: poses named 1, 2, 3
      (g.json.animations ?? []).forEach((anim: any, a: number) => {
        const clip = model.clips[a];
        const times = g.json.accessors[anim.samplers[0].input];
        expect(times.count).toBe(clip.frameCount);
        for (const k of [0, clip.frameCount - 1]) {
          const group = model.frames.find((f) => f.poseCount > 1 && f.firstPose === clip.firstFrame && f.poseCount === clip.frameCount);
          const t = group ? (k === 0 ? 0 : group.intervals[k - 1]) : Math.fround(k / 10);
          const want = at(clip.firstFrame + k);
          expect(maxAbsDiff(gltfPositions(g, a, t), want), `${clip.name} pose ${k}`).toBeLessThanOrEqual(0.5 * step * (1 + 1e-6) + 1e-5 * diagonal(want));
        }
      });
      poser.dispose();
    });
  }
});

describe('OBJ of pose N, and the playable opener', () => {
  const row = mdlRows().find((r) => r.path.endsWith('/player.mdl'))!;
  const bytes = readRow(row);
  const model = parseMdl(bytes);

  test('mdlToObj writes pose N in file order and the drawn texture coordinates', () => {
    const poser = new MdlPoser(createTsBackend(), model).poseFrame(70);
    const obj = mdlToObj(model, { positions: poser.positions, normals: poser.normals });
    const lines = obj.split('\n');
    const v = lines.filter((l) => l.startsWith('v ')).map((l) => l.split(' ').slice(1).map(Number));
    expect(v.length).toBe(model.vertexCount);
    expect(maxAbsDiff(v.flat(), poser.positions)).toBeLessThan(1e-6 * 1e3);
    expect(lines.filter((l) => l.startsWith('vt ')).length).toBe(mdlDrawVertices(model).sourceVertex.length);
    expect(lines.filter((l) => l.startsWith('vn ')).length).toBe(model.vertexCount);
    const faces = lines.filter((l) => l.startsWith('f '));
    expect(faces.length).toBe(model.triangleCount);
    // Written (a, c, b): the file's clockwise triangles as OBJ's counter-clockwise.
    const [a, b, c] = model.triangleVertexIndices.subarray(0, 3);
    expect(faces[0].split(' ').slice(1).map((x) => Number(x.split('/')[0]) - 1)).toEqual([a, c, b]);
  });

  test('mdlPlayable: drawn vertices, clips, a player on a backend, the first skin as material', () => {
    const opened = mdlPlayable(model, 'player.mdl');
    expect(opened.format).toBe('mdl');
    const drawn = mdlDrawVertices(model);
    expect(opened.vertexCount).toBe(drawn.sourceVertex.length);
    expect(opened.uvs).toEqual(drawn.uvs);
    expect(opened.clips.map((c) => c.name)).toEqual(model.clips.map((c) => c.name));
    const pic = mdlEmbeddedMaterials(model, 'player.mdl');
    expect(opened.materials[0].image).toEqual({ width: model.skinWidth, height: model.skinHeight, rgba: pic.pixels.get(pic.materials[0].diffuse!.path!)!.rgba });
    const player = opened.createPlayer(createTsBackend());
    const poser = new MdlPoser(createTsBackend(), model);
    player.setClip(0);
    player.poseBlend(3, 4, 0.25);
    poser.poseBlend(3, 4, 0.25);
    for (let i = 0; i < drawn.sourceVertex.length; i++) {
      const s = drawn.sourceVertex[i];
      expect([...player.positions.subarray(3 * i, 3 * i + 3)]).toEqual([...poser.positions.subarray(3 * s, 3 * s + 3)]);
    }
    player.dispose();
  });

  test('a frame group clip plays at the group\'s rate; skin groups and MF_HOLEY in the embedded materials', () => {
    const holey = buildMdl(richSpec({ flags: 1 << 14 }));
    const opened = mdlPlayable(parseMdl(holey), 'x.mdl');
    expect(opened.clips.map((c) => [c.name, c.frameRate])).toEqual([['stand', 10], ['wave', 1 / Math.fround(0.1)]]);
    expect(opened.materials[0].alphaMode).toBe('MASK');
    const m = parseMdl(holey);
    const second = mdlEmbeddedMaterials(m, 'x.mdl', DEFAULT_QUAKE_PALETTE, { picture: 2 });
    expect(second.materials.map((x) => x.diffuse?.path)).toEqual(['x.mdl/skin0', 'x.mdl/skin1_2']);
    const pic = mdlSkinPicture(m, 3);
    expect(second.pixels.get('x.mdl/skin1_2')!.rgba).toEqual(pic.base);
    // index 255 drawn transparent (MF_HOLEY), everything else opaque
    const idx = m.skinPixels.subarray(3 * 32, 4 * 32);
    for (let i = 0; i < 32; i++) expect(pic.rgba[4 * i + 3]).toBe(idx[i] === 255 ? 0 : 255);
  });
});

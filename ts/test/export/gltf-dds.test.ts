/**
 * DDS in a .glb (glTF carries PNG and JPEG): the drone md5mesh, whose md5.cfg names `"<dds>skin.jpg"`, in a folder
 * that holds a skin.dds (a real DXT1 and a real DXT5 from ../shared/models/actors-iqm/player standing in) — the
 * resolver picks the .dds as Tesseract does, the exporter decodes it and embeds a PNG whose pixels (read back with
 * fast-png) are Pillow's decode of the DDS; the Khronos validator accepts the file. And a PNG whose ancillary chunk
 * has a bad CRC (the corpus's roller_mask.png) is embedded as libpng reads it: without that chunk.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ParseWarning } from '../../src/base/errors.js';
import { toGlb } from '../../src/registry/gltf.js';
import { ImageConverter } from '../../src/export/image-convert.js';
import { parseMd5Mesh } from '../../src/formats/md5/index.js';
import { pngInfo } from '../../src/images/png-info.js';
import { resolveModelTextures } from '../../src/registry/textures.js';
import { memoryFileSystem } from '../../src/vfs/memory.js';
import { read, SHARED_MODELS } from '../helpers/models.js';
import { pngRgba, readGlb } from '../helpers/textured.js';
import { firstDifference } from '../images/compare.js';
import { isPillowImage, pillowDecodeBytes, pillowDecodeFiles, type PillowImage } from '../images/pillow.js';
import { expectClean, validate } from './validate.js';

const DRONE = join(SHARED_MODELS, 'actors/drone');
const PLAYER = join(SHARED_MODELS, 'actors-iqm/player');
const results: string[] = [];

describe('a DDS skin in a .glb', () => {
  for (const dds of ['diffuse.dds', 'mask.dds']) {
    test(`drone with "<dds>skin.jpg" and ${dds} as its skin.dds: a PNG of Pillow's pixels, validator-clean`, async () => {
      const bytes = read(join(PLAYER, dds));
      const fs = memoryFileSystem([
        ...['mesh.md5mesh', 'md5.cfg', 'skin.jpg', 'mask.jpg', 'normals.png'].map((f) => ({ path: `drone/${f}`, bytes: read(join(DRONE, f)) })),
        { path: 'drone/skin.dds', bytes },
      ]);
      const mesh = parseMd5Mesh(read(join(DRONE, 'mesh.md5mesh')));
      const textures = await resolveModelTextures(fs, mesh, 'drone/mesh.md5mesh');
      expect(textures.materials.map((m) => m.diffuse?.path)).toEqual(['drone/skin.dds', 'drone/skin.dds']);
      expect(textures.materials[0].others[0].tried).toEqual(['drone/mask.dds', 'drone/mask.jpg']); // "<dds>mask.jpg": no mask.dds here
      const warnings: ParseWarning[] = [];
      const glb = await toGlb(mesh, { textures, warnings, name: 'drone' });
      expectClean(results, `drone + ${dds}`, await validate(glb));
      const { json, bin } = readGlb(glb);
      const mat = json.materials.find((x: any) => x.extras?.image === 'drone/skin.dds');
      const image = json.images[json.textures[mat.pbrMetallicRoughness.baseColorTexture.index].source];
      expect(image.mimeType).toBe('image/png');
      const view = json.bufferViews[image.bufferView];
      const back = pngRgba(bin.subarray(view.byteOffset, view.byteOffset + view.byteLength));
      const ref = (await pillowDecodeFiles([join(PLAYER, dds)]))[0] as PillowImage;
      expect([back.width, back.height]).toEqual([ref.width, ref.height]);
      expect(firstDifference(back.rgba, ref.rgba, back.width)).toBe('');
    });
  }
});

describe('a PNG with a bad ancillary-chunk CRC', () => {
  test('roller_mask.png (iCCP) is embedded without the chunk, as libpng reads it: Pillow, which refuses the original, reads the copy', async () => {
    const path = 'actors-iqm/roller/roller_mask.png';
    const bytes = read(join(SHARED_MODELS, path));
    const info = pngInfo(bytes);
    expect(info.badAncillary.map((c) => c.type)).toEqual(['iCCP']);
    const warnings: ParseWarning[] = [];
    const out = new ImageConverter(new Map([[path, bytes]]), warnings).get(path)!;
    expect(warnings).toEqual([]);
    expect(out.bytes.length).toBe(bytes.length - info.badAncillary[0].bytes);
    expect(pngInfo(out.bytes).warnings).toEqual([]);
    const { 'original.png': original, 'copy.png': copy } = await pillowDecodeBytes({ 'original.png': bytes, 'copy.png': out.bytes });
    // pillow.py drops bad ancillary chunks the way libpng does; on the copy there is nothing left to drop
    expect(isPillowImage(original) && original.dropped).toEqual(['iCCP']);
    expect(isPillowImage(copy) && copy.dropped).toEqual([]);
    expect(firstDifference((copy as PillowImage).rgba, (original as PillowImage).rgba, out.width)).toBe('');
  });
});

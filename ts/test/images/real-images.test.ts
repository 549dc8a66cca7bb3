/**
 * Every image of the shared corpus (MANIFEST format `image`): TGA, PCX and BMP decode to exactly Pillow's pixels;
 * PNG and JPEG pass through with the size, alpha, interlace and coding Pillow reports, and the size the MANIFEST
 * notes give.
 */
import { extname } from 'node:path';
import { describe, expect, test } from 'vitest';
import { decodeImage, readImageInfo } from '../../src/images/decode.js';
import { jpegInfo } from '../../src/images/jpeg-info.js';
import { pngInfo } from '../../src/images/png-info.js';
import { manifest, read } from '../helpers/models.js';
import { firstDifference } from './compare.js';
import { isPillowImage, pillowDecodeFiles, type PillowImage } from './pillow.js';

const images = manifest().filter((r) => r.format === 'image');
const pillow = new Map(pillowDecodeFiles(images.map((r) => r.absPath)).map((p, i) => [images[i].path, p]));
const ext = (p: string) => extname(p).slice(1).toLowerCase();

describe('real images', () => {
  test('the corpus has every format this floor reads', () => {
    expect(new Set(images.map((r) => ext(r.path)))).toEqual(new Set(['tga', 'pcx', 'bmp', 'png', 'jpg']));
  });

  for (const row of images.filter((r) => ['tga', 'pcx', 'bmp'].includes(ext(r.path)))) {
    test(`${row.path} decodes to Pillow's pixels`, () => {
      const p = pillow.get(row.path)!;
      expect(isPillowImage(p), JSON.stringify(p)).toBe(true);
      const ref = p as PillowImage;
      const img = decodeImage(read(row.absPath), row.path);
      expect(img.kind).toBe('rgba');
      if (img.kind !== 'rgba') return;
      expect([img.width, img.height]).toEqual([ref.width, ref.height]);
      expect(firstDifference(img.rgba, ref.rgba, img.width)).toBe('');
      // The size the MANIFEST notes state (written when the corpus was gathered, by another tool).
      const noted = /(\d+)x(\d+)/.exec(row.notes.replace(/^.*?(TGA|PCX|BMP)/, ''));
      expect(noted && [Number(noted[1]), Number(noted[2])]).toEqual([img.width, img.height]);
    });
  }

  for (const row of images.filter((r) => ['png', 'jpg'].includes(ext(r.path)))) {
    test(`${row.path} passes through with Pillow's header facts`, () => {
      const bytes = read(row.absPath);
      const ref = pillow.get(row.path) as PillowImage;
      const img = decodeImage(bytes, row.path);
      expect(img.kind).toBe('passthrough');
      if (img.kind !== 'passthrough') return;
      expect(img.bytes).toBe(bytes);
      expect([img.width, img.height]).toEqual([ref.width, ref.height]);
      expect(img.warnings).toEqual([]);
      if (img.format === 'png') {
        const info = pngInfo(bytes);
        const pillowAlpha = ref.mode === 'RGBA' || ref.mode === 'LA' || 'transparency' in ref.info;
        expect(info.hasAlpha).toBe(pillowAlpha);
        expect(info.interlaced).toBe(ref.info.interlace === 1);
        expect(info.colorType === 3).toBe(ref.mode === 'P');
      } else {
        const info = jpegInfo(bytes);
        expect(ref.format).toBe('JPEG');
        expect(info.progressive).toBe(ref.info.progressive === 1 || ref.info.progression === 1);
        expect(info.components).toBe({ L: 1, RGB: 3, CMYK: 4 }[ref.mode]);
      }
      const noted = /(\d+)x(\d+)/.exec(row.notes);
      expect(noted && [Number(noted[1]), Number(noted[2])]).toEqual([img.width, img.height]);
      expect(readImageInfo(bytes).format).toBe(img.format);
    });
  }
});

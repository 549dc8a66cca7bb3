/**
 * The variants the corpus lacks (fixtures/generate-images.mjs: uncompressed and RLE TGA of every type and depth,
 * every origin, colour maps; PCX with padding, a window, 24 bits, no palette marker; BMP 1/4/8/24/32-bit, both row
 * orders, a core header): each decodes to the pixels it was made from, to Pillow's pixels where Pillow reads the
 * variant as the engines and the TGA specification do, and reports the warnings it should.
 */
import { describe, expect, test } from 'vitest';
import { decodeImage, readImageInfo } from '../../src/images/decode.js';
import { imageFixtures } from '../../../fixtures/generate-images.mjs';
import { firstDifference } from './compare.js';
import { isPillowImage, pillowDecodeBytes, pillowError, type PillowImage } from './pillow.js';

interface Fixture {
  name: string;
  bytes: Uint8Array;
  rgba: Uint8Array;
  width: number;
  height: number;
  pillow: 'exact' | 'rgb' | 'none';
  warnings: string[];
}

const fixtures = imageFixtures() as Fixture[];
const pillow = await pillowDecodeBytes(Object.fromEntries(fixtures.map((f) => [f.name, f.bytes])));

const withoutAlpha = (rgba: Uint8Array) => rgba.filter((_, i) => (i & 3) !== 3);

describe('generated image fixtures', () => {
  test('cover every TGA type, 8 to 32 bits, every origin; PCX 8/24-bit; BMP 1 to 32 bits', () => {
    const tga = fixtures.filter((f) => f.name.endsWith('.tga')).map((f) => [f.bytes[2], f.bytes[16], f.bytes[17] & 0x30]);
    expect(new Set(tga.map((t) => t[0]))).toEqual(new Set([1, 2, 3, 9, 10, 11]));
    expect(new Set(tga.map((t) => t[1]))).toEqual(new Set([8, 15, 16, 24, 32]));
    expect(new Set(tga.map((t) => t[2]))).toEqual(new Set([0x00, 0x10, 0x20, 0x30]));
    expect(new Set(fixtures.filter((f) => f.name.endsWith('.pcx')).map((f) => f.bytes[65]))).toEqual(new Set([1, 3]));
    expect(new Set(fixtures.filter((f) => f.name.endsWith('.bmp')).map((f) => f.bytes[f.bytes[14] === 12 ? 24 : 28]))).toEqual(new Set([1, 4, 8, 24, 32]));
  });

  for (const f of fixtures) {
    test(`${f.name}: the pixels it encodes${f.pillow === 'none' ? '' : f.pillow === 'exact' ? ', = Pillow' : ', RGB = Pillow'}`, () => {
      const img = decodeImage(f.bytes, f.name);
      expect(img.kind).toBe('rgba');
      if (img.kind !== 'rgba') return;
      expect([img.width, img.height]).toEqual([f.width, f.height]);
      expect(firstDifference(img.rgba, f.rgba, f.width)).toBe('');
      expect(img.warnings.map((w) => w.code).sort()).toEqual([...f.warnings].sort());
      const info = readImageInfo(f.bytes, f.name);
      expect([info.width, info.height]).toEqual([f.width, f.height]);

      const p = pillow[f.name];
      if (f.pillow === 'none') return;
      expect(isPillowImage(p), pillowError(p)).toBe(true);
      const ref = p as PillowImage;
      expect([ref.width, ref.height]).toEqual([f.width, f.height]);
      if (f.pillow === 'exact') expect(firstDifference(img.rgba, ref.rgba, f.width)).toBe('');
      else expect(Buffer.from(withoutAlpha(img.rgba)).equals(Buffer.from(withoutAlpha(ref.rgba)))).toBe(true);
    });
  }

  test("the variants Pillow reads differently, and how ('rgb': alpha differs by design; 'none': it refuses or reads grey)", () => {
    const differs = fixtures.filter((f) => f.pillow !== 'exact').map((f) => {
      const p = pillow[f.name];
      if (!isPillowImage(p)) return `${f.name}: refused`;
      return `${f.name}: ${p.mode}${firstDifference(p.rgba, f.rgba, f.width) ? '' : ' (same pixels)'}`;
    });
    // Pillow 16-bit TGA: bit 15 set means transparent (rawmode BGRA;15Z); 32-bit BMP: alpha byte ignored (BGRX);
    // a PCX without its 0x0C marker: the indices read as grey; depth 15, type 3 at 32 bpp and RLE packets that cross
    // rows (ioquake3 reads them; the TGA 2.0 specification forbids them): not read.
    expect(differs).toEqual([
      'tga-type10-32-packets-cross-rows.tga: refused',
      'tga-type2-16-alpha.tga: RGBA',
      'tga-type2-16-opaque.tga: RGBA',
      'tga-type2-15.tga: refused',
      'tga-type10-16-alpha.tga: RGBA',
      'tga-type3-32-as-engines.tga: refused',
      'tga-type1-map16.tga: P',
      'tga-type1-map15.tga: refused',
      'pcx-8-no-marker.pcx: L',
      'bmp-32-alpha.bmp: RGB',
    ]);
  });
});

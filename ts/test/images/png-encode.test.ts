/**
 * encodePng is lossless and picks the smallest colour type: every real skin (decoded by us, or by Pillow for the
 * PNG/JPEG ones) and a set of made-up pixel sets go through it and come back from Pillow byte for byte.
 */
import { describe, expect, test } from 'vitest';
import { decodeImage } from '../../src/images/decode.js';
import { encodePng } from '../../src/images/png-encode.js';
import { pngInfo } from '../../src/images/png-info.js';
import { manifest, read } from '../helpers/models.js';
import { isPillowImage, pillowDecodeBytes, pillowDecodeFiles, pillowError, type PillowImage } from './pillow.js';
import { firstDifference } from './compare.js';

const images = manifest().filter((r) => r.format === 'image');

/**
 * Real pixels: every TGA/PCX/BMP of the corpus (decoded by us) and, decoded by Pillow, one PNG or JPEG of each kind
 * the corpus has (palette + tRNS, RGB, RGBA, grey JPEG, colour JPEG): encoding every 1024² one would only cost time.
 */
const PILLOW_DECODED = ['stasis/bubbles.png', 'stasis/chamber.png', 'stasis/flowpipe.png', 'nexus6/computer.blend.jpg', 'portal/bluering.jpg'];

async function realRgba(): Promise<{ name: string; width: number; height: number; rgba: Uint8Array }[]> {
  const ours = images.filter((r) => /\.(tga|pcx|bmp)$/i.test(r.path));
  const theirs = images.filter((r) => PILLOW_DECODED.some((p) => r.path.endsWith(p)));
  if (theirs.length !== PILLOW_DECODED.length) throw new Error(`corpus lacks one of ${PILLOW_DECODED}`);
  const decoded = ours.map((r) => {
    const img = decodeImage(read(r.absPath), r.path);
    if (img.kind !== 'rgba') throw new Error(`${r.path} did not decode to pixels`);
    return { name: r.path, width: img.width, height: img.height, rgba: img.rgba };
  });
  const pillow = (await pillowDecodeFiles(theirs.map((r) => r.absPath))).map((p, i) => {
    if (!isPillowImage(p)) throw new Error(`${theirs[i].path}: ${p.error}`);
    return { name: theirs[i].path, width: p.width, height: p.height, rgba: p.rgba };
  });
  return [...decoded, ...pillow];
}

/** Made-up pixel sets, each aimed at one colour type or packing. */
function madeUp(): { name: string; width: number; height: number; rgba: Uint8Array; colorType: number; bitDepth: number }[] {
  const fill = (w: number, h: number, f: (x: number, y: number) => [number, number, number, number]) => {
    const rgba = new Uint8Array(w * h * 4);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rgba.set(f(x, y), (y * w + x) * 4);
    return rgba;
  };
  return [
    { name: 'two-colour-odd-width', width: 13, height: 5, rgba: fill(13, 5, (x, y) => ((x + y) & 1 ? [255, 0, 0, 255] : [0, 0, 255, 255])), colorType: 3, bitDepth: 1 },
    { name: 'four-colour', width: 7, height: 3, rgba: fill(7, 3, (x) => [x & 3, 0, 0, 255]), colorType: 3, bitDepth: 2 },
    { name: 'sixteen-colour-translucent', width: 9, height: 9, rgba: fill(9, 9, (x, y) => [x * 20, y * 20, 0, (x + y) % 3 === 0 ? 0 : 255]), colorType: 3, bitDepth: 8 },
    { name: 'twelve-colours', width: 5, height: 7, rgba: fill(5, 7, (x, y) => [(x * 7 + y) % 12, 10, 10, 255]), colorType: 3, bitDepth: 4 },
    { name: 'grey-gradient', width: 300, height: 2, rgba: fill(300, 2, (x) => [x & 255, x & 255, x & 255, 255]), colorType: 0, bitDepth: 8 },
    { name: 'grey-with-alpha', width: 300, height: 3, rgba: fill(300, 3, (x, y) => [x & 255, x & 255, x & 255, (x * y) & 255]), colorType: 4, bitDepth: 8 },
    { name: 'rgb-many-colours', width: 64, height: 64, rgba: fill(64, 64, (x, y) => [x * 4, y * 4, (x ^ y) * 4, 255]), colorType: 2, bitDepth: 8 },
    { name: 'rgba-many-colours', width: 64, height: 64, rgba: fill(64, 64, (x, y) => [x * 4, y * 4, 7, (x * y) & 255]), colorType: 6, bitDepth: 8 },
    { name: 'one-pixel', width: 1, height: 1, rgba: Uint8Array.of(1, 2, 3, 4), colorType: 3, bitDepth: 1 },
  ];
}

const real = await realRgba();
const made = madeUp();
const encoded: Record<string, Uint8Array> = {};
for (const x of [...real, ...made]) encoded[`${x.name.replace(/\W+/g, '_')}.png`] = encodePng(x.rgba, x.width, x.height);
const forced = Object.fromEntries(made.map((x) => [`${x.name}_rgba.png`, encodePng(x.rgba, x.width, x.height, { rgba: true })]));
const back = await pillowDecodeBytes({ ...encoded, ...forced });

describe('encodePng', () => {
  for (const x of real) {
    test(`${x.name}: Pillow reads our PNG back pixel for pixel`, () => {
      const p = back[`${x.name.replace(/\W+/g, '_')}.png`];
      expect(isPillowImage(p), pillowError(p)).toBe(true);
      expect([(p as PillowImage).width, (p as PillowImage).height]).toEqual([x.width, x.height]);
      expect(firstDifference((p as PillowImage).rgba, x.rgba, x.width)).toBe('');
    });
  }

  test('real skins get the colour type their pixels need', () => {
    for (const x of real) {
      // What the pixels need, counted here: ≤ 256 colours → palette (unless grey and opaque); else grey (+ alpha),
      // RGB when opaque, RGBA.
      const colors = new Set<number>();
      let grey = true;
      let opaque = true;
      for (let i = 0; i < x.rgba.length; i += 4) {
        const [r, g, b, a] = x.rgba.subarray(i, i + 4);
        colors.add(((r << 24) | (g << 16) | (b << 8) | a) >>> 0);
        grey &&= r === g && g === b;
        opaque &&= a === 255;
      }
      const want = grey && opaque ? 0 : colors.size <= 256 ? 3 : grey ? 4 : opaque ? 2 : 6;
      expect(pngInfo(encoded[`${x.name.replace(/\W+/g, '_')}.png`]).colorType, `${x.name}: ${colors.size} colours, grey ${grey}, opaque ${opaque}`).toBe(want);
    }
    // The corpus exercises most of them: Quake 2 PCX skins (palette), JPEG skins (RGB), the grey JPEG, RGBA TGA maps.
    const kinds = new Set(real.map((x) => pngInfo(encoded[`${x.name.replace(/\W+/g, '_')}.png`]).colorType));
    expect([...kinds].sort()).toEqual([0, 2, 3, 6]);
  });

  for (const x of made) {
    test(`${x.name}: colour type ${x.colorType}, ${x.bitDepth}-bit, lossless (also when forced to RGBA)`, () => {
      const png = encoded[`${x.name.replace(/\W+/g, '_')}.png`];
      const info = pngInfo(png);
      expect([info.colorType, info.bitDepth, info.width, info.height]).toEqual([x.colorType, x.bitDepth, x.width, x.height]);
      for (const key of [`${x.name.replace(/\W+/g, '_')}.png`, `${x.name}_rgba.png`]) {
        const p = back[key];
        expect(isPillowImage(p), pillowError(p)).toBe(true);
        expect(firstDifference((p as PillowImage).rgba, x.rgba, x.width), key).toBe('');
      }
      expect(pngInfo(forced[`${x.name}_rgba.png`]).colorType).toBe(6);
    });
  }

  test('a size that does not match the pixels is a RangeError', () => {
    expect(() => encodePng(new Uint8Array(12), 2, 2)).toThrow(RangeError);
    expect(() => encodePng(new Uint8Array(0), 0, 0)).toThrow(RangeError);
    expect(() => encodePng(new Uint8Array(8), 1.5, 2)).toThrow(RangeError);
  });
});

/**
 * Every image of the shared corpus (MANIFEST format `image`), whatever it holds: each is read by a decoder of this
 * floor — its format found from its bytes, and the one its extension names, as the engines pick a loader by extension
 * (ioquake3 and Doom 3 `R_LoadImage`) — or refused as a format the floor does not read. The decoded ones (TGA, PCX,
 * BMP, DDS) give exactly Pillow's pixels; PNG and JPEG pass through with the size, alpha, interlace and coding Pillow
 * reports, a PNG's chunks read with libpng's CRC rule (pillow.py: a bad CRC on an ancillary chunk drops the chunk, as
 * libpng and browsers do); sizes and DDS variants are also checked against the MANIFEST notes.
 */
import { describe, expect, test } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { decodeImage, readImageInfo } from '../../src/images/decode.js';
import { readDdsHeader } from '../../src/images/dds.js';
import { detectImageFormat, imageFormatFromName } from '../../src/images/detect.js';
import { jpegInfo } from '../../src/images/jpeg-info.js';
import { pngInfo } from '../../src/images/png-info.js';
import { manifest, read } from '../helpers/models.js';
import { firstDifference } from './compare.js';
import { isPillowImage, pillowDecodeFiles, pillowError, type PillowImage } from './pillow.js';

const images = manifest().filter((r) => r.format === 'image');
const pillow = new Map((await pillowDecodeFiles(images.map((r) => r.absPath))).map((p, i) => [images[i].path, p]));
const formats = new Map(images.map((r) => [r.path, detectImageFormat(read(r.absPath), r.path)]));
const decoded = images.filter((r) => ['tga', 'pcx', 'bmp', 'dds'].includes(formats.get(r.path) ?? ''));
const passed = images.filter((r) => ['png', 'jpeg'].includes(formats.get(r.path) ?? ''));

const refOf = (path: string): PillowImage => {
  const p = pillow.get(path)!;
  expect(isPillowImage(p), pillowError(p)).toBe(true);
  return p as PillowImage;
};

/**
 * A DXT1 DDS without DDPF_ALPHAPIXELS is uploaded by Doom 3 and Tesseract as the RGB format: a three-colour block's
 * fourth entry is opaque black there, transparent black in Pillow (which has no RGB mode for DXT1).
 */
function engineAlpha(bytes: Uint8Array, ref: Uint8Array): Uint8Array {
  const h = readDdsHeader(bytes);
  if (h.encoding.kind !== 'bc1' || h.encoding.punchThrough) return ref;
  return ref.map((v, i) => ((i & 3) === 3 && v === 0 ? 255 : v));
}

describe('real images', () => {
  test('every image in the corpus is read by a decoder of this floor (the format its bytes and its name agree on), or refused as a format it does not read', () => {
    const refused: string[] = [];
    for (const row of images) {
      const bytes = read(row.absPath);
      const format = formats.get(row.path);
      if (!format) {
        // Not a format of this floor: the front door must say so with a typed error, not guess.
        let code = '';
        try {
          decodeImage(bytes, row.path);
        } catch (e) {
          code = e instanceof ModelParseError ? e.code : String(e);
        }
        expect(['UNSUPPORTED', 'BAD_MAGIC']).toContain(code);
        refused.push(row.path);
        continue;
      }
      expect(imageFormatFromName(row.path), row.path).toBe(format);
      expect(readImageInfo(bytes, row.path).format).toBe(format);
      expect(decodeImage(bytes, row.path).format).toBe(format);
    }
    // Every file is one or the other; the ones read are all compared below.
    expect(decoded.length + passed.length + refused.length).toBe(images.length);
    expect(decoded.length + passed.length).toBeGreaterThan(0);
  });

  for (const row of decoded) {
    test(`${row.path} decodes to Pillow's pixels`, () => {
      const ref = refOf(row.path);
      const bytes = read(row.absPath);
      const img = decodeImage(bytes, row.path);
      expect(img.kind).toBe('rgba');
      if (img.kind !== 'rgba') return;
      expect([img.width, img.height]).toEqual([ref.width, ref.height]);
      const want = img.format === 'dds' ? engineAlpha(bytes, ref.rgba) : ref.rgba;
      expect(firstDifference(img.rgba, want, img.width)).toBe('');
      // The size the MANIFEST notes state (written when the corpus was gathered, by another tool), and a DDS's variant.
      const noted = /(\d+)x(\d+)/.exec(row.notes.replace(/^.*?(TGA|PCX|BMP|DDS)/, ''));
      expect(noted && [Number(noted[1]), Number(noted[2])]).toEqual([img.width, img.height]);
      if (img.format === 'dds') expect(row.notes).toContain(readDdsHeader(bytes).variant);
    });
  }

  for (const row of passed) {
    test(`${row.path} passes through with Pillow's header facts (libpng's CRC rule for PNG chunks)`, () => {
      const bytes = read(row.absPath);
      const ref = refOf(row.path);
      const img = decodeImage(bytes, row.path);
      expect(img.kind).toBe('passthrough');
      if (img.kind !== 'passthrough') return;
      expect(img.bytes).toBe(bytes);
      expect([img.width, img.height]).toEqual([ref.width, ref.height]);
      if (img.format === 'png') {
        const info = pngInfo(bytes);
        // The chunks libpng drops for a bad CRC are the ones we warn about, and nothing else is warned about.
        expect(info.badAncillary.map((c) => c.type)).toEqual(ref.dropped);
        expect(img.warnings.map((w) => w.code)).toEqual(ref.dropped.map(() => 'ANCILLARY_CRC'));
        const pillowAlpha = ref.mode === 'RGBA' || ref.mode === 'LA' || 'transparency' in ref.info;
        expect(info.hasAlpha).toBe(pillowAlpha);
        expect(info.interlaced).toBe(ref.info.interlace === 1);
        expect(info.colorType === 3).toBe(ref.mode === 'P');
      } else {
        expect(img.warnings).toEqual([]);
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

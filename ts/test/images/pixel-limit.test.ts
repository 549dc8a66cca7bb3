/**
 * Decoded pixels are bounded (`maxImagePixels`, default 8192 × 8192; images/dimensions.ts `checkPixels`): an RLE
 * TGA declaring 23170 × 23170 — the largest square ioquake3's R_LoadTGA accepts, 2 GB of RGBA from 8 MB of RLE — is
 * RESOURCE_LIMIT before its output is allocated; the bound is overridable per call and process-wide, and applies to
 * TGA, PCX and BMP alike (real files of the corpus at their exact pixel count).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { resetResourceLimits, setResourceLimits } from '../../src/base/resource-limits.js';
import { decodeImage, readImageInfo } from '../../src/images/decode.js';
import { shared } from '../helpers/cli.js';
import { refusal } from '../helpers/failure.js';

afterEach(() => resetResourceLimits());

/** An RLE grey TGA (type 11, 8 bpp) of `w` × `h`, every packet a 128-pixel run: 2 bytes per 128 pixels. */
function rleTga(w: number, h: number, grey = 0x80): Uint8Array {
  const packets = Math.ceil((w * h) / 128);
  const b = new Uint8Array(18 + 2 * packets);
  b[2] = 11;
  b[12] = w & 0xff;
  b[13] = w >> 8;
  b[14] = h & 0xff;
  b[15] = h >> 8;
  b[16] = 8;
  b[17] = 0x20; // top-left origin
  for (let i = 0; i < packets; i++) {
    b[18 + 2 * i] = 0xff; // run of 128
    b[19 + 2 * i] = grey;
  }
  return b;
}


describe('maxImagePixels', () => {
  it('an RLE TGA declaring 23170 × 23170 (8 MB of packets) is RESOURCE_LIMIT before 2 GB is allocated', () => {
    const tga = rleTga(23170, 23170);
    expect(tga.length).toBeLessThan(8.5e6);
    expect(readImageInfo(tga, 'x.tga')).toMatchObject({ width: 23170, height: 23170 }); // the header alone is fine
    const before = process.memoryUsage().arrayBuffers;
    const e = refusal(() => decodeImage(tga, 'x.tga'));
    expect([e.code, e.offset, e.detail]).toEqual(['RESOURCE_LIMIT', 12, 'TGA image is 23170×23170, 536848900 pixels: over the limit maxImagePixels = 67108864 (raise it with --limit maxImagePixels=N, or the maxImagePixels option)']);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 << 20);
  });

  it('the bound is exact and overridable: per call, and process-wide (what --limit sets)', () => {
    const tga = rleTga(1024, 512, 0x40);
    expect(refusal(() => decodeImage(tga, 'x.tga', { maxImagePixels: 1024 * 512 - 1 })).code).toBe('RESOURCE_LIMIT');
    const img = decodeImage(tga, 'x.tga', { maxImagePixels: 1024 * 512 });
    expect(img.kind === 'rgba' && [img.width, img.height, img.rgba[0], img.rgba[img.rgba.length - 1]]).toEqual([1024, 512, 0x40, 255]);
    setResourceLimits({ maxImagePixels: 1000 });
    expect(refusal(() => decodeImage(tga, 'x.tga')).detail).toMatch(/over the limit maxImagePixels = 1000 /);
    expect(decodeImage(tga, 'x.tga', { maxImagePixels: Infinity }).width).toBe(1024); // the call's own option wins
  });

  it('PCX and BMP are held to it too: the corpus files refused one pixel under their size, decoded at it', () => {
    for (const [path, w, h] of [['distrib/baseaq/pak0/models/indicator/arrow_blue.pcx', 128, 128], ['assimp/test/models-nonbsd/MD2/dolphin_f.bmp', 0, 0]] as const) {
      const bytes = new Uint8Array(readFileSync(shared(path)));
      const info = readImageInfo(bytes, path);
      if (w) expect([info.width, info.height]).toEqual([w, h]);
      const pixels = info.width * info.height;
      const e = refusal(() => decodeImage(bytes, path, { maxImagePixels: pixels - 1 }));
      expect([e.code, e.detail]).toEqual(['RESOURCE_LIMIT', expect.stringMatching(new RegExp(`^(PCX|BMP) image is ${info.width}×${info.height}, ${pixels} pixels: over the limit maxImagePixels = ${pixels - 1} `))]);
      expect(decodeImage(bytes, path, { maxImagePixels: pixels }).width).toBe(info.width);
    }
  });
});

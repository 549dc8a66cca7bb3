/**
 * Malformed images: each defect gives ModelParseError with its code at the byte that is wrong (or at the end of
 * the file for data that ran out), before any large allocation. Bases are real corpus files and the generated
 * fixtures, edited one field at a time.
 */
import { describe, expect, test } from 'vitest';
import { ModelParseError } from '../../src/base/errors.js';
import { decodeImage, readImageInfo } from '../../src/images/decode.js';
import { jpegInfo } from '../../src/images/jpeg-info.js';
import { pcxPalette } from '../../src/images/pcx.js';
import { ddsFixtures } from '../../../fixtures/generate-dds.mjs';
import { imageFixtures } from '../../../fixtures/generate-images.mjs';
import { metered } from '../fuzz/alloc-meter.js';
import { read, SHARED_MODELS } from '../helpers/models.js';

const fixture = (name: string): Uint8Array => {
  const f = (imageFixtures() as { name: string; bytes: Uint8Array }[]).find((x) => x.name === name);
  if (!f) throw new Error(`no fixture ${name}`);
  return f.bytes.slice();
};
const real = (path: string) => read(`${SHARED_MODELS}/${path}`);
const TGA_RLE = 'aaa-assets/models/weapons/grenade_launcher/launcher_n.tga';
const PCX = 'distrib/baseaq/pak0/models/indicator/arrow_blue.pcx';
const PNG_PALETTE = 'res-tremulous_src.dpkdir/models/mapobjects/stasis/bubbles.png';
const JPEG = 'aaa-assets/gfx/portalgun/red_1.jpg';

/** A copy of `bytes` with `values` written from byte `at`. */
function edit(bytes: Uint8Array, at: number, ...values: number[]): Uint8Array {
  const out = bytes.slice();
  out.set(values, at);
  return out;
}

function error(fn: () => unknown): { code: string; offset: number } {
  try {
    fn();
  } catch (e) {
    if (e instanceof ModelParseError) return { code: e.code, offset: e.offset };
    throw e;
  }
  throw new Error('no error');
}

describe('malformed TGA', () => {
  const t24 = fixture('tga-type2-24-bottom-left.tga');
  const mapped = fixture('tga-type1-map24.tga');
  const cases: [string, Uint8Array, string, number][] = [
    ['empty', new Uint8Array(0), 'TRUNCATED', 0],
    ['a 17-byte header', t24.subarray(0, 17), 'TRUNCATED', 17],
    ['colour map type 2', edit(t24, 1, 2), 'UNSUPPORTED', 1],
    ['image type 32 (Huffman)', edit(t24, 2, 32), 'UNSUPPORTED', 2],
    ['type 2 with 8-bit pixels', edit(t24, 16, 8), 'UNSUPPORTED', 16],
    ['type 1 without a colour map', edit(mapped, 1, 0), 'MISSING_BLOCK', 1],
    ['20-bit colour map entries', edit(mapped, 7, 20), 'UNSUPPORTED', 7],
    ['width 0', edit(t24, 12, 0, 0), 'BAD_COUNT', 12],
    ['an ID field past the end', edit(t24.subarray(0, 40), 0, 200), 'TRUNCATED', 40],
    ['a colour map cut short', mapped.subarray(0, 18 + 60), 'TRUNCATED', 78],
    ['pixel data one byte short', t24.subarray(0, t24.length - 1), 'TRUNCATED', t24.length - 1],
    ['RLE data cut inside a packet', real(TGA_RLE).subarray(0, 5000), 'TRUNCATED', 5000],
    ['an index outside the colour map', edit(mapped, 18 + 40 * 3 + 5, 41), 'INDEX_OUT_OF_RANGE', 18 + 40 * 3 + 5],
  ];
  for (const [what, bytes, code, offset] of cases) {
    test(`${what}: ${code} at byte ${offset}`, () => expect(error(() => decodeImage(bytes, 'x.tga'))).toEqual({ code, offset }));
  }

  test('65535×65535 declared by a 600-byte RLE file: TRUNCATED before allocating its 17 GB', () => {
    const small = edit(real(TGA_RLE).subarray(0, 600), 12, 0xff, 0xff, 0xff, 0xff);
    const run = metered(() => decodeImage(small, 'x.tga'));
    expect((run.error as ModelParseError).code).toBe('BAD_COUNT'); // over ioquake3's 0x7FFFFFFF-byte limit first
    const fits = edit(real(TGA_RLE).subarray(0, 600), 12, 0x00, 0x40, 0x00, 0x40); // 16384² = 1 GiB of RGBA
    const run2 = metered(() => decodeImage(fits, 'x.tga'));
    expect((run2.error as ModelParseError).code).toBe('TRUNCATED');
    expect(run.bytes + run2.bytes).toBeLessThan(4096);
  });
});

describe('malformed PCX', () => {
  const pcx = real(PCX);
  const cases: [string, Uint8Array, string, number][] = [
    ['manufacturer 0x0B', edit(pcx, 0, 0x0b), 'BAD_MAGIC', 0],
    ['version 3', edit(pcx, 1, 3), 'BAD_VERSION', 1],
    ['encoding 0', edit(pcx, 2, 0), 'UNSUPPORTED', 2],
    ['4 bits per pixel', edit(pcx, 3, 4), 'UNSUPPORTED', 3],
    ['4 planes', edit(pcx, 65, 4), 'UNSUPPORTED', 65],
    ['xmax below xmin', edit(pcx, 4, 200, 0), 'BAD_COUNT', 4],
    ['no room for the palette', pcx.subarray(0, 600), 'TRUNCATED', 600],
    ['60000 rows in 2 KB', edit(pcx, 10, 0x60, 0xea), 'TRUNCATED', pcx.length],
    ['24-bit data cut short', fixture('pcx-24.pcx').subarray(0, 700), 'TRUNCATED', 700],
  ];
  for (const [what, bytes, code, offset] of cases) {
    test(`${what}: ${code} at byte ${offset}`, () => expect(error(() => decodeImage(bytes, 'x.pcx'))).toEqual({ code, offset }));
  }

  test('pixel data that runs into the palette is read, as Quake 2 reads it, with a warning', () => {
    // Drop the last 40 bytes of RLE data: the decoder runs on into the palette bytes, as Quake 2 LoadPCX does.
    const cut = Uint8Array.from([...pcx.subarray(0, pcx.length - 769 - 40), ...pcx.subarray(pcx.length - 769)]);
    const img = decodeImage(cut, 'x.pcx');
    expect(img.warnings.map((w) => w.code)).toEqual(['PIXELS_IN_PALETTE']);
  });

  test("pcxPalette is the file's last 768 bytes; a palette and transparent index replace the file's", () => {
    const palette = pcxPalette(pcx);
    expect(Array.from(palette)).toEqual(Array.from(pcx.subarray(pcx.length - 768)));
    const grey = Uint8Array.from({ length: 768 }, (_, i) => Math.floor(i / 3));
    const plain = decodeImage(pcx, 'x.pcx');
    const custom = decodeImage(pcx, 'x.pcx', { pcx: { palette: grey, transparentIndex: 255 } });
    if (plain.kind !== 'rgba' || custom.kind !== 'rgba') throw new Error('not pixels');
    // Same indices, other colours: each pixel of the custom decode is grey = its index, alpha 0 exactly at index 255.
    const indexOf = new Map<string, number>();
    for (let i = 0; i < 256; i++) indexOf.set(Array.from(palette.subarray(i * 3, i * 3 + 3)).join(), i);
    let transparent = 0;
    for (let p = 0; p < plain.rgba.length; p += 4) {
      const v = custom.rgba[p];
      expect([custom.rgba[p + 1], custom.rgba[p + 2]]).toEqual([v, v]);
      expect(Array.from(palette.subarray(v * 3, v * 3 + 3))).toEqual(Array.from(plain.rgba.subarray(p, p + 3)));
      expect(custom.rgba[p + 3]).toBe(v === 255 ? 0 : 255);
      if (v === 255) transparent++;
    }
    expect(transparent).toBe(0); // this skin does not use index 255
  });
});

describe('malformed and hostile DDS', () => {
  const dds = (name: string) => (ddsFixtures() as { name: string; bytes: Uint8Array }[]).find((f) => f.name === name)!.bytes.slice();
  const dxt1 = dds('dxt1-alpha.dds');
  const dx10 = dds('dx10-bc3.dds');
  const rgb = dds('rgb32-a8r8g8b8.dds');
  const u32 = (v: number) => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255, v >>> 24];
  const fourCC = (s: string) => [...s].map((c) => c.charCodeAt(0));
  const cases: [string, Uint8Array, string, number, string][] = [
    ['empty', new Uint8Array(0), 'TRUNCATED', 0, ''],
    ['"DDS!" named .dds', edit(dxt1, 3, 0x21), 'BAD_MAGIC', 0, 'DDS '],
    ['a header cut at 100 bytes', dxt1.subarray(0, 100), 'TRUNCATED', 100, ''],
    ['width 0', edit(dxt1, 16, 0, 0, 0, 0), 'BAD_COUNT', 12, ''],
    ['FourCC DXT9', edit(dxt1, 84, ...fourCC('DXT9')), 'UNSUPPORTED', 84, "'DXT9'"],
    ['FourCC BC4S (signed)', edit(dxt1, 84, ...fourCC('BC4S')), 'UNSUPPORTED', 84, 'signed BC4'],
    ['D3DFMT 113 (R16F) as a FourCC', edit(dxt1, 84, ...u32(113)), 'UNSUPPORTED', 84, 'D3DFMT 113'],
    ['DX10 BC7_UNORM', edit(dx10, 128, ...u32(98)), 'UNSUPPORTED', 128, 'BC7_UNORM'],
    ['DX10 BC6H_UF16', edit(dx10, 128, ...u32(95)), 'UNSUPPORTED', 128, 'BC6H_UF16'],
    ['DX10 R32G32B32A32_FLOAT', edit(dx10, 128, ...u32(2)), 'UNSUPPORTED', 128, 'R32G32B32A32_FLOAT'],
    ['DX10 resource dimension 7', edit(dx10, 132, ...u32(7)), 'UNSUPPORTED', 132, 'dimension 7'],
    ['a DX10 header cut short', dx10.subarray(0, 140), 'TRUNCATED', 140, 'DX10'],
    ['an 8-bit palette', edit(rgb, 80, ...u32(0x20)), 'UNSUPPORTED', 80, 'palette'],
    ['YUV', edit(rgb, 80, ...u32(0x200)), 'UNSUPPORTED', 80, 'YUV'],
    ['RGB at 12 bits per pixel', edit(rgb, 88, ...u32(12)), 'UNSUPPORTED', 88, '12 bits'],
    ['no pixel format flags at 32 bits', edit(rgb, 80, ...u32(0)), 'UNSUPPORTED', 80, 'flags 0x0'],
    ['DXT1 blocks one byte short', dxt1.subarray(0, dxt1.length - 1), 'TRUNCATED', dxt1.length - 1, 'needs'],
    ['RGB rows one byte short', rgb.subarray(0, rgb.length - 1), 'TRUNCATED', rgb.length - 1, 'needs'],
  ];
  for (const [what, bytes, code, offset, names] of cases) {
    test(`${what}: ${code} at byte ${offset}`, () => {
      expect(error(() => decodeImage(bytes, 'x.dds'))).toEqual({ code, offset });
      try {
        decodeImage(bytes, 'x.dds');
      } catch (e) {
        expect((e as ModelParseError).message).toContain(names);
      }
    });
  }

  test('4,000,000 × 4,000,000 declared in a 200-byte file: BAD_COUNT (the pixel bound) before any allocation; 60,000² with no blocks: TRUNCATED', () => {
    const huge = edit(dxt1.subarray(0, 200), 12, ...u32(4_000_000), ...u32(4_000_000));
    const run = metered(() => decodeImage(huge, 'x.dds'));
    expect((run.error as ModelParseError).code).toBe('BAD_COUNT');
    const big = edit(dxt1.subarray(0, 200), 12, ...u32(16384), ...u32(16384)); // 1 GiB of RGBA, 128 MiB of blocks
    const run2 = metered(() => decodeImage(big, 'x.dds'));
    expect((run2.error as ModelParseError).code).toBe('TRUNCATED');
    expect(run.bytes + run2.bytes).toBeLessThan(4096);
  });

  test('a whole image over maxImagePixels is RESOURCE_LIMIT at the height field; at the bound it decodes', () => {
    const real13x7 = decodeImage(dxt1, 'x.dds');
    expect(real13x7.width * real13x7.height).toBe(91);
    expect(error(() => decodeImage(dxt1, 'x.dds', { maxImagePixels: 90 }))).toEqual({ code: 'RESOURCE_LIMIT', offset: 12 });
    expect(decodeImage(dxt1, 'x.dds', { maxImagePixels: 91 }).width).toBe(13);
  });

  test('header sizes other than 124 / 32 are read, as Doom 3 reads them, with a warning naming Tesseract', () => {
    const img = decodeImage(edit(dxt1, 4, ...u32(100)), 'x.dds');
    expect(img.warnings.map((w) => [w.code, w.offset])).toEqual([['DDS_HEADER_SIZE', 4]]);
    expect(img.warnings[0].message).toContain('Tesseract');
  });
});

describe('malformed BMP', () => {
  const b24 = fixture('bmp-24-bottom-up.bmp');
  const cases: [string, Uint8Array, string, number][] = [
    ['"BX" named .bmp', edit(b24, 1, 0x58), 'BAD_MAGIC', 0],
    ['a 20-byte DIB header', edit(b24, 14, 20), 'UNSUPPORTED', 14],
    ['RLE8 compression', edit(b24, 30, 1), 'UNSUPPORTED', 30],
    ['16 bits per pixel', edit(b24, 28, 16), 'UNSUPPORTED', 28],
    ['width 0', edit(b24, 18, 0, 0, 0, 0), 'BAD_COUNT', 18],
    ['rows cut short', b24.subarray(0, b24.length - 1), 'TRUNCATED', b24.length - 1],
  ];
  for (const [what, bytes, code, offset] of cases) {
    test(`${what}: ${code} at byte ${offset}`, () => expect(error(() => decodeImage(bytes, 'x.bmp'))).toEqual({ code, offset }));
  }
});

describe('PNG and JPEG headers', () => {
  const png = real(PNG_PALETTE);
  const jpeg = real(JPEG);
  /** The PNG without its chunk of `type` (and everything else intact). */
  function dropChunk(bytes: Uint8Array, type: string): Uint8Array {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let at = 8; at < bytes.length; ) {
      const len = view.getUint32(at);
      if (String.fromCharCode(...bytes.subarray(at + 4, at + 8)) === type) return Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 12 + len)]);
      at += 12 + len;
    }
    throw new Error(`no ${type}`);
  }
  const pngCases: [string, Uint8Array, string, number][] = [
    ['a wrong signature, named .png', edit(png, 1, 0x51), 'BAD_MAGIC', 0],
    ['IHDR renamed', edit(png, 12, 0x58), 'MISSING_BLOCK', 8],
    ['width 0', edit(png, 16, 0, 0, 0, 0), 'BAD_COUNT', 16],
    ['colour type 5', edit(png, 25, 5), 'UNSUPPORTED', 24],
    ['16-bit palette', edit(png, 24, 16), 'UNSUPPORTED', 24],
    ['cut inside a chunk', png.subarray(0, 200), 'TRUNCATED', 200],
    ['no IEND', png.subarray(0, png.length - 12), 'TRUNCATED', png.length - 12],
    ['a palette image without PLTE', dropChunk(png, 'PLTE'), 'MISSING_BLOCK', -1],
  ];
  for (const [what, bytes, code, offset] of pngCases) {
    test(`PNG ${what}: ${code}`, () => {
      const e = error(() => decodeImage(bytes, 'x.png'));
      expect(e.code).toBe(code);
      if (offset >= 0) expect(e.offset).toBe(offset);
    });
  }

  test('PNG: bytes after IEND are a TRAILING_BYTES warning', () => {
    const img = decodeImage(Uint8Array.from([...png, 1, 2, 3]), 'x.png');
    expect(img.warnings.map((w) => [w.code, w.offset])).toEqual([['TRAILING_BYTES', png.length]]);
  });

  /** A JPEG made of marker segments: SOI, then [marker, payload] pairs. */
  const segments = (...segs: [number, number[]][]) =>
    Uint8Array.from([0xff, 0xd8, ...segs.flatMap(([m, p]) => [0xff, m, ...(m === 0xd9 ? [] : [(p.length + 2) >> 8, (p.length + 2) & 255, ...p])])]);
  const sof = (precision: number, h: number, w: number, comps: number) => [precision, h >> 8, h & 255, w >> 8, w & 255, comps, ...Array(comps * 3).fill(1)];

  test('JPEG header facts: progressive, 12-bit, CMYK, fill bytes before a marker', () => {
    const prog = segments([0xe0, [0x4a, 0x46, 0x49, 0x46, 0]], [0xc2, sof(8, 300, 200, 3)], [0xda, [1, 1, 0, 0, 63, 0]], [0xd9, []]);
    expect(jpegInfo(prog)).toMatchObject({ width: 200, height: 300, progressive: true, components: 3, precision: 8, warnings: [] });
    const twelve = segments([0xc1, sof(12, 16, 16, 1)], [0xda, [1, 1, 0, 0, 63, 0]], [0xd9, []]);
    expect(jpegInfo(twelve)).toMatchObject({ progressive: false, components: 1, precision: 12, process: 1 });
    const cmyk = segments([0xc0, sof(8, 4, 4, 4)], [0xda, [1, 1, 0, 0, 63, 0]], [0xd9, []]);
    const fill = Uint8Array.from([...cmyk.subarray(0, 2), 0xff, 0xff, ...cmyk.subarray(2)]);
    expect(jpegInfo(fill)).toMatchObject({ components: 4, width: 4, height: 4 });
  });

  const jpegCases: [string, () => Uint8Array, string][] = [
    ['cut before the frame header', () => jpeg.subarray(0, 10), 'TRUNCATED'],
    ['EOI before a frame header', () => segments([0xe0, [0]], [0xd9, []]), 'MISSING_BLOCK'],
    ['a scan before a frame header', () => segments([0xda, [1, 1, 0, 0, 63, 0]]), 'MISSING_BLOCK'],
    ['height 0 (DNL)', () => segments([0xc0, sof(8, 0, 16, 3)], [0xda, [0]]), 'UNSUPPORTED'],
    ['width 0', () => segments([0xc0, sof(8, 16, 0, 3)], [0xda, [0]]), 'BAD_COUNT'],
    ['a segment length that lands off a marker', () => edit(jpeg, 4, 0x00, 0x03), 'BAD_OFFSET'],
    ['a segment length below 2', () => edit(jpeg, 4, 0x00, 0x01), 'BAD_COUNT'],
    ['FF D8 then not a marker, named .jpg', () => Uint8Array.of(0xff, 0xd8, 0x00, 0x00), 'BAD_MAGIC'],
  ];
  for (const [what, bytes, code] of jpegCases) {
    test(`JPEG ${what}: ${code}`, () => expect(error(() => decodeImage(bytes(), 'x.jpg')).code).toBe(code));
  }

  test('JPEG: a file cut inside its scan data passes with a NO_EOI warning', () => {
    const img = decodeImage(jpeg.subarray(0, jpeg.length - 300), 'x.jpg');
    expect(img.warnings.map((w) => w.code)).toEqual(['NO_EOI']);
  });
});

describe('format detection', () => {
  test('content wins over the name for PNG, JPEG and BMP; the name picks TGA or PCX', () => {
    expect(decodeImage(real(PNG_PALETTE), 'skin.tga').kind).toBe('passthrough');
    expect(readImageInfo(real(JPEG), 'skin.pcx').format).toBe('jpeg');
    expect(readImageInfo(real(PCX)).format).toBe('pcx');
    expect(readImageInfo(real(TGA_RLE)).format).toBe('tga');
    expect(readImageInfo(fixture('bmp-4.bmp'), 'skin.tga').format).toBe('bmp');
  });

  test('bytes that are none of the five: UNSUPPORTED; named .png/.jpg but not one: BAD_MAGIC; empty: TRUNCATED', () => {
    expect(error(() => decodeImage(new TextEncoder().encode('not an image at all, honestly')))).toEqual({ code: 'UNSUPPORTED', offset: 0 });
    expect(error(() => decodeImage(fixture('tga-type2-24-bottom-left.tga'), 'skin.jpg'))).toEqual({ code: 'BAD_MAGIC', offset: 0 });
    expect(error(() => decodeImage(new Uint8Array(0)))).toEqual({ code: 'TRUNCATED', offset: 0 });
  });
});

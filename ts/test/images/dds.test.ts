/**
 * DDS: every variant dds.ts reads (fixtures/generate-dds.mjs: DXT1 in both alpha modes, DXT2–5, RXGB, ATI1/2, BC4U/5U,
 * DX10 BC1–5 and RGBA8/BGRA8, 16/24/32-bit masks, luminance, Doom 3's 8-bit alpha; partial blocks, mip levels, a cube
 * map) decodes to Pillow's pixels — directly, or through the documented relation to a twin file Pillow reads — or, for
 * the three layouts nobody else reads, to pixels computed here from the bytes. Hostile headers are in errors.test.ts,
 * the corpus's DXT1/DXT5 files in real-images.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { decodeImage, readImageInfo } from '../../src/images/decode.js';
import { decodeDds, readDdsHeader } from '../../src/images/dds.js';
import { detectImageFormat } from '../../src/images/detect.js';
import { ddsFixtures } from '../../../fixtures/generate-dds.mjs';
import { firstDifference } from './compare.js';
import { isPillowImage, pillowDecodeBytes, pillowError, type PillowImage } from './pillow.js';

interface Fixture {
  name: string;
  bytes: Uint8Array;
  width: number;
  height: number;
  warnings: string[];
  pillow?: boolean;
  twin?: Uint8Array;
  relation?: 'same' | 'opaque' | 'rxgb';
  formula?: 'a4l4' | 'l16' | 'a8';
}

const fixtures = ddsFixtures() as Fixture[];
const pillow = await pillowDecodeBytes({
  ...Object.fromEntries(fixtures.filter((f) => f.pillow).map((f) => [f.name, f.bytes])),
  ...Object.fromEntries(fixtures.filter((f) => f.twin).map((f) => [`twin-${f.name}`, f.twin!])),
});
const reference = (key: string): PillowImage => {
  const p = pillow[key];
  if (!isPillowImage(p)) throw new Error(`Pillow refused ${key}: ${pillowError(p)}`);
  return p;
};

/** Pillow's reading of a twin, turned into what the variant means (the relations of generate-dds.mjs). */
function related(ref: Uint8Array, relation: Fixture['relation']): Uint8Array {
  const out = ref.slice();
  for (let i = 0; i < out.length; i += 4) {
    if (relation === 'opaque' && out[i + 3] === 0) out[i + 3] = 255; // three-colour blocks' fourth entry: opaque black
    if (relation === 'rxgb') {
      out[i] = ref[i + 3];
      out[i + 3] = 255;
    }
  }
  return out;
}

/** The pixels of the layouts only this reader reads, from the bytes after the 128-byte header. */
function byFormula(f: Fixture): Uint8Array {
  const data = f.bytes.subarray(128);
  const out = new Uint8Array(f.width * f.height * 4);
  for (let i = 0; i < f.width * f.height; i++) {
    const o = i * 4;
    if (f.formula === 'a4l4') {
      const l = (data[i] & 15) * 17;
      out.set([l, l, l, (data[i] >> 4) * 17], o);
    } else if (f.formula === 'l16') {
      const l = Math.floor(((data[2 * i] | (data[2 * i + 1] << 8)) * 255) / 65535);
      out.set([l, l, l, 255], o);
    } else out.set([0, 0, 0, data[i]], o); // GL_ALPHA8: black, alpha as stored
  }
  return out;
}

describe('generated DDS fixtures', () => {
  test('every block mode occurs: DXT1 blocks with c0 ≤ c1 using index 3, DXT5 blocks with a0 ≤ a1 using indices 6 and 7', () => {
    const dxt1 = fixtures.find((f) => f.name === 'dxt1-alpha.dds')!.bytes.subarray(128);
    let threeColourIndex3 = 0;
    for (let s = 0; s < dxt1.length; s += 8) {
      const c0 = dxt1[s] | (dxt1[s + 1] << 8);
      const c1 = dxt1[s + 2] | (dxt1[s + 3] << 8);
      const bits = (dxt1[s + 4] | (dxt1[s + 5] << 8) | (dxt1[s + 6] << 16) | (dxt1[s + 7] << 24)) >>> 0;
      if (c0 <= c1 && [...Array(16).keys()].some((p) => ((bits >>> (2 * p)) & 3) === 3)) threeColourIndex3++;
    }
    expect(threeColourIndex3).toBeGreaterThan(0);
    const opaque = decodeDds(fixtures.find((f) => f.name === 'dxt1-opaque.dds')!.bytes);
    const punched = decodeDds(fixtures.find((f) => f.name === 'dxt1-alpha.dds')!.bytes);
    expect(punched.rgba.some((v, i) => (i & 3) === 3 && v === 0)).toBe(true);
    expect(opaque.rgba.every((v, i) => (i & 3) !== 3 || v === 255)).toBe(true);
    const dxt5 = fixtures.find((f) => f.name === 'dxt5.dds')!.bytes.subarray(128);
    let sixEightMode = 0;
    for (let s = 0; s < dxt5.length; s += 16) if (dxt5[s] <= dxt5[s + 1]) sixEightMode++;
    expect(sixEightMode).toBeGreaterThan(0);
  });

  for (const f of fixtures) {
    const how = f.pillow ? '= Pillow' : f.twin ? `= Pillow's reading of its twin (${f.relation})` : `= the ${f.formula} layout computed from the bytes`;
    test(`${f.name} ${how}`, () => {
      expect(detectImageFormat(f.bytes)).toBe('dds');
      const img = decodeImage(f.bytes, f.name);
      expect(img.kind).toBe('rgba');
      if (img.kind !== 'rgba') return;
      expect([img.width, img.height]).toEqual([f.width, f.height]);
      expect(img.warnings.map((w) => w.code).sort()).toEqual([...f.warnings].sort());
      const info = readImageInfo(f.bytes);
      expect([info.format, info.width, info.height]).toEqual(['dds', f.width, f.height]);
      let want: Uint8Array;
      if (f.pillow) {
        const ref = reference(f.name);
        expect([ref.width, ref.height]).toEqual([f.width, f.height]);
        want = ref.rgba;
      } else if (f.twin) want = related(reference(`twin-${f.name}`).rgba, f.relation);
      else want = byFormula(f);
      expect(firstDifference(img.rgba, want, f.width)).toBe('');
    });
  }

  test('what the header says: variant names, alpha, mip levels', () => {
    const info = (name: string) => readImageInfo(fixtures.find((f) => f.name === name)!.bytes);
    expect(info('dxt1-alpha.dds')).toMatchObject({ hasAlpha: true, detail: 'DDS DXT1, 1 mip level' });
    expect(info('dxt1-opaque.dds').hasAlpha).toBe(false);
    expect(info('rxgb.dds')).toMatchObject({ hasAlpha: false, detail: 'DDS RXGB (red in alpha), 1 mip level' });
    expect(info('dxt1-mipmaps.dds').detail).toBe('DDS DXT1, 6 mip levels');
    expect(info('dx10-bc3.dds').detail).toBe('DDS DX10 BC3_UNORM, 1 mip level');
    expect(info('rgb16-r5g6b5.dds')).toMatchObject({ hasAlpha: false, detail: 'DDS RGB 16-bit R5G6B5, 1 mip level' });
    expect(info('dxt5-cubemap.dds').detail).toBe('DDS DXT5, 1 mip level, a cube map');
    expect(readDdsHeader(fixtures.find((f) => f.name === 'a8l8.dds')!.bytes).variant).toBe('A8L8');
  });
});

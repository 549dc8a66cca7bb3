/**
 * RGBA8 → PNG, for embedding decoded TGA/PCX/BMP skins in a .glb (glTF takes only PNG and JPEG).
 *
 * A small writer over fflate's zlib (fflate: a well-kept, dependency-free deflate for browsers and Node). Why not a
 * PNG library as it is (measured in docs/images.md, `npm run bench`): fast-png writes the pixels in the colour type it
 * is given with no row filter, UPNG.js rests on pako 1 and tries every filter per row; this writer does what makes
 * game textures small, losslessly:
 * - the smallest colour type that holds the pixels exactly: grey (0) if every pixel is grey and opaque, a palette
 *   (3, with tRNS for translucent entries, 1/2/4/8-bit indices) for ≤ 256 colours — every PCX skin —, else grey +
 *   alpha (4), RGB (2) when every alpha is 255 (most TGA/BMP skins), RGBA (6);
 * - libpng's filter heuristic for 8-bit grey / RGB / RGBA rows (each row takes the filter whose output has the least
 *   sum of absolute signed bytes), no filter for palette rows (libpng's advice);
 * - zlib level 6 by default.
 */
import { zlibSync } from 'fflate';
import { crc32 } from '../base/crc32.js';
import { PNG_SIGNATURE } from './png-info.js';

export interface PngEncodeOptions {
  /** zlib compression level, 0 (store) – 9. Default 6. */
  level?: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9;
  /** Always write RGBA (colour type 6), skipping the colour-type reduction. Default false. */
  rgba?: boolean;
  /** Row filters: libpng's per-row choice ('adaptive', the default) or none. */
  filter?: 'adaptive' | 'none';
}

/** How the pixels will be stored. */
interface Layout {
  colorType: 0 | 2 | 3 | 4 | 6;
  bitDepth: 1 | 2 | 4 | 8;
  /** Colour type 3: RGBA entries (4 bytes each), translucent ones first; index of each packed colour. */
  palette?: Uint8Array;
  index?: Map<number, number>;
  /** Entries with alpha < 255 (the tRNS length). */
  translucent?: number;
}

const IDAT_MAX = 1 << 30;

const CHANNELS = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 } as const;

/** One pass over the pixels: grey? opaque? at most 256 colours (and which)? */
function chooseLayout(rgba: Uint8Array, forceRgba: boolean): Layout {
  if (forceRgba) return { colorType: 6, bitDepth: 8 };
  let grey = true;
  let opaque = true;
  const colors = new Map<number, number>();
  let last = -1;
  for (let i = 0; i < rgba.length; i += 4) {
    const r = rgba[i];
    const g = rgba[i + 1];
    const b = rgba[i + 2];
    const a = rgba[i + 3];
    if (r !== g || g !== b) grey = false;
    if (a !== 255) opaque = false;
    const key = ((r << 24) | (g << 16) | (b << 8) | a) >>> 0;
    if (key !== last && colors.size <= 256) {
      colors.set(key, 0);
      last = key;
    }
  }
  if (grey && opaque) return { colorType: 0, bitDepth: 8 };
  if (colors.size <= 256) {
    // Translucent entries first, so tRNS stops after the last of them.
    const keys = [...colors.keys()].sort((x, y) => ((x & 0xff) === 255 ? 1 : 0) - ((y & 0xff) === 255 ? 1 : 0));
    const palette = new Uint8Array(keys.length * 4);
    const index = new Map<number, number>();
    keys.forEach((k, i) => {
      palette[i * 4] = k >>> 24;
      palette[i * 4 + 1] = (k >>> 16) & 0xff;
      palette[i * 4 + 2] = (k >>> 8) & 0xff;
      palette[i * 4 + 3] = k & 0xff;
      index.set(k, i);
    });
    const translucent = keys.filter((k) => (k & 0xff) !== 255).length;
    const bitDepth = keys.length <= 2 ? 1 : keys.length <= 4 ? 2 : keys.length <= 16 ? 4 : 8;
    return { colorType: 3, bitDepth, palette, index, translucent };
  }
  if (grey) return { colorType: 4, bitDepth: 8 };
  return { colorType: opaque ? 2 : 6, bitDepth: 8 };
}

/** Row `y` of the image in the layout's pixel format, without its filter byte. */
function packRow(rgba: Uint8Array, width: number, y: number, layout: Layout, out: Uint8Array): void {
  let s = y * width * 4;
  switch (layout.colorType) {
    case 6:
      out.set(rgba.subarray(s, s + width * 4));
      return;
    case 2:
      for (let x = 0, d = 0; x < width; x++, s += 4, d += 3) {
        out[d] = rgba[s];
        out[d + 1] = rgba[s + 1];
        out[d + 2] = rgba[s + 2];
      }
      return;
    case 4:
      for (let x = 0, d = 0; x < width; x++, s += 4, d += 2) {
        out[d] = rgba[s];
        out[d + 1] = rgba[s + 3];
      }
      return;
    case 0:
      for (let x = 0; x < width; x++, s += 4) out[x] = rgba[s];
      return;
    case 3: {
      const index = layout.index!;
      const depth = layout.bitDepth;
      const perByte = 8 / depth;
      out.fill(0);
      for (let x = 0; x < width; x++, s += 4) {
        const key = ((rgba[s] << 24) | (rgba[s + 1] << 16) | (rgba[s + 2] << 8) | rgba[s + 3]) >>> 0;
        const i = index.get(key)!;
        out[Math.floor(x / perByte)] |= i << (8 - depth * ((x % perByte) + 1));
      }
    }
  }
}

/**
 * libpng's filter choice for one row: the filter (0 none, 1 sub, 2 up, 3 average, 4 Paeth) whose output has the
 * least sum of |signed byte|, the best predictor of how well zlib will do. All five sums in one pass.
 */
function bestFilter(cur: Uint8Array, prev: Uint8Array, bpp: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  const abs = (v: number) => (v & 0x80 ? 256 - v : v);
  for (let i = 0; i < cur.length; i++) {
    const x = cur[i];
    const a = i >= bpp ? cur[i - bpp] : 0;
    const b = prev[i];
    const c = i >= bpp ? prev[i - bpp] : 0;
    const p = a + b - c;
    const pa = p > a ? p - a : a - p;
    const pb = p > b ? p - b : b - p;
    const pc = p > c ? p - c : c - p;
    const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    s0 += x < 128 ? x : 256 - x;
    s1 += abs((x - a) & 0xff);
    s2 += abs((x - b) & 0xff);
    s3 += abs((x - ((a + b) >> 1)) & 0xff);
    s4 += abs((x - paeth) & 0xff);
  }
  let best = 0;
  let sum = s0;
  if (s1 < sum) [best, sum] = [1, s1];
  if (s2 < sum) [best, sum] = [2, s2];
  if (s3 < sum) [best, sum] = [3, s3];
  if (s4 < sum) best = 4;
  return best;
}

/** Writes row `cur` (previous row `prev`, zeros above the first) filtered by `type` into `out`. */
function filterRow(type: number, cur: Uint8Array, prev: Uint8Array, bpp: number, out: Uint8Array): void {
  const n = cur.length;
  const head = Math.min(bpp, n);
  switch (type) {
    case 0:
      out.set(cur);
      return;
    case 1:
      for (let i = 0; i < head; i++) out[i] = cur[i];
      for (let i = bpp; i < n; i++) out[i] = cur[i] - cur[i - bpp];
      return;
    case 2:
      for (let i = 0; i < n; i++) out[i] = cur[i] - prev[i];
      return;
    case 3:
      for (let i = 0; i < head; i++) out[i] = cur[i] - (prev[i] >> 1);
      for (let i = bpp; i < n; i++) out[i] = cur[i] - ((cur[i - bpp] + prev[i]) >> 1);
      return;
    default:
      for (let i = 0; i < head; i++) out[i] = cur[i] - prev[i];
      for (let i = bpp; i < n; i++) {
        const a = cur[i - bpp];
        const b = prev[i];
        const c = prev[i - bpp];
        const p = a + b - c;
        const pa = p > a ? p - a : a - p;
        const pb = p > b ? p - b : b - p;
        const pc = p > c ? p - c : c - p;
        out[i] = cur[i] - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
  }
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out, 4, 8 + data.length));
  return out;
}

/**
 * Encodes `width × height` RGBA8 pixels (top row first, `rgba.length === width · height · 4`) as a PNG, losslessly,
 * in the smallest colour type that holds them exactly (see the file comment).
 */
export function encodePng(rgba: Uint8Array, width: number, height: number, options: PngEncodeOptions = {}): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 0x7fffffff || height > 0x7fffffff) {
    throw new RangeError(`encodePng: size ${width}×${height} (each must be an integer in [1, 2³¹ − 1])`);
  }
  if (rgba.length !== width * height * 4) throw new RangeError(`encodePng: ${rgba.length} bytes for ${width}×${height} RGBA (want ${width * height * 4})`);
  const layout = chooseLayout(rgba, options.rgba ?? false);
  const channels = CHANNELS[layout.colorType];
  const rowBytes = Math.ceil((width * channels * layout.bitDepth) / 8);
  const bpp = Math.max(1, (channels * layout.bitDepth) >> 3);
  const adaptive = layout.colorType !== 3 && layout.bitDepth === 8;

  const filtered = new Uint8Array(height * (rowBytes + 1));
  let prev = new Uint8Array(rowBytes);
  let cur = new Uint8Array(rowBytes);
  const filter = options.filter ?? 'adaptive';
  for (let y = 0; y < height; y++) {
    packRow(rgba, width, y, layout, cur);
    const at = y * (rowBytes + 1);
    const type = filter === 'none' || !adaptive ? 0 : bestFilter(cur, prev, bpp);
    filtered[at] = type;
    filterRow(type, cur, prev, bpp, filtered.subarray(at + 1, at + 1 + rowBytes));
    [prev, cur] = [cur, prev];
  }

  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr[8] = layout.bitDepth;
  ihdr[9] = layout.colorType;
  const parts = [PNG_SIGNATURE, chunk('IHDR', ihdr)];
  if (layout.palette) {
    const entries = layout.palette.length / 4;
    const plte = new Uint8Array(entries * 3);
    for (let i = 0; i < entries; i++) plte.set(layout.palette.subarray(i * 4, i * 4 + 3), i * 3);
    parts.push(chunk('PLTE', plte));
    if (layout.translucent) {
      parts.push(chunk('tRNS', Uint8Array.from({ length: layout.translucent }, (_, i) => layout.palette![i * 4 + 3])));
    }
  }
  // One IDAT chunk, or several when the stream is over 1 GiB (a chunk holds at most 2³¹ − 1 bytes).
  const z = zlibSync(filtered, { level: options.level ?? 6 });
  for (let at = 0; at < z.length; at += IDAT_MAX) parts.push(chunk('IDAT', z.subarray(at, at + IDAT_MAX)));
  parts.push(chunk('IEND', new Uint8Array(0)));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * PNG → RGBA8, where pixels are needed rather than the file (quantising a glTF's skin to Quake's palette): decoded by
 * fast-png (image-js; every colour type, bit depth and Adam7 interlacing, over fflate — already ours for inflating),
 * then widened to 8-bit RGBA top row first. Browsers and three.js keep decoding PNGs themselves (images/decode.ts
 * passes them through); this is imported only by what needs the pixels.
 *
 * The size its IHDR declares is checked against `maxImagePixels` (and ioquake3's 2³¹ − 1 RGBA bytes) before anything
 * is inflated, as every other decoder checks its own: a 1-bit PNG of 24,000² zeros is 70 KB and 2.3 GB of RGBA.
 */
import { decode } from 'fast-png';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { checkDimensions, checkPixels, type DecodeLimits } from './dimensions.js';
import { pngSize } from './png-info.js';

export function decodePngRgba(bytes: Uint8Array, limits: DecodeLimits = {}): { width: number; height: number; rgba: Uint8Array } {
  const declared = pngSize(bytes);
  checkDimensions(declared.width, declared.height, 16, 'the PNG');
  checkPixels(declared.width, declared.height, 16, 'the PNG', limits);
  let png: ReturnType<typeof decode>;
  try {
    png = decode(bytes);
  } catch (e) {
    throw new ModelParseError(ErrorCode.Unsupported, `not a PNG this decodes (${(e as Error).message})`, { offset: 0 });
  }
  const { width, height, depth, channels } = png;
  const data = png.data;
  const rgba = new Uint8Array(width * height * 4);
  // 1, 2 and 4-bit samples are packed, each row from a byte boundary; 16-bit samples keep their high byte.
  const rowBits = width * channels * depth;
  const sample = (i: number, c: number): number => {
    if (depth === 8) return data[i * channels + c];
    if (depth === 16) return data[i * channels + c] >> 8;
    const x = i % width, y = (i - x) / width;
    const bit = y * Math.ceil(rowBits / 8) * 8 + (x * channels + c) * depth;
    const v = (data[bit >> 3] >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
    return png.palette ? v : Math.round((v * 255) / ((1 << depth) - 1));
  };
  for (let i = 0; i < width * height; i++) {
    if (png.palette) {
      const e = png.palette[sample(i, 0)] ?? [0, 0, 0];
      rgba.set([e[0], e[1], e[2], e[3] ?? 255], 4 * i);
    } else if (channels <= 2) {
      const g = sample(i, 0);
      rgba.set([g, g, g, channels === 2 ? sample(i, 1) : 255], 4 * i);
    } else {
      rgba.set([sample(i, 0), sample(i, 1), sample(i, 2), channels === 4 ? sample(i, 3) : 255], 4 * i);
    }
  }
  return { width, height, rgba };
}

/**
 * What the image floor hands up: pixels for the formats a browser or a glTF file cannot take as they are (TGA, PCX,
 * BMP, DDS), the untouched bytes plus their header facts for the ones it can (PNG, JPEG).
 */
import type { ParseWarning } from '../base/errors.js';

/** Every format the floor recognises. */
export type ImageFormat = 'tga' | 'pcx' | 'bmp' | 'dds' | 'png' | 'jpeg';

/** Formats decoded here into RGBA8. */
export type DecodedFormat = 'tga' | 'pcx' | 'bmp' | 'dds';

/** Formats passed through as they are (glTF embeds them; browsers and three.js decode them). */
export type PassthroughFormat = 'png' | 'jpeg';

/** An image decoded to 8-bit RGBA, top row first, left to right: `rgba.length === width * height * 4`. */
export interface RgbaImage {
  kind: 'rgba';
  format: DecodedFormat;
  width: number;
  height: number;
  rgba: Uint8Array;
  /** Oddities that did not stop the decode (e.g. a variant the engines would not load, see docs/images.md). */
  warnings: ParseWarning[];
}

/** A PNG or JPEG, not decoded: its own bytes and what its header says. */
export interface PassthroughImage {
  kind: 'passthrough';
  format: PassthroughFormat;
  mimeType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
  /** The input bytes, untouched (the same array that was passed in). */
  bytes: Uint8Array;
  /** Whether the image can carry alpha: a PNG with colour type 4 or 6 or a tRNS chunk; never a JPEG. */
  hasAlpha: boolean;
  warnings: ParseWarning[];
}

export type DecodedImage = RgbaImage | PassthroughImage;

/** What a header says, without decoding any pixels (see `readImageInfo`). */
export interface ImageInfo {
  format: ImageFormat;
  width: number;
  height: number;
  /** Whether the image can carry alpha as stored (TGA 32-bit or 16-bit with an alpha bit, a PNG with alpha, …). */
  hasAlpha: boolean;
  /** Format-specific facts, for reports: `TGA type 10, 32 bpp`, `PNG palette 8-bit, Adam7`, `JPEG progressive, 3 components`. */
  detail: string;
}

/**
 * DDS (DirectDraw Surface) → RGBA8, top row first: the first image of the file (mip level 0; the first face of a cube
 * map, the first slice of a volume, the first element of an array).
 *
 * Red Eclipse / Tesseract and Doom 3 ship DDS beside their PNGs and TGAs; where they load a file this reads it as they
 * do (Tesseract src/engine/texture.cpp `loaddds` and its software decoders `decodedxt1/3/5`, `decodergtc1/2`; Doom 3
 * neo/renderer/Image_load.cpp `idImage::UploadPrecompressedImage`):
 * - FourCC `DXT1`: a block whose first colour is not above the second has three colours and a fourth, black entry
 *   that is transparent only when the pixel format says DDPF_ALPHAPIXELS (both engines then upload it as
 *   GL_COMPRESSED_RGBA_S3TC_DXT1, else as the RGB format, whose fourth entry is opaque black);
 * - `DXT2` / `DXT3` and `DXT4` / `DXT5` (BC2 / BC3): the premultiplied forms are read as their plain twins, as
 *   Tesseract uploads them (colours stay premultiplied: PREMULTIPLIED_ALPHA warning);
 * - `RXGB` (Doom 3's normal maps): a DXT5 whose alpha holds red; decoded and swizzled back (R = the block's alpha,
 *   alpha 255), so the result is the normal map Doom 3's shaders reconstruct;
 * - `ATI1` / `BC4U` and `ATI2` / `BC5U` (RGTC1/2, Tesseract's compressed normal and mask maps): red as grey, or red
 *   and green with blue 0;
 * - the DX10 extension header with BC1–BC5 UNORM/TYPELESS/SRGB and 8-bit RGBA/BGRA/BGRX;
 * - uncompressed DDPF_RGB (16/24/32 bits, any channel masks, DDPF_ALPHAPIXELS for the alpha mask), DDPF_LUMINANCE
 *   (8/16 bits, with alpha) and 8-bit alpha only (what Doom 3 writes for GL_ALPHA8 images: black, alpha as stored).
 *   Pixels are packed tightly row after row, as Doom 3 and Pillow read them; a mask of n bits expands as
 *   ⌊v · 255 / (2ⁿ − 1)⌋ (Pillow's rule, exact for 8-bit channels).
 * Everything else — BC6H, BC7, signed BC4/BC5, palettes, YUV, float formats — is UNSUPPORTED, naming the variant.
 *
 * Block colours follow the decoders that agree with each other (Mesa's S3TC fetch, Pillow's BcnDecode.c): 5- and
 * 6-bit endpoints widened by bit replication, interpolants ⌊(2a + b) / 3⌋ and ⌊(a + b) / 2⌋, alpha ⌊(k·a0 + …) / 7⌋
 * (or / 5), 4-bit alpha × 17. GPUs are allowed to differ by a unit or two here (docs/images.md, "DDS").
 *
 * Before the output is allocated the size is checked ({@link checkDimensions}: the decoded-pixel bound every decoder
 * of this floor applies, then `maxImagePixels`) and the first image's bytes must all be in the file.
 */
import { ErrorCode, type ParseWarning } from '../base/errors.js';
import { fail, need, u32le } from './bytes.js';
import { checkDimensions, checkPixels, type DecodeLimits } from './dimensions.js';
import type { ImageInfo, RgbaImage } from './types.js';

/** "DDS " and the 124-byte DDS_HEADER. */
export const DDS_HEADER_BYTES = 128;
/** The DDS_HEADER_DXT10 that follows when the FourCC is `DX10`. */
export const DDS_DX10_BYTES = 20;

/** Field offsets (from the start of the file, the magic included). */
export const DDS_FIELD = {
  magic: 0,
  size: 4,
  flags: 8,
  height: 12,
  width: 16,
  mipMapCount: 28,
  pfSize: 76,
  pfFlags: 80,
  fourCC: 84,
  bitCount: 88,
  rMask: 92,
  gMask: 96,
  bMask: 100,
  aMask: 104,
  caps: 108,
  caps2: 112,
  dxgiFormat: 128,
  resourceDimension: 132,
  miscFlag: 136,
  arraySize: 140,
} as const;

const DDPF_ALPHAPIXELS = 0x1;
const DDPF_ALPHA = 0x2;
const DDPF_FOURCC = 0x4;
const DDPF_PALETTEINDEXED8 = 0x20;
const DDPF_RGB = 0x40;
const DDPF_YUV = 0x200;
const DDPF_LUMINANCE = 0x20000;
const DDPF_BUMPDUDV = 0x80000;
const DDSCAPS2_CUBEMAP = 0x200;
const DDSCAPS2_VOLUME = 0x200000;

/** How the first image is stored. */
export type DdsEncoding =
  | { kind: 'bc1'; punchThrough: boolean }
  | { kind: 'bc2' }
  | { kind: 'bc3'; rxgb: boolean }
  | { kind: 'bc4' }
  | { kind: 'bc5' }
  | { kind: 'masks'; bytesPerPixel: number; masks: [number, number, number, number] };

export interface DdsHeader {
  width: number;
  height: number;
  /** 1 when the header does not say (DDSD_MIPMAPCOUNT unset or 0). */
  mipMapCount: number;
  /** The variant as a reader would name it: `DXT1`, `DX10 BC3_UNORM`, `RGB 32-bit A8R8G8B8`, `L8` … */
  variant: string;
  encoding: DdsEncoding;
  /** Where the first image's bytes start (128, or 148 after a DX10 header) and how many there are. */
  dataOffset: number;
  dataBytes: number;
  /** Whether the pixels can carry alpha as stored. */
  hasAlpha: boolean;
  /** More than one image in the file besides mip levels (cube faces, volume slices, array elements). */
  surfaces: string | null;
  /** Header oddities (a DDS_HEADER size other than 124, premultiplied alpha, …), and variants no engine loads. */
  warnings: ParseWarning[];
}

/** `maxImagePixels` bounds the decoded image (RESOURCE_LIMIT, docs/security.md). */
export type DdsOptions = DecodeLimits;

const fourCCText = (v: number) => String.fromCharCode(v & 255, (v >>> 8) & 255, (v >>> 16) & 255, v >>> 24).replace(/[^\x20-\x7e]/g, '?');
const fourCC = (s: string) => s.charCodeAt(0) | (s.charCodeAt(1) << 8) | (s.charCodeAt(2) << 16) | ((s.charCodeAt(3) << 24) >>> 0);

/** DXGI_FORMAT names of the values this reader meets (read or refused by name). */
const DXGI_NAMES: Record<number, string> = {
  2: 'R32G32B32A32_FLOAT', 10: 'R16G16B16A16_FLOAT', 11: 'R16G16B16A16_UNORM', 24: 'R10G10B10A2_UNORM', 27: 'R8G8B8A8_TYPELESS',
  28: 'R8G8B8A8_UNORM', 29: 'R8G8B8A8_UNORM_SRGB', 61: 'R8_UNORM', 65: 'A8_UNORM', 70: 'BC1_TYPELESS', 71: 'BC1_UNORM',
  72: 'BC1_UNORM_SRGB', 73: 'BC2_TYPELESS', 74: 'BC2_UNORM', 75: 'BC2_UNORM_SRGB', 76: 'BC3_TYPELESS', 77: 'BC3_UNORM',
  78: 'BC3_UNORM_SRGB', 79: 'BC4_TYPELESS', 80: 'BC4_UNORM', 81: 'BC4_SNORM', 82: 'BC5_TYPELESS', 83: 'BC5_UNORM',
  84: 'BC5_SNORM', 85: 'B5G6R5_UNORM', 86: 'B5G5R5A1_UNORM', 87: 'B8G8R8A8_UNORM', 88: 'B8G8R8X8_UNORM', 90: 'B8G8R8A8_TYPELESS',
  91: 'B8G8R8A8_UNORM_SRGB', 92: 'B8G8R8X8_TYPELESS', 93: 'B8G8R8X8_UNORM_SRGB', 94: 'BC6H_TYPELESS', 95: 'BC6H_UF16',
  96: 'BC6H_SF16', 97: 'BC7_TYPELESS', 98: 'BC7_UNORM', 99: 'BC7_UNORM_SRGB',
};

/** The DX10 formats read, as an encoding. */
function dxgiEncoding(format: number): DdsEncoding | null {
  if (format >= 70 && format <= 72) return { kind: 'bc1', punchThrough: true }; // BC1 always has its 1-bit alpha in D3D10
  if (format >= 73 && format <= 75) return { kind: 'bc2' };
  if (format >= 76 && format <= 78) return { kind: 'bc3', rxgb: false };
  if (format === 79 || format === 80) return { kind: 'bc4' };
  if (format === 82 || format === 83) return { kind: 'bc5' };
  if (format >= 27 && format <= 29) return { kind: 'masks', bytesPerPixel: 4, masks: [0xff, 0xff00, 0xff0000, 0xff000000] };
  if (format === 87 || format === 90 || format === 91) return { kind: 'masks', bytesPerPixel: 4, masks: [0xff0000, 0xff00, 0xff, 0xff000000] };
  if (format === 88 || format === 92 || format === 93) return { kind: 'masks', bytesPerPixel: 4, masks: [0xff0000, 0xff00, 0xff, 0] };
  return null;
}

/** Common names of mask layouts, for reports. */
function maskName(bits: number, [r, g, b, a]: readonly number[]): string {
  const known: Record<string, string> = {
    '32:ff0000:ff00:ff:ff000000': 'A8R8G8B8', '32:ff0000:ff00:ff:0': 'X8R8G8B8', '32:ff:ff00:ff0000:ff000000': 'A8B8G8R8',
    '32:ff:ff00:ff0000:0': 'X8B8G8R8', '24:ff0000:ff00:ff:0': 'R8G8B8', '16:f800:7e0:1f:0': 'R5G6B5', '16:7c00:3e0:1f:8000': 'A1R5G5B5',
    '16:7c00:3e0:1f:0': 'X1R5G5B5', '16:f00:f0:f:f000': 'A4R4G4B4',
  };
  return known[`${bits}:${r.toString(16)}:${g.toString(16)}:${b.toString(16)}:${a.toString(16)}`] ?? `masks R ${r.toString(16)} G ${g.toString(16)} B ${b.toString(16)} A ${a.toString(16)}`;
}

const blockBytes = (e: DdsEncoding) => (e.kind === 'bc1' || e.kind === 'bc4' ? 8 : 16);

/** The header and DX10 extension, validated for what this reader decodes; the first image's extent checked. */
export function readDdsHeader(b: Uint8Array, options: DdsOptions = {}): DdsHeader {
  need(b, 4, 'a DDS magic');
  if (u32le(b, 0) !== fourCC('DDS ')) fail(ErrorCode.BadMagic, 'a DDS starts with "DDS "', 0);
  need(b, DDS_HEADER_BYTES, 'a DDS header');
  const warnings: ParseWarning[] = [];
  const size = u32le(b, DDS_FIELD.size);
  const pfSize = u32le(b, DDS_FIELD.pfSize);
  if (size !== 124 || pfSize !== 32) {
    // Doom 3 reads the fields whatever the sizes say; Tesseract's loaddds refuses the file.
    warnings.push({ code: 'DDS_HEADER_SIZE', message: `DDS_HEADER size ${size} and DDPIXELFORMAT size ${pfSize} (124 and 32 are defined; Tesseract loaddds refuses the file, Doom 3 reads it)`, offset: size !== 124 ? DDS_FIELD.size : DDS_FIELD.pfSize });
  }
  const height = u32le(b, DDS_FIELD.height);
  const width = u32le(b, DDS_FIELD.width);
  const flags = u32le(b, DDS_FIELD.flags);
  const mips = u32le(b, DDS_FIELD.mipMapCount);
  const mipMapCount = flags & 0x20000 && mips > 0 ? mips : 1;
  const pfFlags = u32le(b, DDS_FIELD.pfFlags);
  const code = u32le(b, DDS_FIELD.fourCC);
  const bitCount = u32le(b, DDS_FIELD.bitCount);
  const caps2 = u32le(b, DDS_FIELD.caps2);
  let dataOffset = DDS_HEADER_BYTES;
  let encoding: DdsEncoding;
  let variant: string;
  let surfaces: string | null = caps2 & DDSCAPS2_CUBEMAP ? 'a cube map' : caps2 & DDSCAPS2_VOLUME ? 'a volume texture' : null;
  let engines = true; // whether Doom 3 or Tesseract loads the variant

  if (pfFlags & DDPF_FOURCC) {
    const name = fourCCText(code);
    variant = name;
    switch (name) {
      case 'DXT1':
        encoding = { kind: 'bc1', punchThrough: (pfFlags & DDPF_ALPHAPIXELS) !== 0 };
        break;
      case 'DXT2':
      case 'DXT3':
        encoding = { kind: 'bc2' };
        break;
      case 'DXT4':
      case 'DXT5':
        encoding = { kind: 'bc3', rxgb: false };
        break;
      case 'RXGB':
        encoding = { kind: 'bc3', rxgb: true };
        break;
      case 'ATI1':
      case 'BC4U':
        encoding = { kind: 'bc4' };
        engines = name === 'ATI1';
        break;
      case 'ATI2':
      case 'BC5U':
        encoding = { kind: 'bc5' };
        engines = name === 'ATI2';
        break;
      case 'DX10': {
        need(b, DDS_HEADER_BYTES + DDS_DX10_BYTES, 'a DDS DX10 header');
        dataOffset += DDS_DX10_BYTES;
        const format = u32le(b, DDS_FIELD.dxgiFormat);
        const dimension = u32le(b, DDS_FIELD.resourceDimension);
        const arraySize = u32le(b, DDS_FIELD.arraySize);
        variant = `DX10 ${DXGI_NAMES[format] ?? `DXGI format ${format}`}`;
        if (dimension < 2 || dimension > 4) fail(ErrorCode.Unsupported, `DDS DX10 resource dimension ${dimension} (2, 3 and 4 are textures)`, DDS_FIELD.resourceDimension);
        const e = dxgiEncoding(format);
        if (!e) fail(ErrorCode.Unsupported, `DDS ${variant} (read: BC1–BC5 UNORM, RGBA8 and BGRA8)`, DDS_FIELD.dxgiFormat);
        encoding = e;
        engines = false;
        if (u32le(b, DDS_FIELD.miscFlag) & 0x4) surfaces = 'a cube map';
        else if (dimension === 4) surfaces = 'a volume texture';
        else if (arraySize > 1) surfaces = `an array of ${arraySize}`;
        break;
      }
      default: {
        const what = { BC4S: 'signed BC4', BC5S: 'signed BC5', ATI3: '3Dc+', UYVY: 'YUV', YUY2: 'YUV' }[name];
        const printable = [0, 8, 16, 24].every((k) => ((code >>> k) & 255) >= 0x20 && ((code >>> k) & 255) <= 0x7e);
        fail(ErrorCode.Unsupported, `DDS FourCC ${printable ? `'${name}'` : `D3DFMT ${code}`}${what ? ` (${what})` : ''}; read: DXT1–DXT5, RXGB, ATI1/BC4U, ATI2/BC5U and DX10 BC1–BC5/RGBA8`, DDS_FIELD.fourCC);
      }
    }
    if (name === 'DXT2' || name === 'DXT4') {
      warnings.push({ code: 'PREMULTIPLIED_ALPHA', message: `DDS ${name} stores colours premultiplied by alpha: decoded as ${name === 'DXT2' ? 'DXT3' : 'DXT5'}, colours left premultiplied (as Tesseract uploads it)`, offset: DDS_FIELD.fourCC });
    }
  } else if (pfFlags & (DDPF_PALETTEINDEXED8 | DDPF_YUV | DDPF_BUMPDUDV)) {
    const what = pfFlags & DDPF_PALETTEINDEXED8 ? '8-bit palette' : pfFlags & DDPF_YUV ? 'YUV' : 'bump du/dv';
    fail(ErrorCode.Unsupported, `DDS ${what} pixel format (read: DXT/BC, RGB, luminance and alpha)`, DDS_FIELD.pfFlags);
  } else {
    const alpha = (pfFlags & DDPF_ALPHAPIXELS) !== 0;
    const masks: [number, number, number, number] = [u32le(b, DDS_FIELD.rMask), u32le(b, DDS_FIELD.gMask), u32le(b, DDS_FIELD.bMask), alpha ? u32le(b, DDS_FIELD.aMask) : 0];
    if (pfFlags & DDPF_RGB) {
      if (![16, 24, 32].includes(bitCount)) fail(ErrorCode.Unsupported, `DDS RGB with ${bitCount} bits per pixel (16, 24 and 32 are read)`, DDS_FIELD.bitCount);
      variant = `RGB ${bitCount}-bit ${maskName(bitCount, masks)}`;
      encoding = { kind: 'masks', bytesPerPixel: bitCount >> 3, masks };
      // Doom 3 uploads 24 and 32-bit RGB (as BGR / BGRA, whatever the masks); Tesseract reads no uncompressed DDS.
      engines = bitCount !== 16;
    } else if (pfFlags & DDPF_LUMINANCE) {
      if (bitCount !== 8 && bitCount !== 16) fail(ErrorCode.Unsupported, `DDS luminance with ${bitCount} bits per pixel (8 and 16 are read)`, DDS_FIELD.bitCount);
      // D3DFMT_L8, A4L4, L16, A8L8; masks that do not fit the pixel (Pillow writes 0xFF000000 for an 8-bit L) are the layout's own.
      const fits = (m: number, fallback: number) => (m !== 0 && m < 2 ** bitCount ? m : fallback);
      const l = fits(masks[0], bitCount === 16 && !alpha ? 0xffff : bitCount === 16 ? 0xff : alpha ? 0x0f : 0xff);
      const a = alpha ? fits(masks[3], bitCount === 16 ? 0xff00 : 0xf0) : 0;
      variant = bitCount === 8 ? (alpha ? 'A4L4' : 'L8') : alpha ? 'A8L8' : 'L16';
      encoding = { kind: 'masks', bytesPerPixel: bitCount >> 3, masks: [l, l, l, a] };
      engines = false;
      if (bitCount === 8) {
        // Doom 3 uploads every 8-bit uncompressed DDS as GL_ALPHA8, whatever its flags: it would draw this as alpha.
        engines = true;
        warnings.push({ code: 'DOOM3_ALPHA8', message: `DDS ${variant}: decoded as luminance, as the format says; Doom 3 UploadPrecompressedImage would upload its bytes as GL_ALPHA8 (Tesseract loaddds refuses it)`, offset: DDS_FIELD.bitCount });
      }
    } else if (bitCount === 8 && pfFlags & (DDPF_ALPHA | DDPF_ALPHAPIXELS)) {
      // Doom 3 writes its GL_ALPHA8 images with DDPF_ALPHAPIXELS and reads any 8-bit uncompressed DDS as alpha.
      variant = 'A8';
      encoding = { kind: 'masks', bytesPerPixel: 1, masks: [0, 0, 0, 0xff] };
    } else {
      fail(ErrorCode.Unsupported, `DDS pixel format flags 0x${pfFlags.toString(16)} with ${bitCount} bits per pixel (neither FourCC, RGB, luminance nor 8-bit alpha)`, DDS_FIELD.pfFlags);
    }
  }

  checkDimensions(width, height, DDS_FIELD.height, `DDS ${variant}`);
  const dataBytes = encoding.kind === 'masks' ? width * height * encoding.bytesPerPixel : Math.ceil(width / 4) * Math.ceil(height / 4) * blockBytes(encoding);
  const available = b.length - dataOffset;
  if (dataBytes > available) {
    fail(ErrorCode.Truncated, `DDS ${variant} ${width}×${height}: the first image needs ${dataBytes} bytes from byte ${dataOffset}; ${Math.max(0, available)} follow`, b.length);
  }
  checkPixels(width, height, DDS_FIELD.height, `DDS ${variant}`, options);
  if (surfaces) warnings.push({ code: 'FIRST_SURFACE', message: `DDS holds ${surfaces}: its first image is decoded`, offset: DDS_FIELD.caps2 });
  if (!engines) {
    warnings.push({ code: 'ENGINE_UNSUPPORTED', message: `DDS ${variant}: neither Doom 3 UploadPrecompressedImage (DXT1/3/5, RXGB, 24/32-bit RGB, 8-bit alpha) nor Tesseract loaddds (DXT1–5, ATI1, ATI2) loads it`, offset: DDS_FIELD.pfFlags });
  }
  const hasAlpha =
    encoding.kind === 'bc1' ? encoding.punchThrough : encoding.kind === 'bc2' || (encoding.kind === 'bc3' && !encoding.rxgb) ? true : encoding.kind === 'masks' ? encoding.masks[3] !== 0 : false;
  return { width, height, mipMapCount, variant, encoding, dataOffset, dataBytes, hasAlpha, surfaces, warnings };
}

/** Header facts without decoding. */
export function ddsInfo(b: Uint8Array, options: DdsOptions = {}): ImageInfo {
  const h = readDdsHeader(b, options);
  const rxgb = h.encoding.kind === 'bc3' && h.encoding.rxgb ? ' (red in alpha)' : '';
  return {
    format: 'dds',
    width: h.width,
    height: h.height,
    hasAlpha: h.hasAlpha,
    detail: `DDS ${h.variant}${rxgb}, ${h.mipMapCount} mip level${h.mipMapCount === 1 ? '' : 's'}${h.surfaces ? `, ${h.surfaces}` : ''}`,
  };
}

// --- block decoders ---------------------------------------------------------------------------------------------

/** 5- and 6-bit channels widened by bit replication. */
const FIVE = /* @__PURE__ */ Uint8Array.from({ length: 32 }, (_, v) => (v << 3) | (v >> 2));
const SIX = /* @__PURE__ */ Uint8Array.from({ length: 64 }, (_, v) => (v << 2) | (v >> 4));

/**
 * The four RGBA colours of a BC1 colour block at `s` into `pal` (16 bytes). `threeColour`: whether c0 ≤ c1 selects
 * the three-colour mode (BC1 only; BC2/BC3 colour blocks always have four); `punchThrough`: whether its fourth
 * entry is transparent.
 */
function colourPalette(b: Uint8Array, s: number, pal: Uint8Array, threeColour: boolean, punchThrough: boolean): void {
  const c0 = b[s] | (b[s + 1] << 8);
  const c1 = b[s + 2] | (b[s + 3] << 8);
  const r0 = FIVE[c0 >> 11], g0 = SIX[(c0 >> 5) & 63], b0 = FIVE[c0 & 31];
  const r1 = FIVE[c1 >> 11], g1 = SIX[(c1 >> 5) & 63], b1 = FIVE[c1 & 31];
  pal[0] = r0; pal[1] = g0; pal[2] = b0; pal[3] = 255;
  pal[4] = r1; pal[5] = g1; pal[6] = b1; pal[7] = 255;
  if (c0 > c1 || !threeColour) {
    pal[8] = ((2 * r0 + r1) / 3) | 0; pal[9] = ((2 * g0 + g1) / 3) | 0; pal[10] = ((2 * b0 + b1) / 3) | 0; pal[11] = 255;
    pal[12] = ((r0 + 2 * r1) / 3) | 0; pal[13] = ((g0 + 2 * g1) / 3) | 0; pal[14] = ((b0 + 2 * b1) / 3) | 0; pal[15] = 255;
  } else {
    pal[8] = (r0 + r1) >> 1; pal[9] = (g0 + g1) >> 1; pal[10] = (b0 + b1) >> 1; pal[11] = 255;
    pal[12] = 0; pal[13] = 0; pal[14] = 0; pal[15] = punchThrough ? 0 : 255;
  }
}

/** The eight values of a BC3 alpha / BC4 block whose two endpoints are at `s`. */
function rampPalette(b: Uint8Array, s: number, ramp: Uint8Array): void {
  const a0 = b[s];
  const a1 = b[s + 1];
  ramp[0] = a0;
  ramp[1] = a1;
  if (a0 > a1) {
    for (let i = 1; i < 7; i++) ramp[i + 1] = (((7 - i) * a0 + i * a1) / 7) | 0;
  } else {
    for (let i = 1; i < 5; i++) ramp[i + 1] = (((5 - i) * a0 + i * a1) / 5) | 0;
    ramp[6] = 0;
    ramp[7] = 255;
  }
}

/** The 3-bit index of pixel `p` (0–15) of a ramp block whose 48 index bits start at `s`. */
function rampIndex(b: Uint8Array, s: number, p: number): number {
  const bit = p * 3;
  const at = s + (bit >> 3);
  const v = b[at] | (at + 1 < s + 6 ? b[at + 1] << 8 : 0);
  return (v >> (bit & 7)) & 7;
}

function decodeBlocks(b: Uint8Array, h: DdsHeader, rgba: Uint8Array): void {
  const { width: w, height: rows, encoding: e } = h;
  const size = blockBytes(e);
  const pal = new Uint8Array(16);
  const ramp = new Uint8Array(8);
  const ramp2 = new Uint8Array(8);
  const blocksWide = Math.ceil(w / 4);
  let s = h.dataOffset;
  for (let by = 0; by < rows; by += 4) {
    for (let bx = 0; bx < blocksWide * 4; bx += 4, s += size) {
      const maxY = Math.min(4, rows - by);
      const maxX = Math.min(4, w - bx);
      if (e.kind === 'bc4' || e.kind === 'bc5') {
        rampPalette(b, s, ramp);
        if (e.kind === 'bc5') rampPalette(b, s + 8, ramp2);
        for (let y = 0; y < maxY; y++) {
          let d = ((by + y) * w + bx) * 4;
          for (let x = 0; x < maxX; x++, d += 4) {
            const p = y * 4 + x;
            const red = ramp[rampIndex(b, s + 2, p)];
            if (e.kind === 'bc4') {
              rgba[d] = red; rgba[d + 1] = red; rgba[d + 2] = red;
            } else {
              rgba[d] = red; rgba[d + 1] = ramp2[rampIndex(b, s + 10, p)]; rgba[d + 2] = 0;
            }
            rgba[d + 3] = 255;
          }
        }
        continue;
      }
      const colourAt = e.kind === 'bc1' ? s : s + 8;
      colourPalette(b, colourAt, pal, e.kind === 'bc1', e.kind === 'bc1' && e.punchThrough);
      if (e.kind === 'bc3') rampPalette(b, s, ramp);
      const bits = u32le(b, colourAt + 4);
      for (let y = 0; y < maxY; y++) {
        let d = ((by + y) * w + bx) * 4;
        for (let x = 0; x < maxX; x++, d += 4) {
          const p = y * 4 + x;
          const c = ((bits >>> (2 * p)) & 3) * 4;
          rgba[d] = pal[c];
          rgba[d + 1] = pal[c + 1];
          rgba[d + 2] = pal[c + 2];
          if (e.kind === 'bc1') rgba[d + 3] = pal[c + 3];
          else if (e.kind === 'bc2') rgba[d + 3] = ((b[s + (p >> 1)] >> ((p & 1) * 4)) & 15) * 17;
          else if (e.kind === 'bc3' && !e.rxgb) rgba[d + 3] = ramp[rampIndex(b, s + 2, p)];
          else {
            rgba[d] = ramp[rampIndex(b, s + 2, p)]; // RXGB: red lives in the alpha block; the colour block's red is unused
            rgba[d + 3] = 255;
          }
        }
      }
    }
  }
}

/** One channel under `mask` of `v`, widened to 8 bits as ⌊v · 255 / max⌋; 0 for an empty mask. */
function channelOf(mask: number): { shift: number; max: number } {
  if (mask === 0) return { shift: 0, max: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  return { shift, max: mask >>> shift };
}

function decodeMasks(b: Uint8Array, h: DdsHeader, rgba: Uint8Array): void {
  const e = h.encoding as Extract<DdsEncoding, { kind: 'masks' }>;
  const n = e.bytesPerPixel;
  const channels = e.masks.map(channelOf);
  const pixels = h.width * h.height;
  // A lookup per distinct mask when it costs less than the pixels it serves (always for 8-bit and smaller channels);
  // otherwise each value is computed.
  const byMask = new Map<number, Uint8Array | null>();
  const tables = channels.map(({ max }, c) => {
    if (max === 0 || max > 0xffff || (max > 0xff && max >= pixels)) return null;
    let t = byMask.get(e.masks[c]);
    if (t === undefined) {
      t = new Uint8Array(max + 1);
      for (let v = 0; v <= max; v++) t[v] = Math.floor((v * 255) / max);
      byMask.set(e.masks[c], t);
    }
    return t;
  });
  for (let i = 0, s = h.dataOffset, d = 0; i < pixels; i++, s += n, d += 4) {
    const v = n === 1 ? b[s] : n === 2 ? b[s] | (b[s + 1] << 8) : n === 3 ? b[s] | (b[s + 1] << 8) | (b[s + 2] << 16) : u32le(b, s);
    for (let c = 0; c < 4; c++) {
      const { shift, max } = channels[c];
      const t = tables[c];
      const raw = ((v & e.masks[c]) >>> 0) >>> shift;
      rgba[d + c] = max === 0 ? (c === 3 && e.masks[3] === 0 ? 255 : 0) : t ? t[raw] : Math.floor((raw * 255) / max);
    }
  }
}

/** Decodes a DDS file's first image into RGBA8, top row first. Throws ModelParseError for anything malformed or unsupported. */
export function decodeDds(b: Uint8Array, options: DdsOptions = {}): RgbaImage {
  const h = readDdsHeader(b, options);
  const rgba = new Uint8Array(h.width * h.height * 4);
  if (h.encoding.kind === 'masks') decodeMasks(b, h, rgba);
  else decodeBlocks(b, h, rgba);
  return { kind: 'rgba', format: 'dds', width: h.width, height: h.height, rgba, warnings: h.warnings };
}

/**
 * The image floor (bytes → pixels; imports only base): TGA, PCX, BMP and DDS decoded to RGBA8, PNG and JPEG passed
 * through with their header facts, RGBA8 → PNG for embedding. docs/images.md says what each reader accepts and why.
 */
export { decodeImage, readImageInfo, type DecodeImageOptions } from './decode.js';
export { detectImageFormat, imageFormatFromName } from './detect.js';
export { decodeTga, tgaInfo } from './tga.js';
export { decodePcx, pcxInfo, pcxPalette, type PcxOptions } from './pcx.js';
export { decodeBmp, bmpInfo } from './bmp.js';
export { decodeDds, ddsInfo, readDdsHeader, type DdsHeader, type DdsOptions } from './dds.js';
export { pngInfo, type PngInfo } from './png-info.js';
export { jpegInfo, type JpegInfo } from './jpeg-info.js';
export { encodePng, type PngEncodeOptions } from './png-encode.js';
export { MAX_PIXELS, MAX_RGBA_BYTES } from './dimensions.js';
export type { DecodedFormat, DecodedImage, ImageFormat, ImageInfo, PassthroughFormat, PassthroughImage, RgbaImage } from './types.js';

/**
 * idtech-models/textures — what a model looks like: each surface's images and render states found as its engine
 * finds them (skins, shader scripts, `.mtr`, Quake's palette) through any `FileSystem`, and the image codecs behind
 * them (TGA / PCX / BMP / DDS decoded to RGBA8, PNG and JPEG passed through; RGBA8 encoded as PNG).
 * `resolveModelTextures` gives what `toGlb(model, { textures })` embeds.
 */
export { MaterialResolver, type MaterialSet, type Md3Options } from './materials/resolver.js';
export { listSkins, type SkinOffer } from './materials/skins.js';
export type { ResolvedImage, ResolvedMaterial, MaterialWarning } from './materials/types.js';
export { resolveModelTextures, type ModelTextures, type ResolveTexturesOptions, type TexturedModel } from './registry/textures.js';
export type { ResolvedTextures } from './export/textures.js';
export { decodeImage } from './images/decode.js';
export { encodePng } from './images/png-encode.js';
export type { DecodedImage, RgbaImage, PassthroughImage, ImageFormat } from './images/types.js';

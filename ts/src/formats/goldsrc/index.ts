/** Half-Life (GoldSrc) studio models, MDL version 10: reader, companions, animation decoding, poser. */
export { parseGoldsrc, parseGoldsrcStream, GoldsrcParser } from './parser.js';
export { isGoldsrcHead, isCompanionOnly, readGoldsrcHead } from './header.js';
export { goldsrcCompanionsBeside, goldsrcAcceptsCompanion, goldsrcParts, seqGroupPath, textureFilePath } from './companions.js';
export { goldsrcFormat } from './format.js';
export { MAXSTUDIO, SIZE as GOLDSRC_SIZE } from './limits.js';
export type * from './model.js';

/**
 * idtech-models/mds — Return to Castle Wolfenstein's skeletal model (MDS, `MDSW` version 4): parse (one buffer, or
 * streamed), its levels of detail through the collapse map, and the registration for the neutral door (`mdsEntry`;
 * `mdsModel`, the part that exports: `toGlb(parseMds(bytes), { format: mdsModel })`). Posing runs through the
 * registration's view and playable (`openPlayable`, `IdTechLoader`). docs/mds.md.
 */
export { parseMds, parseMdsStream, MdsParser } from './parser.js';
export { lodTriangles, lodVertexCount } from './lod.js';
export { MDS_MAX } from './limits.js';
export { mdsEntry } from './entry.js';
export { mdsModel } from './model-entry.js';
export type * from './model.js';

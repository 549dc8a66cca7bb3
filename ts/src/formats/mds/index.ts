/** Return to Castle Wolfenstein's skeletal models (MDS, `MDSW` version 4): reader, LOD, doors. */
export { parseMds, parseMdsStream, MdsParser } from './parser.js';
export { isMdsHead, readMdsHead } from './header.js';
export { mdsFormat } from './format.js';
export { lodTriangles, lodVertexCount } from './lod.js';
export { MDS_MAX, MDS_SIZE, MDS_IDENT, MDS_VERSION } from './limits.js';
export type * from './model.js';

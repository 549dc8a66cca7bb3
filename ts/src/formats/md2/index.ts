/** MD2 (Quake 2): header-first validated binary reader, push parser for streams, frame decoding and un-welding. */
export { parseMd2, Md2Parser } from './parser.js';
export { parseMd2Stream } from './stream.js';
export { readMd2Header } from './header.js';
export { MD2_HEADER_BYTES } from './limits.js';
export { LIMITS } from './limits.js';
export { MD2_NORMALS, MD2_NORMAL_COUNT } from '../../kernels/quake-normals.js';
export { md2TexCoords, md2Unwelded, type Md2Unwelded } from './geometry.js';
export { md2GlCommandList, md2GlCommandTriangles, type Md2GlCommand } from './glcmds.js';
export { clipNameOf, groupClips } from './clips.js';

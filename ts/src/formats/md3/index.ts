/**
 * MD3 (Quake 3): the offset-driven binary parser, imported when a file is first read. animation.cfg is a module of its
 * own (`animation-cfg.ts`), imported apart: an app that parses an MD3 does not carry it (docs/package.md).
 */
export { Md3Parser, parseMd3 } from './parser.js';
export { parseMd3Stream } from './stream.js';
export { readMd3Header } from './header.js';
export { HEADER_BYTES as MD3_HEADER_BYTES } from './layout.js';
export { MD3_LIMITS, MD3_MAX_FILE_BYTES } from './limits.js';

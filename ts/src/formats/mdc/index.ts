/** RTCW/ET MDC (`IDPC` version 2): reader, and its frames and tags decoded into MD3's shape as the engine draws them. */
export { MdcParser, parseMdc, parseMdcStream } from './parser.js';
export { readMdcHeader, isMdcHead } from './header.js';
export { mdcToMd3, mdcFrameBytes, anglesToAxis } from './to-md3.js';
export { mdcNormalTable } from './normals.js';
export { writeMdc, mdcBaseFrames } from './write.js';
export { mdcFormat } from './format.js';
export { MDC_LIMITS } from './limits.js';
export type * from './model.js';

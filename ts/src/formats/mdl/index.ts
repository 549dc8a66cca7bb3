/** MDL (Quake; QuakeForge MD16, Hexen II RAPO): streamed reader, layout walk, clips, drawable geometry. */
export { parseMdl, MdlParser } from './parser.js';
export { parseMdlStream } from './stream.js';
export { mdlFormat } from './format.js';
export { checkMdlIdentity, isMdlHead, readMdlHeader } from './header.js';
export { MDL_LIMITS, MDL_FLAG_NAMES, MDL_HEADER_BYTES, RAPO_HEADER_BYTES } from './limits.js';
export { mdlClips, frameOfPose } from './clips.js';
export { mdlDrawVertices, type MdlDrawVertices } from './geometry.js';

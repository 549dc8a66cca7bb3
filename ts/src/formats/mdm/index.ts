/** Enemy Territory's skeletal meshes (MDM, `MDMW` v3) and skeletons (MDX, `MDXW` v2): readers, pairing, doors. */
export { parseMdm, parseMdmStream, MdmParser, parseMdx, parseMdxStream, MdxParser } from './parser.js';
export { isMdmHead, isMdxHead } from './header.js';
export { mdmFormat, mdxFormat } from './format.js';
export { mdxPathOf, pairMismatch } from './pairing.js';
export { MDM_MAX, MDM_SIZE, MDX_MAX_BONES, MDX_SIZE } from './limits.js';
export type * from './model.js';

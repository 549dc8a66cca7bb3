/**
 * idtech-models/mdm — Enemy Territory's skeletal mesh (MDM, `MDMW` version 3) and the skeleton it plays on (MDX,
 * `MDXW` version 2): parse each (one buffer, or streamed), the MDX the engine pairs with a mesh (`mdxPathOf`), and the
 * registrations for the neutral door (`mdmEntry`, `mdxEntry`: `openModelSet` opens an MDM with its MDX as one set).
 * docs/mds.md.
 */
export { parseMdm, parseMdmStream, MdmParser, parseMdx, parseMdxStream, MdxParser } from './parser.js';
export { mdxPathOf } from './pairing.js';
export { MDM_MAX, MDX_MAX_BONES } from './limits.js';
export { mdmEntry, mdxEntry } from './entry.js';
export { mdmModel } from './model-entry.js';
export type * from './model.js';

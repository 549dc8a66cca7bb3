/**
 * idtech-models/mdl — Quake's MDL: parse, pose (`MdlPoser`, its frame groups timed as Quake times them), its skins
 * through the Quake palette, and the registration for the neutral door (`mdlEntry`; `mdlModel`, the part that
 * exports: `toGlb(parseMdl(bytes), { format: mdlModel })`). docs/mdl.md.
 */
export { parseMdl } from './parser.js';
export { parseMdlStream } from './stream.js';
export { MdlPoser, type MdlPoses } from './poser.js';
export { mdlEntry } from './entry.js';
export { mdlModel } from './model-entry.js';
export type { MdlFrame, MdlModel, MdlSkin, MdlTrailing, MdlVariant } from '../../base/model.js';

/**
 * idtech-models/mdl — Quake's MDL: parse, pose (`MdlPoser`, its frame groups timed as Quake times them), its skins
 * through the Quake palette, and the registration for the neutral door (`mdlEntry`; `mdlModel`, the part that
 * exports: `toGlb(parseMdl(bytes), { format: mdlModel })`). docs/mdl.md.
 */
export { parseMdl } from './formats/mdl/parser.js';
export { parseMdlStream } from './formats/mdl/stream.js';
export { MdlPoser, type MdlPoses } from './formats/mdl/poser.js';
export { mdlEntry } from './formats/mdl/entry.js';
export { mdlModel } from './formats/mdl/model-entry.js';
export type { MdlFrame, MdlModel, MdlSkin, MdlTrailing, MdlVariant } from './base/model.js';

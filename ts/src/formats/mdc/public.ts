/**
 * idtech-models/mdc — RTCW's and Enemy Territory's compressed MD3: parse (every field kept), decode into the MD3
 * data shape as ET: Legacy's renderer draws it (`mdcToMd3`: then `Md3Poser` and the rest of idtech-models/md3 take
 * it), and the registration for the neutral door (`mdcEntry`; `mdcModel`, the part that exports:
 * `toGlb(parseMdc(bytes), { format: mdcModel })`). docs/mdc.md.
 */
export { parseMdc, parseMdcStream, MdcParser } from './parser.js';
export { mdcToMd3 } from './to-md3.js';
export { writeMdc } from './write.js';
export { mdcEntry } from './entry.js';
export { mdcModel } from './model-entry.js';
export type { MdcModel, MdcSurface } from './model.js';

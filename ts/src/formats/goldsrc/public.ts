/**
 * idtech-models/goldsrc — Half-Life's studio model (GoldSrc MDL, version 10): parse (one buffer, or streamed), its
 * texture and sequence group files (`<name>T.mdl`, `<name>01.mdl` …) named as the engine names them, pose
 * (`GoldsrcPoser` over `goldsrcDraw(model)`, on a backend from `idtech-models`' `createBackend`), and the
 * registration for the neutral door (`goldsrcEntry`; `goldsrcModel`, the part that exports: `toGlb(set, { format:
 * goldsrcEntry })`: a studio model's textures and groups are its set's files). docs/goldsrc.md.
 */
export { parseGoldsrc, parseGoldsrcStream } from './parser.js';
export { textureFilePath, seqGroupPath } from './companions.js';
export { goldsrcDraw, type GoldsrcDraw, type GoldsrcDrawMesh } from './geometry.js';
export { GoldsrcPoser } from './poser.js';
export { goldsrcEntry } from './entry.js';
export { goldsrcModel } from './model-entry.js';
export type * from './model.js';

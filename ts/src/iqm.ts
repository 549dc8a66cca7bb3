/**
 * idtech-models/iqm — the Inter-Quake Model: parse, pose (`IqmPoser`: joints, linear blend skinning on a backend),
 * Tesseract's `iqm.cfg` and DarkPlaces' `.framegroups` read as those engines do, and the registration for the
 * neutral door (`iqmEntry`; `iqmModel`, the part that exports: `toGlb(parseIqm(bytes), { format: iqmModel })`).
 * docs/iqm.md.
 */
export { parseIqm } from './formats/iqm/parser.js';
export { parseIqmStream } from './formats/iqm/stream.js';
export { IqmPoser, type IqmPoserOptions } from './formats/iqm/poser.js';
export { parseFrameGroups, type IqmFrameGroup } from './formats/iqm/framegroups.js';
export { readIqmConfig, type IqmConfig, type IqmConfigOptions } from './formats/iqm/iqm-cfg.js';
export { iqmEntry } from './formats/iqm/entry.js';
export { iqmModel } from './formats/iqm/model-entry.js';
export type { IqmAnim, IqmJoints, IqmMesh, IqmModel } from './base/model.js';

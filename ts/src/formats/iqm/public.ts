/**
 * idtech-models/iqm — the Inter-Quake Model: parse, pose (`IqmPoser`: joints, linear blend skinning on a backend),
 * Tesseract's `iqm.cfg` and DarkPlaces' `.framegroups` read as those engines do, and the registration for the
 * neutral door (`iqmEntry`; `iqmModel`, the part that exports: `toGlb(parseIqm(bytes), { format: iqmModel })`).
 * docs/iqm.md.
 */
export { parseIqm } from './parser.js';
export { parseIqmStream } from './stream.js';
export { IqmPoser, type IqmPoserOptions } from '../../pose/iqm-poser.js';
export { parseFrameGroups, type IqmFrameGroup } from './framegroups.js';
export { readIqmConfig, type IqmConfig, type IqmConfigOptions } from './iqm-cfg.js';
export { iqmEntry } from './entry.js';
export { iqmModel } from './model-entry.js';
export type { IqmAnim, IqmJoints, IqmMesh, IqmModel } from '../../base/model.js';

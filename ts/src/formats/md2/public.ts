/**
 * idtech-models/md2 — Quake 2's MD2: parse, pose (`Md2Poser` on a backend from `idtech-models`' `createBackend`), and
 * the format's registration for the neutral door (`md2Entry`; `md2Model`, the part that exports: `toGlb(model,
 * { format: md2Model })`).
 */
export { parseMd2 } from './parser.js';
export { parseMd2Stream } from './stream.js';
export { Md2Poser, type Md2Frames } from '../../pose/md2-poser.js';
export { md2Entry } from './entry.js';
export { md2Model } from './model-entry.js';
export type { Md2Clip, Md2GlCommands, Md2Model, Md2Skin } from '../../base/model.js';

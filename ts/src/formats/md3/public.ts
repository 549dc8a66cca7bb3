/**
 * idtech-models/md3 — Quake 3's MD3 and its player folders: parse, pose (`Md3Poser`; a player's parts chained by
 * their tags, `Md3Player`, animated by its `animation.cfg`), and the registrations for the neutral door (`md3Entry`,
 * `playerEntry`; `md3Model` / `playerModel`, the part that exports: `toGlb(parseMd3(bytes), { format: md3Model })`).
 */
export { parseMd3 } from './parser.js';
export { parseMd3Stream } from './stream.js';
export { Md3Poser, type Md3Frames } from '../../pose/md3-poser.js';
export { parseAnimationCfg, type Md3Animation, type Md3AnimationCfg, type Md3AnimationClip, type Md3AnimationName } from './animation-cfg.js';
export {
  Md3Player,
  type Md3PartPose, type Md3PlayerModels, type Md3PlayerPart, type Md3PlayerPose, type Md3PlayerPoseInput, type Md3PlayerSurfaceRange,
} from './player.js';
export { md3Entry, playerEntry } from './entry.js';
export { md3Model } from './model-entry.js';
export { playerModel, type PlayerLike } from './folder-model-entries.js';
export type { Md3PlayerData } from './player-parts.js';
export type { Md3Model, Md3Surface } from '../../base/model.js';

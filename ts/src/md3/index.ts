/** MD3 (Quake 3): offset-driven binary parser, reference vertex/tag decoders, animation.cfg and the player chain. */
export { Md3Parser, parseMd3 } from './parser.js';
export { parseMd3Stream } from './stream.js';
export { MD3_LIMITS, MD3_MAX_FILE_BYTES } from './limits.js';
export { MD3_XYZ_SCALE } from './format.js';
export { decodeMd3Normal, md3FramePositions, md3LerpFramePositions, type Md3FramePose } from './frame.js';
export { lerpTag, md3TagIndex, TAG_FLOATS as MD3_TAG_FLOATS, type LerpTagOptions } from './tag.js';
export {
  MD3_DERIVED_ANIMATIONS, MD3_PLAYER_ANIMATIONS, parseAnimationCfg,
  type Md3Animation, type Md3AnimationCfg, type Md3AnimationName,
} from './animation-cfg.js';
export { md3ClipFrameAt } from './clip.js';
export {
  Md3Player,
  type Md3PartPose, type Md3PlayerModels, type Md3PlayerPart, type Md3PlayerPose, type Md3PlayerPoseInput, type Md3PlayerSurfaceRange,
} from './player.js';

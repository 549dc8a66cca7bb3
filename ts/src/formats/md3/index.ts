/** MD3 (Quake 3): offset-driven binary parser and animation.cfg (the player chain that uses them is in `pose/`). */
export { Md3Parser, parseMd3 } from './parser.js';
export { parseMd3Stream } from './stream.js';
export { readMd3Header } from './header.js';
export { HEADER_BYTES as MD3_HEADER_BYTES } from './layout.js';
export { MD3_LIMITS, MD3_MAX_FILE_BYTES } from './limits.js';
export {
  MD3_BUILDABLE_ANIMATIONS, MD3_DERIVED_ANIMATIONS, MD3_NONSEGMENTED_ANIMATIONS, MD3_PLAYER_ANIMATIONS, MD3_UNVANQUISHED_PLAYER_ANIMATIONS, parseAnimationCfg,
  type AnimationCfgForm, type AnimationCfgOptions, type PlayerAnimationNames, type Md3Animation, type Md3AnimationCfg, type Md3AnimationClip, type Md3AnimationName,
} from './animation-cfg.js';

/** IQM (Inter-Quake Model v2): offset-driven binary parser, DarkPlaces framegroups, Tesseract iqm.cfg, companions. */
export { IqmParser, parseIqm } from './parser.js';
export { parseIqmStream } from './stream.js';
export { isIqm, readIqmHeader } from './header.js';
export { HEADER_BYTES as IQM_HEADER_BYTES } from './layout.js';
export { IQM_LIMITS } from './limits.js';
export { iqmFormat } from './format.js';
export { iqmCompanionsBeside, iqmMeshesPlaying } from './companions.js';
export { iqmClips, type IqmClip, type IqmClipInput } from './clips.js';
export { iqmAcceptsCompanion, IQM_DEFAULT_FPS } from '../../pose/iqm-anim-match.js';
export { boundFrameGroups, parseFrameGroups, type IqmFrameGroup } from './framegroups.js';
export { clipFrames } from './clips.js';
export {
  configAnimationFiles, configClips, readIqmConfig, stripTextureCommand, type IqmCfgClip,
  type IqmCfgAnim, type IqmCfgBumpmap, type IqmCfgSkin, type IqmCfgTag, type IqmConfig,
} from './iqm-cfg.js';
export { cubeCommands, type CubeCommand, type CubeWord } from './cubescript.js';

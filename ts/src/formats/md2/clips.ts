/** MD2 clips from frame names: the grouping MD2 and MDL share (base/frame-clips.ts). */
export { clipNameOf, groupClips } from '../../base/frame-clips.js';

/** The views of the formats registered here, loaded together on the first `view` call (one chunk, not one per format). */
export { md2View } from './md2-view.js';
export { md3Clips, md3View } from './md3-view.js';
export { md5View } from './md5-view.js';
export { mdlView } from './mdl-view.js';
export { playerView } from './player-view.js';

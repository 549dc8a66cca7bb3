/** The views of the formats registered here, loaded together on the first `view` call (one chunk, not one per format). */
export { md2View } from '../formats/md2/view.js';
export { md3Clips, md3View } from '../formats/md3/view.js';
export { md5View } from '../formats/md5/view.js';
export { mdlView } from '../formats/mdl/view.js';
export { playerView } from '../formats/md3/player-view.js';

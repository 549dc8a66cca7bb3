/** An MD3 as a morph view: a top-level file of the formats floor (formats/md3-view.ts), shared with MDC. */
export { md3View, md3Clips } from '../md3-view.js';

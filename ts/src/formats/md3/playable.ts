/** A lone MD3 as a playable model: on the playable floor (playable/md3-playable.ts), shared with MDC. */
export { md3Playable } from '../../playable/md3-playable.js';

/** studiomdl's frame rate, used where a sequence's own is 0 (its `$sequence` default). */
export const GOLDSRC_DEFAULT_FPS = 30;

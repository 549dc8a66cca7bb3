/**
 * The front door's `openPlayable`: the playables (`open.ts` and the per-format players, materials and Quake 3 player
 * assembly under it) are imported on the first call, so a page that only parses, poses or exports never fetches them.
 */
import type { ModelFile, OpenOptions, PlayableModel } from './playable.js';

/**
 * Opens a model from its files: one `.md5mesh` with any number of `.md5anim`s (each a clip), or one `.md2` /
 * `.md3`, or a Quake 3 player's parts. Parse errors reject with the parser's `ModelParseError`; files that do not
 * make one model reject with a plain `Error` saying why.
 */
export async function openPlayable(files: ModelFile[], options: OpenOptions = {}): Promise<PlayableModel> {
  const { openPlayable: open } = await import('./open.js');
  return open(files, options);
}

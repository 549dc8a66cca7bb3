/**
 * The front door's `openPlayable`: the playables (`open-playable.ts`, the registrations and the per-format players,
 * materials and folder formats under them) are imported on the first call, so a page that only parses, poses or
 * exports never fetches them.
 */
import type { PlayableModel, ModelFile } from '../playable/playable.js';
import type { OpenPlayableOptions } from './open-playable.js';

/**
 * Opens a model from its files: a model file with what plays on it (an `.md5mesh` with any number of `.md5anim`s,
 * each a clip), an `.md2`, an `.md3`, or a Quake 3 player's parts. Failures reject with a `ModelParseError` naming
 * the file (UNKNOWN_FORMAT for files that do not make one model).
 */
export async function openPlayable(files: ModelFile[], options: OpenPlayableOptions = {}): Promise<PlayableModel> {
  const { openPlayable: open } = await import('./open-playable.js');
  return open(files, options);
}

/**
 * Crowds: many instances of one posable model, each at its own time in its own clip, posed together once per frame —
 * by one kernel job for a skinned model (every instance's joint palette), by two frame numbers and a blend per
 * instance for a vertex-animated one (the frames stay in one texture). Any format whose registration gives a view
 * (`FormatEntry.view`): the crowd reads the view by its kind, never a format's name. A tagged view (parts hung on
 * tags: a Quake 3 player) has no crowd yet.
 */
import type { PoseBackend } from '../kernels/backend.js';
import type { ModelView } from '../formats/model-view.js';
import type { FormatEntry } from '../formats/entry.js';
import type { ModelSet } from '../load/model-set.js';
import type { CrowdStart } from './instances.js';
import { createMorphCrowd, type MorphCrowd } from './morph-crowd.js';
import { createSkinnedCrowd, type SkinnedCrowd } from './skinned-crowd.js';

export type Crowd = SkinnedCrowd | MorphCrowd;

export interface CrowdOptions extends CrowdStart {
  /** Where a skinned crowd's palettes live and its job runs. */
  backend: PoseBackend;
}

/** A crowd of `count` instances of the model `view` shows (a registration's `view(set, backend)`). */
export function createCrowd(view: ModelView, count: number, options: CrowdOptions): Crowd {
  switch (view.kind) {
    case 'skinned':
      return createSkinnedCrowd(view, count, options);
    case 'morph':
      return createMorphCrowd(view, count, options);
    default:
      throw new RangeError(`a crowd of a ${view.kind} view (parts hung on tags) is not supported yet: a skinned or a morph view is`);
  }
}

/**
 * A crowd of `count` instances of the model set `set` (`openModelSet`, `openModelFile`): its registration's view
 * (`FormatEntry.view`) on `options.backend`, then {@link createCrowd}. The view comes back with it (a renderer builds
 * the crowd's geometry from it: `three/crowd.ts`); release it with `disposeCrowdView` when done.
 */
export async function openCrowd(set: ModelSet<unknown, FormatEntry>, count: number, options: CrowdOptions): Promise<{ crowd: Crowd; view: ModelView }> {
  const entry = set.registration;
  if (!entry.view) throw new TypeError(`${entry.title}: no view of it here to pose (its registration has no \`view\`)`);
  const view = await entry.view(set, options.backend);
  try {
    return { crowd: createCrowd(view, count, options), view };
  } catch (e) {
    disposeCrowdView(view);
    throw e;
  }
}

/** Releases what a view holds (a skinned view's buffers, a morph view's poser, a tagged view's parts' posers). */
export function disposeCrowdView(view: ModelView): void {
  if (view.kind === 'skinned') view.dispose();
  else if (view.kind === 'morph') view.poser.dispose();
  else for (const p of view.parts) p.view.poser.dispose();
}

export { createSkinnedCrowd, type SkinnedCrowd, type SkinnedCrowdOptions, type CrowdClip } from './skinned-crowd.js';
export { createMorphCrowd, morphFrameTable, morphClipTimes, type MorphCrowd, type MorphCrowdClip, type MorphCrowdOptions } from './morph-crowd.js';
export { keyAt, clipDuration, type KeyBlend, type ClockClip } from './clock.js';
export { MAX_CROWD, type CrowdStart, type CrowdInstances } from './instances.js';

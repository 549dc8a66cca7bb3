/**
 * Animation clips from frame names, for MD2 and MDL alike (on the base floor so both rooms share it). Neither has an
 * animation table: qdata and modelgen named each frame after the animation it belongs to plus a number
 * (`stand01`..`stand40`, `run1`..`run6`), and the game code plays index ranges. Grouping
 * consecutive frames whose names agree once trailing digits are stripped recovers those ranges. Frame numbers
 * that carry a group digit merge their groups (`pain101`..`pain304` → one `pain` clip of 12 frames), as in every
 * other loader that groups this way; docs/md2.md lists the Quake 2 player ranges.
 */
import type { Md2Clip } from './model.js';

/** The name with trailing ASCII digits removed ('run6' → 'run', 'frame' → 'frame', '123' → ''). */
export function clipNameOf(frameName: string): string {
  let end = frameName.length;
  while (end > 0) {
    const c = frameName.charCodeAt(end - 1);
    if (c < 48 || c > 57) break;
    end--;
  }
  return frameName.slice(0, end);
}

/** Consecutive frames with the same {@link clipNameOf} form one clip; a name that comes back later starts a new clip. */
export function groupClips(frameNames: readonly string[]): Md2Clip[] {
  const clips: Md2Clip[] = [];
  let current: Md2Clip | null = null;
  for (let f = 0; f < frameNames.length; f++) {
    const name = clipNameOf(frameNames[f]);
    if (current && current.name === name) {
      current.frameCount++;
    } else {
      current = { name, firstFrame: f, frameCount: 1 };
      clips.push(current);
    }
  }
  return clips;
}

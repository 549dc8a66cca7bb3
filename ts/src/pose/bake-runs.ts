/**
 * A bake into memory the caller owns, in runs: a poser's `bakeFrames` returns a view on one batch buffer in its
 * backend's memory, so a long bake goes through it a run at a time, each run copied out — the batch buffer holds one
 * run (at most 64 MB), not the whole bake. `Md5Poser.bakeFramesInto` and `IqmPoser.bakeFramesInto` share it.
 */

/** Frames a run holds at most (MD5 poses this many together before skinning them block by block). */
export const BAKE_RUN_FRAMES = 16;
/** Largest run, in floats (64 MB: 5 frames of a 1M-vertex model). */
const BAKE_RUN_FLOATS = 1 << 24;

/**
 * `frames` baked by `bake` (a view of run.length · span floats) into `into[offset ..]`, frame i at
 * `offset + i · span`. Throws RangeError when `into` is too short or `offset` is not a whole index. Returns `into`.
 */
export function bakeInRuns(frames: ArrayLike<number>, span: number, into: Float32Array, offset: number, bake: (run: number[]) => Float32Array): Float32Array {
  if (!Number.isInteger(offset) || offset < 0 || into.length < offset + frames.length * span) {
    throw new RangeError(`into: need ${frames.length * span} floats from offset ${offset}, have ${into.length}`);
  }
  const per = Math.max(1, Math.min(BAKE_RUN_FRAMES, Math.floor(BAKE_RUN_FLOATS / Math.max(1, span))));
  for (let c = 0; c < frames.length; c += per) {
    const run = Array.prototype.slice.call(frames, c, c + per) as number[];
    into.set(bake(run), offset + c * span);
  }
  return into;
}

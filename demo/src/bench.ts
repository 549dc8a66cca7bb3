/**
 * Milliseconds per frame of each backend, measured while the page runs: each call poses and skins the
 * current frame on one backend in a loop for a small time budget (a single pose of a small model is below
 * the browser's timer resolution), and the shown number is the median of the recent samples.
 */
import type { BackendName, ModelPlayer } from 'idtech-models';

const KEEP = 15;

export interface FrameRef {
  frame1: number;
  frame2: number;
  t: number;
}

export class BackendBench {
  private readonly samples = new Map<BackendName, number[]>();

  /** Poses `player` at `frame` repeatedly for about `budgetMs` (at least twice); records and returns ms per pose. */
  measure(name: BackendName, player: ModelPlayer, frame: FrameRef, budgetMs = 3): number {
    let n = 0;
    const t0 = performance.now();
    let elapsed = 0;
    do {
      player.poseBlend(frame.frame1, frame.frame2, frame.t);
      n++;
      elapsed = performance.now() - t0;
    } while (elapsed < budgetMs || n < 2);
    const ms = elapsed / n;
    const list = this.samples.get(name) ?? [];
    list.push(ms);
    if (list.length > KEEP) list.shift();
    this.samples.set(name, list);
    return ms;
  }

  /** Median of the recent samples, or undefined before the first. */
  msPerFrame(name: BackendName): number | undefined {
    const list = this.samples.get(name);
    if (!list?.length) return undefined;
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[sorted.length >> 1];
  }

  reset(): void {
    this.samples.clear();
  }
}

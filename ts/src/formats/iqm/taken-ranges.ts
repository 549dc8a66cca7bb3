/**
 * IQM extensions' data is copied once per byte: a record whose data overlaps an earlier kept record's is kept empty
 * (decode.ts). This answers "does [s, e) overlap a range taken before?" for each record in list order.
 */

/**
 * Byte ranges taken in turn, each unless it overlaps one taken before: O(log n) a range, where comparing each with
 * every earlier one was quadratic (80,000 extensions: 3.2 billion comparisons, 35 s). The starts of every range that may be asked are
 * known in advance (sorted, deduplicated); a Fenwick tree over them holds the furthest end taken at or below each.
 * A range [s, e) overlaps a taken [s', e') exactly when s' < e and e' > s: when the furthest end of the taken
 * ranges starting before e passes s.
 */
export class TakenRanges {
  /** Tree nodes visited so far (the test counts them: at most 2 (log₂ n + 1) a range). */
  steps = 0;
  private readonly starts: Float64Array;
  private readonly tree: Float64Array;
  constructor(starts: ArrayLike<number>) {
    const sorted = Float64Array.from(starts).sort();
    let n = 0;
    for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[n++] = sorted[i];
    this.starts = sorted.subarray(0, n);
    this.tree = new Float64Array(n + 1).fill(-1);
  }
  /** How many known starts are below `x`. */
  private below(x: number): number {
    let lo = 0, hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  /** Takes [start, end) (`start` one of the known starts) unless it overlaps a taken range; whether it was taken. */
  take(start: number, end: number): boolean {
    let furthest = -1;
    for (let i = this.below(end); i > 0; i -= i & -i) {
      furthest = Math.max(furthest, this.tree[i]);
      this.steps++;
    }
    if (furthest > start) return false;
    for (let i = this.below(start) + 1; i < this.tree.length; i += i & -i) {
      this.tree[i] = Math.max(this.tree[i], end);
      this.steps++;
    }
    return true;
  }
}

/**
 * A small deterministic PRNG for the fuzzer. Every fuzzed input is a pure function of (campaign seed, input index),
 * so a failure found after a million inputs is reproduced from two numbers, without logging any input.
 */

/** splitmix32: good enough statistics for choosing mutations, and cheap to seed per input. */
export class Rng {
  private s: number;

  constructor(seed: number) {
    this.s = seed >>> 0;
  }

  /** The generator of input `index` in campaign `seed` (the two are mixed so neighbouring indices differ fully). */
  static forInput(seed: number, index: number): Rng {
    const r = new Rng(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35));
    r.u32();
    return r;
  }

  /** A uniform 32-bit unsigned integer. */
  u32(): number {
    let z = (this.s = (this.s + 0x9e3779b9) | 0);
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    return (z ^ (z >>> 15)) >>> 0;
  }

  /** A uniform integer in [0, n) (n ≥ 1). */
  below(n: number): number {
    return n <= 0x100000000 ? Math.floor((this.u32() / 0x100000000) * n) : Math.floor(this.unit() * n);
  }

  /** A uniform integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.below(hi - lo + 1);
  }

  /** A uniform double in [0, 1). */
  unit(): number {
    return (this.u32() * 0x200000 + (this.u32() >>> 11)) / 2 ** 53;
  }

  chance(p: number): boolean {
    return this.unit() < p;
  }

  pick<T>(items: ArrayLike<T>): T {
    return items[this.below(items.length)];
  }

  /**
   * An offset in [0, n), biased towards the start: a mutation deep inside a 1 MB file costs a parse of everything
   * before it, while the interesting structure (headers, counts, the first blocks) sits near the start.
   */
  offsetIn(n: number): number {
    if (n <= 1) return 0;
    return this.chance(0.75) ? this.below(n) : Math.floor(n * this.unit() ** 2);
  }
}

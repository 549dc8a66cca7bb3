/**
 * Shrinks a failing input while it still fails the same way: delete chunks (halves, quarters, … single bytes), blank
 * ranges, then try turning each remaining byte into a space or '0' (text) / zero (binary). Bounded by `maxTries` parses, so a
 * minimisation always ends; the result is what goes under fixtures/regressions/.
 */
import { checkInput, type ViolationKind } from './invariant.js';
import { Rng } from './rng.js';
import type { FuzzTarget } from './targets.js';

export function minimize(target: FuzzTarget, bytes: Uint8Array, kind: ViolationKind, maxTries = 4000): Uint8Array {
  let tries = 0;
  const fails = (b: Uint8Array): boolean => {
    tries++;
    const v = checkInput(target, b, new Rng(7), { chunks: kind === 'chunk-mismatch', use: kind === 'use-untyped' }).violation;
    return v !== undefined && v.kind === kind;
  };
  let cur = bytes;
  for (let size = cur.length >> 1; size >= 1 && tries < maxTries; size >>= 1) {
    for (let at = 0; at + size <= cur.length && tries < maxTries; ) {
      const next = new Uint8Array(cur.length - size);
      next.set(cur.subarray(0, at));
      next.set(cur.subarray(at + size), at);
      if (fails(next)) cur = next;
      else at += size;
    }
  }
  const plain = target.text ? [0x20, 0x30] : [0];
  // Blank whole ranges (halves, quarters, …): binary files keep their offsets, so this is what shrinks them.
  for (let size = cur.length >> 1; size >= 4 && tries < maxTries; size >>= 1) {
    for (let at = 0; at + size <= cur.length && tries < maxTries; at += size) {
      if (cur.subarray(at, at + size).every((b) => b === plain[0])) continue;
      const next = cur.slice();
      next.fill(plain[0], at, at + size);
      if (fails(next)) cur = next;
    }
  }
  for (let at = 0; at < cur.length && tries < maxTries; at++) {
    for (const p of plain) {
      if (cur[at] === p) break;
      const next = cur.slice();
      next[at] = p;
      if (fails(next)) {
        cur = next;
        break;
      }
    }
  }
  return cur;
}

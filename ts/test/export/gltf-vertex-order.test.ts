/**
 * The greedy vertex chain behind toGlbMeshopt's `reorder` (gltf-vertex-order.ts): a permutation that starts where the
 * preorder does, puts equal rows side by side, and stays a permutation when the budget limits each step to a window.
 */
import { describe, expect, it } from 'vitest';
import { compressionOrder, REORDER_BUDGET } from '../../src/export/gltf-vertex-order.js';

const isPermutation = (order: ArrayLike<number>, n: number) => Array.from(order).sort((a, b) => a - b).every((v, i) => v === i) && order.length === n;

describe('compressionOrder', () => {
  it('chains equal rows together, starting at the preorder\'s first vertex', () => {
    // rows 0, 2, 4 equal; 1, 3 equal: the chain visits each group in one run
    const rows = Uint8Array.from([1, 2, 200, 100, 1, 2, 200, 100, 1, 2]);
    const order = compressionOrder(rows, 5, 2, [0, 1, 2, 3, 4]);
    expect(order[0]).toBe(0);
    expect(Array.from(order)).toEqual([0, 2, 4, 1, 3]);
  });

  it('past its budget each step looks at a window of the preorder: still a permutation', () => {
    const V = 3000, B = 64, budget = 64 * V * B; // a window of 64 vertices a step
    expect(V * V * B).toBeGreaterThan(budget);
    expect(REORDER_BUDGET).toBe(2e9);
    let seed = 1;
    const rows = Uint8Array.from({ length: V * B }, () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 24));
    const preorder = Array.from({ length: V }, (_, i) => (i * 7919) % V);
    const order = compressionOrder(rows, V, B, preorder, budget);
    expect(order[0]).toBe(preorder[0]);
    expect(isPermutation(order, V)).toBe(true);
  });
});

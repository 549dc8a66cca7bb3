/** Pixel comparison for the image tests. */

/** The first differing pixel, as a readable line, or ''. */
export function firstDifference(a: Uint8Array, b: Uint8Array, width: number): string {
  if (a.length !== b.length) return `lengths ${a.length} and ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      const p = i >> 2;
      return `pixel (${p % width}, ${Math.floor(p / width)}): ${Array.from(a.subarray(p * 4, p * 4 + 4))} vs ${Array.from(b.subarray(p * 4, p * 4 + 4))}`;
    }
  }
  return '';
}

/**
 * A playable model's part (its own module: `playable.ts` and `materials.ts` both read it, and `playable.ts` reads the
 * materials' types, so its living in either made an import circle).
 */
/** A drawable piece (an MD5 mesh, an MD3 surface): a range of the index buffer. */
export interface PlayablePart {
  name: string;
  firstIndex: number;
  indexCount: number;
  /** Which resolved material is its: the surface's index, and its player part (`lower`…) for a player. Default: its own index. */
  slot?: { surface: number; part?: string };
}

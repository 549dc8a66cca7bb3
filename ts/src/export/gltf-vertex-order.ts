/**
 * An opt-in vertex order for EXT_meshopt_compression (`toGlbMeshopt(model, { reorder: true })`, CLI `--reorder`), over
 * a finished document. The attribute codec stores each byte of an element as a delta from the same byte of the
 * previous element, in groups of 16 at 0, 2, 4 or 8 bits; morph targets are one accessor per frame, so only the order
 * of the vertices can bring similar bytes together. Each triangle mesh's vertices are chained greedily: the next is
 * the unused vertex whose bytes — base attributes and every target, as stored — cost the fewest codec bits after the
 * current one. Vertices that move and turn alike across the frames end up side by side (MD2's un-welded copies of one
 * file vertex, with the same position and normal in every frame, become neighbours at no cost).
 *
 * Off by default because vertex i is then no longer the file's vertex i: each reordered primitive says where its
 * vertices came from in `extras.sourceVertex` (new vertex i is old vertex sourceVertex[i]). Primitives without morph
 * targets keep their order (the triangles' first-use order suits the index codec better, and the map would cost its
 * JSON for little: one-frame MD3s grew by 2–14%), as do primitives that share an accessor with another (the
 * `md2Frames: 'nodes'` meshes share uvs and indices).
 */
import { COMPONENT_BYTES, elementBytes, type GltfAccessor } from './gltf-builder.js';

/** Byte comparisons one mesh's chain may spend; past it, each step looks at a window of the vertices instead of all. */
export const REORDER_BUDGET = 2e9;

/** Codec bits of a byte delta d (as uint8): 0 when equal, else what a group of such deltas costs (zigzag 2, 4 or 8 bits). */
const BITS = /* @__PURE__ */ Uint8Array.from({ length: 256 }, (_, d) => {
  const z = d < 128 ? 2 * d : 2 * (256 - d) - 1;
  return z === 0 ? 0 : z < 3 ? 2 : z < 15 ? 4 : 8;
});

interface Primitive {
  attributes: Record<string, number>;
  indices?: number;
  mode?: number;
  targets?: Record<string, number>[];
  extras?: Record<string, unknown>;
}

interface Document {
  meshes?: { primitives: Primitive[] }[];
  accessors?: GltfAccessor[];
  bufferViews?: { byteOffset: number; byteStride?: number }[];
}

/**
 * The greedy chain over `rows` (V rows of B bytes): order[i] is the vertex placed at i. It starts at preorder[0] and
 * looks at the first `window` unused vertices of `preorder` each step (all of them within `budget` byte comparisons).
 */
export function compressionOrder(rows: Uint8Array, V: number, B: number, preorder: ArrayLike<number>, budget = REORDER_BUDGET): Uint32Array {
  const window = Math.max(32, Math.floor(budget / Math.max(1, V * B)));
  const used = new Uint8Array(V), order = new Uint32Array(V);
  let cur = preorder[0], first = 0;
  used[cur] = 1;
  order[0] = cur;
  for (let i = 1; i < V; i++) {
    while (used[preorder[first]]) first++;
    let best = -1, bestCost = Infinity;
    for (let p = first, seen = 0; p < V && seen < window; p++) {
      const c = preorder[p];
      if (used[c]) continue;
      seen++;
      let cost = 0;
      for (let k = 0, a = cur * B, b = c * B; k < B && cost < bestCost; k++) cost += BITS[(rows[a + k] - rows[b + k]) & 255];
      if (cost < bestCost) {
        bestCost = cost;
        best = c;
      }
    }
    used[best] = 1;
    order[i] = cur = best;
  }
  return order;
}

/** Reorders the vertices of every morph-target triangle primitive that owns its accessors, in `bin` (buffer 0). */
export function reorderVertices(doc: Document, bin: Uint8Array): void {
  const accessors = doc.accessors ?? [], views = doc.bufferViews ?? [];
  const primitives = (doc.meshes ?? []).flatMap((m) => m.primitives);
  const accessorsOf = (p: Primitive) => [...Object.values(p.attributes), ...(p.targets ?? []).flatMap((t) => Object.values(t))];
  const uses = new Map<number, number>();
  for (const p of primitives) for (const a of [...accessorsOf(p), p.indices ?? -1]) uses.set(a, (uses.get(a) ?? 0) + 1);
  for (const p of primitives) {
    const own = accessorsOf(p);
    if (!p.targets?.length || p.indices === undefined || (p.mode ?? 4) !== 4 || [...own, p.indices].some((a) => uses.get(a) !== 1)) continue;
    const V = accessors[own[0]].count;
    if (own.some((a) => accessors[a].count !== V)) continue;
    const layout = own.map((a) => {
      const acc = accessors[a], size = elementBytes(acc), view = views[acc.bufferView];
      return { at: view.byteOffset + (acc.byteOffset ?? 0), stride: view.byteStride ?? size, size };
    });
    const B = layout.reduce((s, l) => s + l.size, 0);
    const rows = new Uint8Array(V * B);
    for (let v = 0, o = 0; v < V; v++) for (const l of layout) {
      rows.set(bin.subarray(l.at + v * l.stride, l.at + v * l.stride + l.size), o);
      o += l.size;
    }
    // indices, read and written as stored
    const ia = accessors[p.indices], iv = views[ia.bufferView];
    const ib = COMPONENT_BYTES[ia.componentType];
    const dv = new DataView(bin.buffer, bin.byteOffset + iv.byteOffset + (ia.byteOffset ?? 0), ia.count * ib);
    const get = (i: number) => (ib === 1 ? dv.getUint8(i) : ib === 2 ? dv.getUint16(i * 2, true) : dv.getUint32(i * 4, true));
    // the chain starts from the order the triangles first use the vertices (then any they never use)
    const preorder: number[] = [], seen = new Uint8Array(V);
    for (let i = 0; i < ia.count; i++) {
      const v = get(i);
      if (v < V && !seen[v]++) preorder.push(v);
    }
    for (let v = 0; v < V; v++) if (!seen[v]) preorder.push(v);
    const order = compressionOrder(rows, V, B, preorder);
    const remap = new Uint32Array(V);
    order.forEach((old, i) => (remap[old] = i));
    for (const [k, l] of layout.entries()) {
      const rowAt = layout.slice(0, k).reduce((s, x) => s + x.size, 0);
      for (let i = 0; i < V; i++) bin.set(rows.subarray(order[i] * B + rowAt, order[i] * B + rowAt + l.size), l.at + i * l.stride);
    }
    for (let i = 0; i < ia.count; i++) {
      const v = remap[get(i)];
      if (ib === 1) dv.setUint8(i, v);
      else if (ib === 2) dv.setUint16(i * 2, v, true);
      else dv.setUint32(i * 4, v, true);
    }
    p.extras = { ...p.extras, sourceVertex: Array.from(order) };
  }
}

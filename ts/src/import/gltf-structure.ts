/**
 * A glTF's structure checked before anything walks it, every check one pass over what the file holds (no recursion,
 * nothing quadratic), each bound stated:
 * - before glTF Transform reads the JSON (`preflightGltf`): at most `maxGltfNodes` nodes (default 16,384: glTF
 *   Transform keeps ~1.9 KB per node, so 16,384 nodes take ~31 MB however few bytes declare them), every node
 *   reference glTF Transform would follow (children, scene roots, skin joints) an index of the node list (it
 *   would otherwise throw a TypeError from inside); each accessor inside its buffer view, each sparse accessor's `count` at most its accessor's
 *   and its indices and values inside their views (glTF Transform loops `sparse.count` times whatever its views
 *   hold: 2³¹ − 1 in a 70 KB file spun for minutes); data made from nothing at most 64 bytes per input byte + 1 MiB;
 * - after it (`checkNodeTree`): no node its own ancestor (glTF Transform keeps a cycle, and its getWorldMatrix then
 *   climbs parents forever) and none deeper than `maxGltfDepth` (default 256) below its root — found in one pass
 *   that gives every node its depth once, so a chain of 16,384 nodes costs 16,384 steps, not 16,384².
 * Counts and depths over a bound are RESOURCE_LIMIT, references and cycles UNSUPPORTED, sizes BAD_COUNT; every
 * detail names the element.
 */
import type { Document, Node } from '@gltf-transform/core';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { shortName } from '../base/message-name.js';
import { overLimit, resourceLimits, type ResourceLimits } from '../base/resource-limits.js';

/**
 * The bounds a glTF is read and imported under (defaults: the process's `ResourceLimits`): its structure (nodes,
 * depth), and what an import to an id format may sample from it (gltf-scene.ts `importBounds`: frames, bytes, morph
 * target vertices, and the pixels of an image it decodes).
 */
export type GltfLimits = Partial<Pick<ResourceLimits, 'maxGltfNodes' | 'maxGltfDepth' | 'maxImportFrames' | 'maxImportBytes' | 'maxMorphTargetVertices' | 'maxImagePixels' | 'maxAtlasPixels'>>;

const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
/** Sparse indices are unsigned (glTF 2.0 §5.1.7.1). */
const INDEX_BYTES: Record<number, number> = { 5121: 1, 5123: 2, 5125: 4 };
/** Data a glTF may make from nothing, per input byte: zero-filled accessors (no buffer view) and meshopt-decoded views. */
export const MADE_PER_BYTE = 64;

type Json = Record<string, unknown>;
const list = (x: unknown): Json[] => (Array.isArray(x) ? x.map((v) => (v && typeof v === 'object' ? v : {}) as Json) : []);
const num = (x: unknown, fallback = 0) => (typeof x === 'number' && Number.isFinite(x) ? x : fallback);
const unsupported = (detail: string): never => {
  throw new ModelParseError(ErrorCode.Unsupported, detail, { offset: 0 });
};
const badCount = (detail: string): never => {
  throw new ModelParseError(ErrorCode.BadCount, detail, { offset: 0 });
};

/**
 * The checks made on the JSON before glTF Transform reads it (see the file comment). `inputBytes`: the glTF's
 * bytes and its files' (a buffer counted at its declared byteLength, which its reader then enforces).
 */
export function preflightGltf(json: unknown, inputBytes: number, limits: GltfLimits = {}): void {
  if (!json || typeof json !== 'object') return;
  const j = json as Json;
  checkNodeReferences(j, limits.maxGltfNodes ?? resourceLimits().maxGltfNodes);
  const views = list(j.bufferViews);
  const budget = MADE_PER_BYTE * inputBytes + (1 << 20);
  let made = 0;
  const spend = (bytes: number, what: string) => {
    made += bytes;
    if (!(made <= budget)) badCount(`${what} makes ${bytes} bytes from no data: more than ${MADE_PER_BYTE} per input byte + 1 MiB (${budget}) in all`);
  };
  views.forEach((v, i) => {
    const ext = (v.extensions as Record<string, Record<string, unknown>> | undefined) ?? {};
    for (const name of ['EXT_meshopt_compression', 'KHR_meshopt_compression']) {
      const m = ext[name];
      if (m && typeof m === 'object') spend(num(m.count) * num(m.byteStride), `buffer view ${i} (${name}, count ${String(m.count)} × byteStride ${String(m.byteStride)})`);
    }
  });
  /** `count` elements of `size` bytes from byte `offset` of view `index` must fit in it (glTF 2.0 §3.6.2.4). */
  const fits = (what: string, index: unknown, offset: unknown, count: number, size: number, stride = size) => {
    const view = typeof index === 'number' ? views[index] : undefined;
    if (view === undefined) unsupported(`${what} names buffer view ${String(index)}, which the file does not have (${views.length} views)`);
    const need = count === 0 ? 0 : num(offset) + (num(view!.byteStride) || stride) * (count - 1) + size;
    if (need > num(view!.byteLength)) badCount(`${what}: count ${count} needs ${need} bytes of buffer view ${String(index)}, which holds ${String(view!.byteLength)}`);
  };
  list(j.accessors).forEach((a, i) => {
    const size = (COMPONENTS[String(a.type)] ?? 0) * (COMPONENT_BYTES[num(a.componentType)] ?? 0);
    const count = num(a.count, -1);
    if (size === 0 || !(count >= 0)) return; // glTF Transform refuses these itself
    if (typeof a.bufferView === 'number') fits(`accessor ${i}`, a.bufferView, a.byteOffset, count, size);
    else spend(count * size, `accessor ${i} (count ${count}, no buffer view)`);
    if (a.sparse !== undefined) checkSparse(a.sparse, i, count, size, fits);
  });
  // after the accessors fit their views: a count that does not fit is BAD_COUNT, not a morph total over the limit
  checkMorphTargets(j, limits.maxMorphTargetVertices ?? resourceLimits().maxMorphTargetVertices);
}

/**
 * A sparse accessor (glTF 2.0 §3.6.2.3): `count` a whole number from 1 to the accessor's count, indices of an
 * unsigned type, and `count` indices and `count` elements inside their buffer views (tightly packed: sparse views
 * have no stride) — checked before glTF Transform loops over them.
 */
function checkSparse(sparse: unknown, i: number, accessorCount: number, elementBytes: number, fits: (what: string, view: unknown, offset: unknown, count: number, size: number, stride?: number) => void): void {
  const s = (sparse && typeof sparse === 'object' ? sparse : {}) as Json;
  const count = s.count;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > accessorCount) {
    badCount(`accessor ${i}: sparse count ${String(count)} is not a whole number from 1 to the accessor's count ${accessorCount}`);
  }
  const indices = (s.indices && typeof s.indices === 'object' ? s.indices : {}) as Json;
  const values = (s.values && typeof s.values === 'object' ? s.values : {}) as Json;
  const indexBytes = INDEX_BYTES[num(indices.componentType)];
  if (!indexBytes) unsupported(`accessor ${i}: sparse indices of component type ${String(indices.componentType)} (5121, 5123 or 5125)`);
  fits(`accessor ${i} sparse indices`, indices.bufferView, indices.byteOffset, count as number, indexBytes, indexBytes);
  fits(`accessor ${i} sparse values`, values.bufferView, values.byteOffset, count as number, elementBytes, elementBytes);
}

/**
 * At most `maxMorph` morph target vertices (Σ over the meshes' primitives of targets × the POSITION accessor's count),
 * counted in the JSON before glTF Transform makes an object of every target: 50,000 targets naming one accessor are
 * 750 KB of JSON, 176 MB of glTF Transform objects and then 50,000 copies for an import to pose. Each mesh is counted
 * once here; the import counts it again per node that shows it (gltf-scene.ts `trianglePrimitives`).
 */
function checkMorphTargets(j: Json, maxMorph: number): void {
  const accessors = list(j.accessors);
  let morph = 0;
  list(j.meshes).forEach((m, i) => {
    list(m.primitives).forEach((p, k) => {
      const targets = Array.isArray(p.targets) ? p.targets.length : 0;
      if (targets === 0) return;
      const position = ((p.attributes && typeof p.attributes === 'object' ? p.attributes : {}) as Json).POSITION;
      const vertices = typeof position === 'number' ? num(accessors[position]?.count) : 0;
      morph += targets * vertices;
      if (morph > maxMorph) throw overLimit(`mesh ${i} primitive ${k}: ${targets} morph targets × ${vertices} vertices make ${morph} morph target vertices in all`, 'maxMorphTargetVertices', maxMorph, 0, ErrorCode.Unwritable);
    });
  });
}

/** At most `maxNodes` nodes, and every reference to a node an index of `nodes` (a node never its own child). */
function checkNodeReferences(j: Json, maxNodes: number): void {
  const nodes = Array.isArray(j.nodes) ? j.nodes : [];
  if (nodes.length > maxNodes) throw overLimit(`${nodes.length} nodes`, 'maxGltfNodes', maxNodes);
  const n = nodes.length;
  const node = (x: unknown, where: string, self = -1) => {
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= n) unsupported(`${where} names node ${JSON.stringify(x)?.slice(0, 40)}, not one of the file's ${n} nodes`);
    if (x === self) unsupported(`${where} names the node itself: glTF nodes form trees (glTF 2.0 §3.5.3)`);
  };
  const indices = (x: unknown, where: string, self = -1) => {
    if (x === undefined) return;
    if (!Array.isArray(x)) return unsupported(`${where} is not a list of node indices`);
    for (const c of x) node(c, where, self);
  };
  list(j.nodes).forEach((d, i) => indices(d.children, `node ${i}'s children`, i));
  const scenes = list(j.scenes);
  scenes.forEach((d, i) => indices(d.nodes, `scene ${i}'s nodes`));
  list(j.skins).forEach((d, i) => indices(d.joints ?? [], `skin ${i}'s joints`));
  // Not checked, because glTF Transform reads them as nothing and the import goes on as it always has: an animation
  // channel's target node (the channel drives nothing), a skin's skeleton, the default scene (the first one is used).
}

/**
 * No node its own ancestor and none deeper than `maxGltfDepth`, in one pass over the document's nodes: each node's
 * parent chain is climbed only until a node whose depth is known, so every node is stepped over once. @internal
 */
export function checkNodeTree(doc: Document, limits: GltfLimits = {}): void {
  const maxDepth = limits.maxGltfDepth ?? resourceLimits().maxGltfDepth;
  const nodes = doc.getRoot().listNodes();
  const index = new Map<Node, number>(nodes.map((n, i) => [n, i]));
  const UNKNOWN = -1;
  const ON_PATH = -2;
  const depth = new Int32Array(nodes.length).fill(UNKNOWN);
  const path: number[] = [];
  for (let i = 0; i < nodes.length; i++) {
    path.length = 0;
    let at = i;
    while (at >= 0 && depth[at] === UNKNOWN) {
      depth[at] = ON_PATH;
      path.push(at);
      const parent = nodes[at].getParentNode();
      at = parent ? index.get(parent) ?? -1 : -1;
    }
    if (at >= 0 && depth[at] === ON_PATH) {
      unsupported(`node ${at} ("${nameText(nodes[at])}") is its own ancestor: its parents' children lists make a cycle`);
    }
    let d = at < 0 ? -1 : depth[at];
    for (let k = path.length - 1; k >= 0; k--) {
      depth[path[k]] = ++d;
      if (d > maxDepth) throw overLimit(`node ${path[k]} ("${nameText(nodes[path[k]])}") is ${d} levels below its root`, 'maxGltfDepth', maxDepth);
    }
  }
}

/** A node's name for a message (a JSON name need not be a string). */
const nameText = (n: Node): string => {
  const name: unknown = n.getName();
  return shortName(typeof name === 'string' ? name : '');
};

/**
 * Nodes from `roots` in depth-first pre-order (parents before children, children in order), iteratively; each node
 * once (a node listed twice is visited where it is first met). `follow` says whether to descend into a child (its
 * parent given too). @internal
 */
export function preorder(roots: readonly Node[], follow: (child: Node, parent: Node) => boolean = () => true): Node[] {
  const out: Node[] = [];
  const seen = new Set<Node>();
  const stack: Node[] = [...roots].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    out.push(n);
    const children = n.listChildren();
    for (let k = children.length - 1; k >= 0; k--) if (follow(children[k], n)) stack.push(children[k]);
  }
  return out;
}

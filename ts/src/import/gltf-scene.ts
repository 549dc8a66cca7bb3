/**
 * What every glTF → id-format import reads the same way: the default scene's nodes in order, its triangle
 * primitives (winding turned to id's), the frames to sample (each animation at a rate, or the document as it
 * stands), glTF → id axes, and the errors and names the id formats need. `gltf-md3.ts`, `gltf-md2.ts` and
 * `gltf-md5.ts` build their models from these.
 */
import type { Animation, Document, Mesh, Node, Primitive } from '@gltf-transform/core';
import type { ParseWarning } from '../base/errors.js';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { overLimit, resourceLimits } from '../base/resource-limits.js';
import type { GltfInput } from './gltf.js';
import { animationPlayer, duration, evenKeyRate } from './gltf-sample.js';
import { preorder } from './gltf-structure.js';

const TRIANGLES = 4;

export function unwritable(detail: string): never {
  throw new ModelParseError(ErrorCode.Unwritable, detail, { offset: 0 });
}

/** A glTF that breaks the spec in a way the import cannot read past (a typed error naming where). */
export function unsupported(detail: string): never {
  throw new ModelParseError(ErrorCode.Unsupported, detail, { offset: 0 });
}

/** glTF axes → id axes (inverse of the exporter's (x, y, z) → (x, z, −y)). */
export const toId = (x: number, y: number, z: number): [number, number, number] => [x, -z, y];

/** Latin-1 text of at most `bytes` characters (others become '_'); a name that is not a string in the JSON is ''. */
export function field(text: unknown, bytes: number): string {
  return (typeof text === 'string' ? text : '').replace(/[^\x01-\xff]/g, '_').slice(0, bytes);
}

/** A glTF object's name: glTF Transform passes a JSON `name` through as it is, which need not be a string. */
export const nameOf = (x: { getName(): unknown } | null | undefined): string => {
  const n = x?.getName();
  return typeof n === 'string' ? n : '';
};

/**
 * What one import may sample (docs/security.md, "glTF → id formats"): the caller's `maxFrames` / `maxBytes` option,
 * else the input's `limits`, else the process's `ResourceLimits` (what `--limit` sets). @internal
 */
export interface ImportBounds {
  /** `maxImportFrames`: frames sampled in all. */
  maxFrames: number;
  /** `maxImportBytes`: bytes the sampled frames take (each importer counts its own, before sampling). */
  maxBytes: number;
  /** `maxMorphTargetVertices`: morph target vertices read (targets × vertices, over every primitive). */
  maxMorphTargetVertices: number;
  /** `maxImagePixels`: pixels of an image decoded (MDL's skin). */
  maxImagePixels: number;
  /** `maxAtlasPixels`: pixels of the images an MD2 / MDL atlas decodes and bakes, in all (gltf-atlas.ts). */
  maxAtlasPixels: number;
}

/** @internal */
export function importBounds(input: Pick<GltfInput, 'limits'>, options: { maxFrames?: number; maxBytes?: number } = {}): ImportBounds {
  const process = resourceLimits();
  const given = input.limits ?? {};
  return {
    maxFrames: options.maxFrames ?? given.maxImportFrames ?? process.maxImportFrames,
    maxBytes: options.maxBytes ?? given.maxImportBytes ?? process.maxImportBytes,
    maxMorphTargetVertices: given.maxMorphTargetVertices ?? process.maxMorphTargetVertices,
    maxImagePixels: given.maxImagePixels ?? process.maxImagePixels,
    maxAtlasPixels: given.maxAtlasPixels ?? process.maxAtlasPixels,
  };
}

/**
 * UNWRITABLE naming `maxImportBytes` when `what` (the frames to sample, said in full) are more than `max` bytes:
 * called with the count before the first frame is sampled. @internal
 */
export function checkImportBytes(what: string, bytes: number, max: number): void {
  if (!(bytes <= max)) throw overLimit(`${what} are ${bytes} bytes to sample`, 'maxImportBytes', max, 0, ErrorCode.Unwritable);
}

/** The element type each attribute the import reads must have (glTF 2.0 §3.7.2.1), with JOINTS_0 / WEIGHTS_0. */
const ATTRIBUTE_SIZES: Record<string, number> = { POSITION: 3, NORMAL: 3, TEXCOORD_0: 2, JOINTS_0: 4, WEIGHTS_0: 4 };

/**
 * The default scene's nodes (or every node when there is no scene), parents before children, in scene order: an
 * iterative walk (gltf-structure.ts `preorder`) over a tree `readGltfDocument` has checked (no cycle, depth at most
 * `maxGltfDepth`, at most `maxGltfNodes` nodes). @internal
 */
export function sceneNodes(doc: Document): Node[] {
  const root = doc.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  return preorder(scene ? scene.listChildren() : root.listNodes().filter((n) => !n.getParentNode()));
}

/** One triangle primitive of a mesh node. */
export interface TrianglePrimitive {
  node: Node;
  mesh: Mesh;
  prim: Primitive;
  /** The mesh's name (`mesh_p` when it has several primitives), else the node's. */
  name: string;
  vertexCount: number;
  /** 3 per triangle, id's clockwise winding (glTF's (a, b, c) as (a, c, b)). */
  triangles: Uint32Array;
  /** TEXCOORD_0 as stored (2 per vertex; zeros without it). */
  uvs: Float32Array;
  /** The material's name ('' without one). */
  material: string;
}

/** The least bytes any id format holds per vertex per frame (MD2's and MDL's 4), and per triangle (3 uint32 indices). */
const VERTEX_BYTES = 4;
const TRIANGLE_BYTES = 12;

/**
 * Every triangle primitive with positions of every mesh node in `nodes`; other primitives are skipped with a
 * GLTF_PRIMITIVE_SKIPPED warning. Counted before each is copied, per mesh node (a mesh on many nodes is copied for
 * each, and every importer then poses each copy):
 * - morph target vertices (targets × vertices) at most `maxMorphTargetVertices` in all — 50,000 targets naming one
 *   accessor are 50,000 copies to pose from;
 * - one frame of their vertices (4 bytes each, the least any id format holds) and their triangles (12 bytes) at most
 *   `maxBytes` (`maxImportBytes`): each importer counts its frames exactly before sampling them, this bounds what
 *   is copied before it can.
 * Defaults: the process's `ResourceLimits`.
 * @internal
 */
export function trianglePrimitives(nodes: Node[], warnings: ParseWarning[], limits: { maxMorphTargetVertices?: number; maxBytes?: number } = {}): TrianglePrimitive[] {
  const maxMorph = limits.maxMorphTargetVertices ?? resourceLimits().maxMorphTargetVertices;
  const maxBytes = limits.maxBytes ?? resourceLimits().maxImportBytes;
  const out: TrianglePrimitive[] = [];
  let morph = 0, vertices = 0, triangleTotal = 0;
  for (const node of nodes) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const prims = mesh.listPrimitives();
    prims.forEach((prim, p) => {
      const base = nameOf(mesh) || nameOf(node);
      const name = prims.length > 1 ? `${base}_${p}` : base || `surface${out.length}`;
      const position = prim.getAttribute('POSITION');
      if (prim.getMode() !== TRIANGLES || !position) {
        warnings.push({ code: 'GLTF_PRIMITIVE_SKIPPED', message: `primitive ${p} of mesh "${name}" is not triangles with positions: not imported`, offset: 0 });
        return;
      }
      const vertexCount = position.getCount();
      const targets = prim.listTargets().length;
      morph += targets * vertexCount;
      if (morph > maxMorph) {
        throw overLimit(`mesh "${name}" primitive ${p}: ${targets} morph targets × ${vertexCount} vertices make ${morph} morph target vertices in all`, 'maxMorphTargetVertices', maxMorph, 0, ErrorCode.Unwritable);
      }
      const idx = prim.getIndices();
      const triangleCount = Math.floor((idx ? idx.getCount() : vertexCount) / 3);
      vertices += vertexCount;
      triangleTotal += triangleCount;
      checkImportBytes(`one frame of ${vertices} vertices and ${triangleTotal} triangles (every mesh node's primitives, at least ${VERTEX_BYTES} and ${TRIANGLE_BYTES} bytes each)`, VERTEX_BYTES * vertices + TRIANGLE_BYTES * triangleTotal, maxBytes);
      // every attribute read per vertex has one element per vertex, of the spec's type (else reads run past it)
      const attributes = [...Object.keys(ATTRIBUTE_SIZES).map((k) => [k, prim.getAttribute(k)] as const), ...prim.listTargets().flatMap((t, i) => (['POSITION', 'NORMAL'] as const).map((k) => [`target ${i} ${k}`, t.getAttribute(k)] as const))];
      for (const [what, a] of attributes) {
        if (!a) continue;
        const size = ATTRIBUTE_SIZES[what.replace(/^target \d+ /, '')];
        if (a.getCount() !== vertexCount || a.getElementSize() !== size) {
          unsupported(`mesh "${name}" primitive ${p}: ${what} has ${a.getCount()} elements of ${a.getElementSize()} values, POSITION ${vertexCount} vertices (${size} values each)`);
        }
      }
      const triangles = new Uint32Array(3 * triangleCount);
      for (let t = 0; t < triangleCount; t++) {
        const at = (k: number) => (idx ? idx.getScalar(3 * t + k) : 3 * t + k);
        triangles[3 * t] = at(0);
        triangles[3 * t + 1] = at(2);
        triangles[3 * t + 2] = at(1);
      }
      for (const i of triangles) if (!(i < vertexCount)) unwritable(`mesh "${name}" primitive ${p}: index ${i} is past its ${vertexCount} vertices`);
      const uvs = new Float32Array(2 * vertexCount);
      const uv = prim.getAttribute('TEXCOORD_0');
      if (uv) for (let v = 0, el: number[] = []; v < vertexCount; v++) uvs.set(uv.getElement(v, el).slice(0, 2), 2 * v);
      const bad = uvs.findIndex((x) => !Number.isFinite(x));
      if (bad >= 0) unwritable(`mesh "${name}" primitive ${p}: TEXCOORD_0 of vertex ${bad >> 1} is ${uvs[bad]}`);
      out.push({ node, mesh, prim, name, vertexCount, triangles, uvs, material: nameOf(prim.getMaterial()) });
    });
  }
  return out;
}

/** One frame to sample: an animation (index into the document's) at a time, or the document as it stands. @internal */
export interface SampleFrame {
  /** Sets the nodes the animation drives to their values at `time`; absent for the document as it stands. */
  play?: (time: number) => void;
  animation: number;
  time: number;
  /** The animation's name ('frame' for the document as it stands). */
  name: string;
}

/**
 * The caller's sampling options, checked once for every importer: `fps` (when given) and `scale` finite and
 * positive, else a RangeError (they are options, not the file's data). One place, so MD2, MD3, MD5 and the player
 * refuse the same values.
 */
export function checkSampling(fps: number | undefined, scale: number): void {
  const ok = (x: number) => x > 0 && Number.isFinite(x);
  if (!(fps === undefined || ok(fps)) || !ok(scale)) throw new RangeError('fps and scale must be positive');
}

/**
 * Frames of one animation (`⌊duration · fps⌋ + 1`), added to `before` frames: at most `maxFrames` in all, else
 * UNWRITABLE naming `maxImportFrames` — counted before any is sampled (a key at a huge time would otherwise ask for
 * unbounded memory and time). A duration that is not finite is UNWRITABLE too. @internal
 */
export function animationFrames(a: Animation, index: number, fps: number, before: number, maxFrames: number): number {
  const seconds = duration(a);
  if (!Number.isFinite(seconds)) unwritable(`animation ${index} ("${nameOf(a)}") lasts ${seconds} s`);
  const count = Math.floor(seconds * fps + 1e-4) + 1;
  if (before + count > maxFrames) {
    throw overLimit(`animation ${index} ("${nameOf(a)}") lasts ${seconds} s: at ${fps} fps that makes ${before + count} frames in all`, 'maxImportFrames', maxFrames, 0, ErrorCode.Unwritable);
  }
  return count;
}

/**
 * The rate each animation is sampled at: `fps` when given; else, with `keyRate`, the animation's own even key rate
 * (every key kept: an MD2's clips exported to glTF at 10 fps come back as its 198 frames, not 284 at 15), a one-key
 * animation at `fallback`, and an animation of uneven keys at `fallback` with a GLTF_RESAMPLED warning; else `fallback`.
 * @internal
 */
export function animationRates(fps: number | undefined, fallback: number, keyRate: boolean | undefined, warnings: ParseWarning[]): number | ((a: Animation, index: number) => number) {
  if (fps !== undefined || !keyRate) return fps ?? fallback;
  return (a, index) => {
    const own = evenKeyRate(a);
    if (own !== null) return own;
    if (duration(a) > 0) warnings.push({ code: 'GLTF_RESAMPLED', message: `animation ${index} ("${nameOf(a)}"): its keys are not evenly spaced at a whole frame rate: sampled at ${fallback} fps (--fps sets another)`, offset: 0 });
    return fallback;
  };
}

/**
 * Each animation sampled at `fps` (or at `fps(animation, index)`: a rate of its own) from 0 to its last key
 * (`floor(duration · fps) + 1` frames), animations one after the other; without animations one frame, the document
 * as it stands. More than `maxFrames` in all (default `maxImportFrames`) is UNWRITABLE before any is listed.
 * @internal
 */
export function sampleFrames(doc: Document, rate: number | ((animation: Animation, index: number) => number), maxFrames = resourceLimits().maxImportFrames): SampleFrame[] {
  const frames: SampleFrame[] = [];
  doc.getRoot().listAnimations().forEach((a, index) => {
    const fps = typeof rate === 'number' ? rate : rate(a, index);
    const count = animationFrames(a, index, fps, frames.length, maxFrames);
    const play = animationPlayer(a);
    for (let k = 0; k < count; k++) frames.push({ play, animation: index, time: k / fps, name: nameOf(a) });
  });
  if (frames.length === 0) frames.push({ animation: -1, time: 0, name: 'frame' });
  return frames;
}

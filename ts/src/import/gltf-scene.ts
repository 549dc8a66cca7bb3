/**
 * What every glTF → id-format import reads the same way: the default scene's nodes in order, its triangle
 * primitives (winding turned to id's), the frames to sample (each animation at a rate, or the document as it
 * stands), glTF → id axes, and the errors and names the id formats need. `gltf-md3.ts`, `gltf-md2.ts` and
 * `gltf-md5.ts` build their models from these.
 */
import type { Animation, Document, Mesh, Node, Primitive } from '@gltf-transform/core';
import type { ParseWarning } from '../base/errors.js';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { animationPlayer, duration } from './gltf-sample.js';
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

/** One triangle primitive of a mesh node. @internal */
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

/**
 * Every triangle primitive with positions of every mesh node in `nodes`; other primitives are skipped with a
 * GLTF_PRIMITIVE_SKIPPED warning. `filter` picks the nodes (default all).
 * @internal
 */
export function trianglePrimitives(nodes: Node[], warnings: ParseWarning[]): TrianglePrimitive[] {
  const out: TrianglePrimitive[] = [];
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
      // every attribute read per vertex has one element per vertex, of the spec's type (else reads run past it)
      const attributes = [...Object.keys(ATTRIBUTE_SIZES).map((k) => [k, prim.getAttribute(k)] as const), ...prim.listTargets().flatMap((t, i) => (['POSITION', 'NORMAL'] as const).map((k) => [`target ${i} ${k}`, t.getAttribute(k)] as const))];
      for (const [what, a] of attributes) {
        if (!a) continue;
        const size = ATTRIBUTE_SIZES[what.replace(/^target \d+ /, '')];
        if (a.getCount() !== vertexCount || a.getElementSize() !== size) {
          unsupported(`mesh "${name}" primitive ${p}: ${what} has ${a.getCount()} elements of ${a.getElementSize()} values, POSITION ${vertexCount} vertices (${size} values each)`);
        }
      }
      const idx = prim.getIndices();
      const triangleCount = Math.floor((idx ? idx.getCount() : vertexCount) / 3);
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

/** Upper bound on frames sampled from one document unless the caller raises it (`maxFrames`): memory stays bounded. */
export const DEFAULT_MAX_FRAMES = 65536;

/**
 * Each animation sampled at `fps` (or at `fps(animation, index)`: a rate of its own) from 0 to its last key
 * (`floor(duration · fps) + 1` frames), animations one after the other; without animations one frame, the document
 * as it stands. More than `maxFrames` in all is UNWRITABLE (a key at a huge time would otherwise ask for unbounded
 * memory).
 * @internal
 */
export function sampleFrames(doc: Document, rate: number | ((animation: Animation, index: number) => number), maxFrames = DEFAULT_MAX_FRAMES): SampleFrame[] {
  const frames: SampleFrame[] = [];
  doc.getRoot().listAnimations().forEach((a, index) => {
    const fps = typeof rate === 'number' ? rate : rate(a, index);
    const seconds = duration(a);
    const count = Math.floor(seconds * fps + 1e-4) + 1;
    if (!Number.isFinite(seconds) || frames.length + count > maxFrames) {
      unwritable(`animation ${index} ("${nameOf(a)}") lasts ${seconds} s: at ${fps} fps that is more than ${maxFrames} frames in all (maxFrames)`);
    }
    const play = animationPlayer(a);
    for (let k = 0; k < count; k++) frames.push({ play, animation: index, time: k / fps, name: nameOf(a) });
  });
  if (frames.length === 0) frames.push({ animation: -1, time: 0, name: 'frame' });
  return frames;
}

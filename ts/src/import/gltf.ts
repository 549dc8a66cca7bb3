/**
 * glTF 2.0 in, read with glTF Transform (`@gltf-transform/core`), not a reader of our own: a `.glb` or `.gltf` JSON,
 * its files handed in by name (`resources`), read through the caller's `readResource` (gltf-resources.ts: URLs,
 * absolute paths and `..` are refused before any reader is asked), or embedded as data URIs. Browser and Node alike:
 * this floor never touches a file system. Its structure is checked in one pass before anything walks it
 * (gltf-structure.ts).
 */
import { WebIO, type Document } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer';
import { ErrorCode, ModelParseError } from '../base/errors.js';
import { gltfExternalResources, readGltfResources, type GltfResourceReader } from './gltf-resources.js';
import { checkNodeTree, preflightGltf, type GltfLimits } from './gltf-structure.js';

export interface GltfInput {
  /** The `.glb` or `.gltf` file's bytes. */
  bytes: Uint8Array;
  /** The files its `uri`s name, by uri (e.g. `{ 'Cube.bin': bytes }`). */
  resources?: Record<string, Uint8Array>;
  /**
   * Reads a file its `uri`s name that `resources` does not hold. In Node, `gltfFileReader(path)` (idtech-models/node)
   * reads only regular files inside the glTF's own folder; a reader of your own must keep to the same rule
   * (docs/security.md). Without one, a glTF naming a file not in `resources` is READ_FAILED naming it.
   */
  readResource?: GltfResourceReader;
  /**
   * Bounds for this input (default: the process's `ResourceLimits`): node count and depth (16,384 nodes, depth 256),
   * and what an import to an id format may sample from it — `maxImportFrames`, `maxImportBytes`,
   * `maxMorphTargetVertices`, `maxImagePixels` for an MDL skin and `maxAtlasPixels` for an MD2 / MDL atlas (docs/security.md, "glTF → id formats").
   */
  limits?: GltfLimits;
}

const GLB_MAGIC = 0x46546c67; // "glTF"
/** glTF Transform's key for a GLB's binary chunk in a JSON document's resources. */
const GLB_BUFFER = '@glb.bin';

/** @internal */
export async function readGltfDocument({ bytes, resources = {}, readResource, limits }: GltfInput): Promise<Document> {
  // Every extension glTF Transform knows, so what our own exporter writes (KHR_mesh_quantization, and
  // EXT_meshopt_compression with meshoptimizer's decoder) and what other tools write reads back. Draco needs a
  // decoder we do not ship: such a file is UNSUPPORTED, naming the extension.
  await MeshoptDecoder.ready;
  const io = new WebIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
  const glb = bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true) === GLB_MAGIC;
  const chunks = glb ? glbChunks(bytes) : null;
  let json: unknown = null;
  if (!glb) {
    try {
      json = JSON.parse(new TextDecoder().decode(bytes));
    } catch (e) {
      throw unreadable(e);
    }
  } else json = chunks?.json ?? null;
  // Every uri checked (typed errors naming it) and every bound, before a file is read or glTF Transform allocates.
  const external = gltfExternalResources(json);
  const declared = external.reduce((n, r) => n + (Object.hasOwn(resources, r.uri) ? resources[r.uri].length : r.byteLength ?? 0), 0);
  preflightGltf(json, bytes.length + declared, limits);
  const files = await readGltfResources(external, resources, readResource);
  let doc: Document;
  try {
    if (glb && external.length === 0) doc = await io.readBinary(bytes);
    else if (glb) doc = await io.readJSON({ json: chunks!.json as never, resources: { ...files, ...(chunks!.bin ? { [GLB_BUFFER]: chunks!.bin } : {}) } as Record<string, Uint8Array<ArrayBuffer>> });
    else doc = await io.readJSON({ json: json as never, resources: files as Record<string, Uint8Array<ArrayBuffer>> });
  } catch (e) {
    if (e instanceof ModelParseError) throw e;
    throw unreadable(e);
  }
  checkNodeTree(doc, limits);
  checkAccessors(doc);
  checkHierarchy(doc);
  return doc;
}

/**
 * glTF Transform and JSON.parse throw plain Errors (and a JSON value of the wrong type a TypeError): one typed error
 * for every unreadable glTF.
 */
function unreadable(e: unknown): ModelParseError {
  return new ModelParseError(ErrorCode.Unsupported, `not a glTF file we can read (${String((e as Error)?.message ?? e).slice(0, 200)})`, { offset: 0 });
}

/**
 * Node transforms and morph weights must be lists of numbers of their size: glTF Transform passes the JSON through,
 * and a null or short translation would throw inside its matrix code. UNSUPPORTED here, naming the node.
 */
function checkHierarchy(doc: Document): void {
  const numbers = (v: unknown, n: number) => Array.isArray(v) && (n < 0 || v.length === n) && v.every((x) => typeof x === 'number');
  const bad = (what: string, i: number, name: unknown, field: string, v: unknown): never => {
    throw new ModelParseError(ErrorCode.Unsupported, `${what} ${i} ("${String(name).slice(0, 64)}"): ${field} is ${describe(v)}, not a list of numbers of its size`, { offset: 0 });
  };
  doc.getRoot().listMeshes().forEach((m, i) => numbers(m.getWeights(), -1) || bad('mesh', i, m.getName(), 'weights', m.getWeights()));
  doc.getRoot().listNodes().forEach((node, i) => {
    for (const [field, v, n] of [['translation', node.getTranslation(), 3], ['rotation', node.getRotation(), 4], ['scale', node.getScale(), 3], ['weights', node.getWeights(), -1]] as const) {
      if (!numbers(v, n)) bad('node', i, node.getName(), field, v);
    }
  });
}

/** A JSON value in a few words, without walking it (a value nested 100,000 deep must not overflow the stack). */
function describe(v: unknown): string {
  if (Array.isArray(v)) return `a list of ${v.length} (${v.slice(0, 4).map((x) => (typeof x === 'number' ? String(x) : typeof x)).join(', ')}${v.length > 4 ? ', …' : ''})`;
  if (v === null || typeof v !== 'object') return String(v).slice(0, 40);
  return 'an object';
}

/**
 * A GLB's JSON chunk, parsed, and its binary chunk, when the container's lengths hold (glTF 2.0 §4.4); null
 * otherwise (glTF Transform then says what is wrong).
 */
function glbChunks(bytes: Uint8Array): { json: unknown; bin: Uint8Array | null } | null {
  if (bytes.length < 20) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = view.getUint32(12, true);
  if (view.getUint32(16, true) !== 0x4e4f534a || 20 + jsonLength > bytes.length) return null;
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  } catch {
    return null;
  }
  const at = 20 + jsonLength;
  if (at + 8 > bytes.length) return { json, bin: null };
  const binLength = view.getUint32(at, true);
  if (view.getUint32(at + 4, true) !== 0x004e4942 || at + 8 + binLength > bytes.length) return { json, bin: null };
  return { json, bin: bytes.slice(at + 8, at + 8 + binLength) };
}

/**
 * glTF Transform reads an accessor whose buffer view ends early as the values there are, so its count can come out
 * fractional (37.67 VEC3s): such an accessor, or one of an unknown type, is UNSUPPORTED here, naming it, rather than
 * read past its end later.
 */
function checkAccessors(doc: Document): void {
  doc.getRoot().listAccessors().forEach((a, i) => {
    const count = a.getCount();
    const size = a.getElementSize();
    if (!Number.isInteger(count) || !(size >= 1)) {
      const array = a.getArray();
      throw new ModelParseError(ErrorCode.Unsupported, `accessor ${i} ("${a.getName()}"): ${array?.length ?? 0} values are not a whole number of ${String(a.getType())} elements (its count or buffer view is wrong)`, { offset: 0 });
    }
  });
}

/**
 * glTF 2.0 in, read with glTF Transform (`@gltf-transform/core`), not a reader of our own: a `.glb`, or `.gltf`
 * JSON with its buffers handed in by name (`resources`) or embedded as data URIs. Browser and Node alike.
 */
import { WebIO, type Document } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer';
import { ErrorCode, ModelParseError } from '../base/errors.js';

export interface GltfInput {
  /** The `.glb` or `.gltf` file's bytes. */
  bytes: Uint8Array;
  /** For `.gltf`: the files its `uri`s name (e.g. `{ 'Cube.bin': bytes }`). */
  resources?: Record<string, Uint8Array>;
}

const GLB_MAGIC = 0x46546c67; // "glTF"

/** @internal */
export async function readGltfDocument({ bytes, resources = {} }: GltfInput): Promise<Document> {
  // Every extension glTF Transform knows, so what our own exporter writes (KHR_mesh_quantization, and
  // EXT_meshopt_compression with meshoptimizer's decoder) and what other tools write reads back. Draco needs a
  // decoder we do not ship: such a file is UNSUPPORTED, naming the extension.
  await MeshoptDecoder.ready;
  const io = new WebIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
  const glb = bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true) === GLB_MAGIC;
  const inputBytes = bytes.length + Object.values(resources).reduce((n, r) => n + r.length, 0);
  let doc: Document;
  try {
    if (glb) {
      preflight(glbJson(bytes), inputBytes);
      doc = await io.readBinary(bytes);
    } else {
      const json = JSON.parse(new TextDecoder().decode(bytes));
      preflight(json, inputBytes);
      doc = await io.readJSON({ json, resources: resources as Record<string, Uint8Array<ArrayBuffer>> });
    }
  } catch (e) {
    if (e instanceof ModelParseError) throw e;
    // glTF Transform and JSON.parse throw plain Errors (and a JSON value of the wrong type a TypeError): one typed
    // error for every unreadable glTF.
    throw new ModelParseError(ErrorCode.Unsupported, `not a glTF file we can read (${(e as Error)?.message ?? String(e)})`, { offset: 0 });
  }
  checkAccessors(doc);
  checkHierarchy(doc);
  return doc;
}

/**
 * Node transforms and morph weights must be lists of numbers of their size. glTF's nodes form trees (glTF 2.0
 * §3.5.3); a `children` list that names an ancestor makes a cycle, which glTF
 * Transform keeps — and its getWorldMatrix then climbs parents forever, growing a list until the process runs out
 * of memory. UNSUPPORTED here, naming the node.
 */
function checkHierarchy(doc: Document): void {
  const nodes = doc.getRoot().listNodes();
  const numbers = (v: unknown, n: number) => Array.isArray(v) && (n < 0 || v.length === n) && v.every((x) => typeof x === 'number');
  const bad = (what: string, i: number, name: unknown, field: string, v: unknown): never => {
    throw new ModelParseError(ErrorCode.Unsupported, `${what} ${i} ("${String(name)}"): ${field} is ${JSON.stringify(v)?.slice(0, 80)}, not a list of numbers of its size`, { offset: 0 });
  };
  doc.getRoot().listMeshes().forEach((m, i) => numbers(m.getWeights(), -1) || bad('mesh', i, m.getName(), 'weights', m.getWeights()));
  nodes.forEach((node, i) => {
    // glTF Transform passes the JSON through: a null or short translation would throw inside its matrix code
    for (const [field, v, n] of [['translation', node.getTranslation(), 3], ['rotation', node.getRotation(), 4], ['scale', node.getScale(), 3], ['weights', node.getWeights(), -1]] as const) {
      if (!numbers(v, n)) bad('node', i, node.getName(), field, v);
    }
    let n = node.getParentNode();
    for (let depth = 0; n; depth++, n = n.getParentNode()) {
      if (n === node || depth > nodes.length) {
        throw new ModelParseError(ErrorCode.Unsupported, `node ${i} ("${String(node.getName())}") is its own ancestor: its parents' children lists make a cycle`, { offset: 0 });
      }
    }
  });
}

/** A GLB's JSON chunk, parsed (null when it has none we can read: glTF Transform then says why). */
function glbJson(bytes: Uint8Array): unknown {
  if (bytes.length < 20) return null;
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(12, true);
  try {
    return JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length)));
  } catch {
    return null;
  }
}

const COMPONENTS: Record<string, number> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const COMPONENT_BYTES: Record<number, number> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
/** Data a glTF may make from nothing, per input byte: zero-filled accessors (no buffer view) and meshopt-decoded views. */
const MADE_PER_BYTE = 64;

/**
 * Before glTF Transform allocates what the JSON declares: an accessor must fit in its buffer view (glTF 2.0
 * §3.6.2.4: byteOffset + stride · (count − 1) + element size ≤ byteLength), and the data made from nothing — an
 * accessor without a buffer view is `count` zero elements, an EXT_meshopt_compression view decodes to `count ·
 * byteStride` bytes — is at most 64 bytes per input byte + 1 MiB in all. Else BAD_COUNT naming the accessor or
 * view: a count of 10⁹ in 40 bytes of JSON otherwise asks glTF Transform for gigabytes.
 */
function preflight(json: unknown, inputBytes: number): void {
  if (!json || typeof json !== 'object') return;
  const j = json as Record<string, unknown>;
  const list = (x: unknown): Record<string, unknown>[] => (Array.isArray(x) ? x.map((v) => (v && typeof v === 'object' ? v : {}) as Record<string, unknown>) : []);
  const num = (x: unknown, fallback = 0) => (typeof x === 'number' && Number.isFinite(x) ? x : fallback);
  const views = list(j.bufferViews);
  const budget = MADE_PER_BYTE * inputBytes + (1 << 20);
  let made = 0;
  const fail = (detail: string): never => {
    throw new ModelParseError(ErrorCode.BadCount, detail, { offset: 0 });
  };
  const spend = (bytes: number, what: string) => {
    made += bytes;
    if (!(made <= budget)) fail(`${what} makes ${bytes} bytes from no data: more than ${MADE_PER_BYTE} per input byte + 1 MiB (${budget}) in all`);
  };
  views.forEach((v, i) => {
    const ext = (v.extensions as Record<string, Record<string, unknown>> | undefined) ?? {};
    for (const name of ['EXT_meshopt_compression', 'KHR_meshopt_compression']) {
      const m = ext[name];
      if (m && typeof m === 'object') spend(num(m.count) * num(m.byteStride), `buffer view ${i} (${name}, count ${String(m.count)} × byteStride ${String(m.byteStride)})`);
    }
  });
  list(j.accessors).forEach((a, i) => {
    const size = (COMPONENTS[String(a.type)] ?? 0) * (COMPONENT_BYTES[num(a.componentType)] ?? 0);
    const count = num(a.count, -1);
    if (size === 0 || !(count >= 0)) return; // glTF Transform refuses these itself
    const view = typeof a.bufferView === 'number' ? views[a.bufferView] : undefined;
    if (view === undefined) {
      spend(count * size, `accessor ${i} (count ${count}, no buffer view)`);
      return;
    }
    const stride = num(view.byteStride) || size;
    const need = count === 0 ? 0 : num(a.byteOffset) + stride * (count - 1) + size;
    if (need > num(view.byteLength)) fail(`accessor ${i}: count ${count} needs ${need} bytes of buffer view ${String(a.bufferView)}, which holds ${String(view.byteLength)}`);
  });
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

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

export async function readGltfDocument({ bytes, resources = {} }: GltfInput): Promise<Document> {
  // Every extension glTF Transform knows, so what our own exporter writes (KHR_mesh_quantization, and
  // EXT_meshopt_compression with meshoptimizer's decoder) and what other tools write reads back. Draco needs a
  // decoder we do not ship: such a file is UNSUPPORTED, naming the extension.
  await MeshoptDecoder.ready;
  const io = new WebIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ 'meshopt.decoder': MeshoptDecoder });
  const glb = bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0, true) === GLB_MAGIC;
  let doc: Document;
  try {
    if (glb) doc = await io.readBinary(bytes);
    else {
      const json = JSON.parse(new TextDecoder().decode(bytes));
      doc = await io.readJSON({ json, resources: resources as Record<string, Uint8Array<ArrayBuffer>> });
    }
  } catch (e) {
    // glTF Transform and JSON.parse throw plain Errors (and a JSON value of the wrong type a TypeError): one typed
    // error for every unreadable glTF.
    throw new ModelParseError(ErrorCode.Unsupported, `not a glTF file we can read (${(e as Error)?.message ?? String(e)})`, { offset: 0 });
  }
  checkAccessors(doc);
  checkHierarchy(doc);
  return doc;
}

/**
 * glTF's nodes form trees (glTF 2.0 §3.5.3); a `children` list that names an ancestor makes a cycle, which glTF
 * Transform keeps — and its getWorldMatrix then climbs parents forever, growing a list until the process runs out
 * of memory. UNSUPPORTED here, naming the node.
 */
function checkHierarchy(doc: Document): void {
  const nodes = doc.getRoot().listNodes();
  nodes.forEach((node, i) => {
    let n = node.getParentNode();
    for (let depth = 0; n; depth++, n = n.getParentNode()) {
      if (n === node || depth > nodes.length) {
        throw new ModelParseError(ErrorCode.Unsupported, `node ${i} ("${String(node.getName())}") is its own ancestor: its parents' children lists make a cycle`, { offset: 0 });
      }
    }
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

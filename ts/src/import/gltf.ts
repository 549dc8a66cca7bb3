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
  try {
    if (glb) return await io.readBinary(bytes);
    const json = JSON.parse(new TextDecoder().decode(bytes));
    return await io.readJSON({ json, resources: resources as Record<string, Uint8Array<ArrayBuffer>> });
  } catch (e) {
    // glTF Transform and JSON.parse throw plain Errors: one typed error for every unreadable glTF.
    throw new ModelParseError(ErrorCode.Unsupported, `not a glTF file we can read (${(e as Error).message})`, { offset: 0 });
  }
}

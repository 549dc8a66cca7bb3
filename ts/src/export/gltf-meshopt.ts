/**
 * EXT_meshopt_compression over a finished document: every bufferView the meshoptimizer codecs take — vertex attributes
 * whose elements are a multiple of 4 bytes and animation keys (mode ATTRIBUTES; byte weights as 4-byte elements),
 * triangle indices (TRIANGLES) — is encoded by meshoptimizer's own encoder (npm `meshoptimizer`, loaded only when
 * asked for) into buffer 0, the GLB's BIN chunk; the view itself moves to buffer 1, a fallback buffer with no data
 * (the extension is required). Views the codecs cannot take (images), or shrink by less than the JSON they add, stay
 * as they are in buffer 0; when no view is left to encode, or the result is no smaller than the plain quantised .glb
 * (one-frame models of a few KB: the extension's buffers and JSON), the plain .glb is returned. Decoders: three.js's
 * GLTFLoader with `setMeshoptDecoder(MeshoptDecoder)`, Babylon.js, gltfpack, glTF-Transform.
 */
import { elementBytes, glbFile, pad4, type GltfAccessor } from './gltf-builder.js';
import type { GltfOptions, GltfResult } from './gltf.js';
import { reorderVertices } from './gltf-vertex-order.js';

export const EXT_MESHOPT_COMPRESSION = 'EXT_meshopt_compression';

interface View {
  buffer: number;
  byteOffset: number;
  byteLength: number;
  byteStride?: number;
  target?: number;
  extensions?: Record<string, unknown>;
}

/** How a view is encoded (mode and element size), or undefined when the codecs do not take it. */
function codec(view: View, accessor: GltfAccessor | undefined): { mode: 'ATTRIBUTES' | 'TRIANGLES'; stride: number } | undefined {
  if (!accessor) return undefined; // images
  const stride = view.byteStride ?? elementBytes(accessor);
  if (view.target === 34963) return accessor.count % 3 === 0 && (stride === 2 || stride === 4) ? { mode: 'TRIANGLES', stride } : undefined;
  if (stride % 4 === 0 && stride <= 256) return { mode: 'ATTRIBUTES', stride };
  // animation data (no byteStride: the codec's element need not be the accessor's): byte weights as 4-byte elements,
  // the view's length padded to a whole number of them (the builder's zero padding)
  return view.target === undefined && view.byteStride === undefined ? { mode: 'ATTRIBUTES', stride: 4 } : undefined;
}

export interface MeshoptOptions extends GltfOptions {
  /**
   * Renumber each mesh's vertices so that the codec compresses them better (gltf-vertex-order.ts). Off by default:
   * vertex i is then no longer the file's vertex i (MD2: `md2Unwelded`'s); each reordered primitive's
   * `extras.sourceVertex[i]` is the old index of its vertex i.
   */
  reorder?: boolean;
}

/**
 * A built document as one `.glb` with EXT_meshopt_compression (on top of the default KHR_mesh_quantization); the
 * public `toGlbMeshopt(model)` builds it through the format registry (`registry/gltf.ts`).
 */
export async function meshoptGlb(built: GltfResult, options: Pick<MeshoptOptions, 'reorder'> = {}): Promise<Uint8Array> {
  const { MeshoptEncoder } = await import('meshoptimizer/encoder');
  await MeshoptEncoder.ready;
  const { builder } = built;
  const json = builder.document() as { bufferViews?: View[]; accessors?: GltfAccessor[]; buffers?: unknown[]; extensionsUsed?: string[]; extensionsRequired?: string[] };
  const bin = builder.binary();
  const plain = builder.glb(); // what it is without the extension: returned when the extension would not pay
  if (options.reorder) reorderVertices(json as Parameters<typeof reorderVertices>[0], bin);
  const views = json.bufferViews ?? [];
  const accessorOf = new Map<number, GltfAccessor>();
  for (const a of json.accessors ?? []) if (!accessorOf.has(a.bufferView)) accessorOf.set(a.bufferView, a);

  const chunks: Uint8Array[] = [];
  let length = 0;
  const append = (bytes: Uint8Array): number => {
    const at = length;
    chunks.push(bytes);
    length += bytes.byteLength;
    const pad = pad4(length) - length;
    if (pad) chunks.push(new Uint8Array(pad));
    length += pad;
    return at;
  };
  let fallbackLength = 0;
  views.forEach((view, i) => {
    const c = codec(view, accessorOf.get(i));
    const byteLength = c?.mode === 'ATTRIBUTES' ? pad4(view.byteLength) : view.byteLength;
    const count = c ? byteLength / c.stride : 0;
    const encoded = c && MeshoptEncoder.encodeGltfBuffer(bin.subarray(view.byteOffset, view.byteOffset + byteLength), count, c.stride, c.mode);
    const ext = c && encoded && { buffer: 0, byteOffset: length, byteLength: encoded.byteLength, byteStride: c.stride, count, mode: c.mode };
    // a view the codec shrinks by less than the JSON it adds stays as it is (tiny models: a 516-byte grass.md3 grew 1.5×)
    if (!ext || !encoded || encoded.byteLength + JSON.stringify(ext).length + 48 >= view.byteLength) {
      view.byteOffset = append(bin.subarray(view.byteOffset, view.byteOffset + view.byteLength));
      return;
    }
    view.byteLength = byteLength;
    view.extensions = { [EXT_MESHOPT_COMPRESSION]: { ...ext, byteOffset: append(encoded) } };
    view.buffer = 1;
    view.byteOffset = fallbackLength;
    fallbackLength = pad4(fallbackLength + view.byteLength);
  });
  const out = new Uint8Array(length);
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.byteLength;
  }
  if (fallbackLength > 0) {
    json.buffers = [{ byteLength: length }, { byteLength: fallbackLength, extensions: { [EXT_MESHOPT_COMPRESSION]: { fallback: true } } }];
    json.extensionsUsed = [...(json.extensionsUsed ?? []), EXT_MESHOPT_COMPRESSION];
    json.extensionsRequired = [...(json.extensionsRequired ?? []), EXT_MESHOPT_COMPRESSION];
  }
  const glb = glbFile(json, out);
  return glb.byteLength < plain.byteLength ? glb : plain;
}

/** Small glTF documents made in the tests: one triangle, its buffer and image named as the test wants. */

export interface GltfGenOptions {
  /** The buffer's uri (default: none, a GLB-style buffer). */
  bufferUri?: string;
  /** The buffer's declared byteLength (default: the triangle's 36 bytes). */
  byteLength?: number;
  /** A base colour image by uri. */
  imageUri?: string;
  /** Extra top-level fields or replacements (nodes, scenes, accessors…). */
  extra?: Record<string, unknown>;
}

/** Three float32 positions: the triangle's buffer. */
export function triangleBin(): Uint8Array {
  return new Uint8Array(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]).buffer);
}

/** A `.gltf` JSON of one triangle on node 0 (and `extra` merged over it), as bytes. */
export function triangleGltf(o: GltfGenOptions = {}): Uint8Array {
  const json: Record<string, unknown> = {
    asset: { version: '2.0' },
    buffers: [{ ...(o.bufferUri !== undefined ? { uri: o.bufferUri } : {}), byteLength: o.byteLength ?? 36 }],
    bufferViews: [{ buffer: 0, byteLength: 36 }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
    meshes: [{ name: 'tri', primitives: [{ attributes: { POSITION: 0 }, mode: 4, ...(o.imageUri !== undefined ? { material: 0 } : {}) }] }],
    nodes: [{ mesh: 0, name: 'tri' }],
    scenes: [{ nodes: [0] }],
    scene: 0,
    ...(o.imageUri !== undefined
      ? { materials: [{ name: 'skin', pbrMetallicRoughness: { baseColorTexture: { index: 0 } } }], textures: [{ source: 0 }], images: [{ uri: o.imageUri, mimeType: 'image/png' }] }
      : {}),
    ...o.extra,
  };
  return new TextEncoder().encode(JSON.stringify(json));
}

/** A GLB of `json` with `bin` as its binary chunk. */
export function glb(json: unknown, bin: Uint8Array): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json));
  const jsonLen = Math.ceil(text.length / 4) * 4;
  const binLen = Math.ceil(bin.length / 4) * 4;
  const out = new Uint8Array(12 + 8 + jsonLen + 8 + binLen);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x46546c67, true);
  v.setUint32(4, 2, true);
  v.setUint32(8, out.length, true);
  v.setUint32(12, jsonLen, true);
  v.setUint32(16, 0x4e4f534a, true);
  out.set(text, 20);
  out.fill(0x20, 20 + text.length, 20 + jsonLen);
  v.setUint32(20 + jsonLen, binLen, true);
  v.setUint32(24 + jsonLen, 0x004e4942, true);
  out.set(bin, 28 + jsonLen);
  return out;
}

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

/** A GLB of `json` with `bin` as its binary chunk (the hostile-glTF generator's, one copy). */
export { glb } from '../../../fixtures/generate-hostile-gltf.mjs';

/**
 * What a written glTF holds, read back from its own JSON (so the summary line reports the file, not our intent):
 * meshes, vertices (each distinct POSITION accessor once: morph targets and shared accessors are not vertices of
 * their own) and animations.
 */
interface GltfJson {
  meshes?: { primitives: { attributes: Record<string, number> }[] }[];
  accessors?: { count: number }[];
  animations?: unknown[];
}

export interface GltfCounts {
  meshes: number;
  vertices: number;
  animations: number;
}

/** The JSON of a `.glb` (its first chunk) or of a `.gltf` file's bytes. */
export function gltfJson(bytes: Uint8Array): GltfJson {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const isGlb = bytes.length >= 20 && dv.getUint32(0, true) === 0x46546c67; // 'glTF'
  const text = isGlb ? bytes.subarray(20, 20 + dv.getUint32(12, true)) : bytes;
  return JSON.parse(new TextDecoder().decode(text)) as GltfJson;
}

export function gltfCounts(json: GltfJson): GltfCounts {
  const positions = new Set<number>();
  for (const m of json.meshes ?? []) for (const p of m.primitives) if (p.attributes.POSITION !== undefined) positions.add(p.attributes.POSITION);
  let vertices = 0;
  for (const a of positions) vertices += json.accessors?.[a]?.count ?? 0;
  return { meshes: json.meshes?.length ?? 0, vertices, animations: json.animations?.length ?? 0 };
}

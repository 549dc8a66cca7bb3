/**
 * glTF → IQM: the registration's `writer.fromGltf`, loaded on first use (it pulls in glTF Transform).
 */
import { count, noMesh } from '../../write/files.js';
import { gltfToIqm } from './from-gltf.js';
import { parseIqm } from './parser.js';
import { writeIqm } from './write.js';
import type { GltfInput } from '../../import/gltf.js';
import type { WriterOptions, WriterResult } from '../entry.js';

/** OUT.iqm: skinned and animated (glTF → the MD5 import → IQM, weights quantised as the IQM SDK's exporter does). */
export async function iqmFromGltf(gltf: GltfInput, o: WriterOptions): Promise<WriterResult> {
  const { model, warnings } = await gltfToIqm(gltf, { ...(o.fps ? { fps: o.fps } : {}), scale: o.scale, texturePath: o.texturePath });
  if (model.meshes.length === 0) throw noMesh();
  const bytes = writeIqm(model);
  // What we would write, read back by our parser: its ENGINE_LIMIT warnings say which engine's limit it goes past.
  const engine = parseIqm(bytes).warnings.filter((w) => w.code === 'ENGINE_LIMIT');
  return {
    files: [{ path: o.out, bytes }],
    engine: [{ file: o.out, warnings: engine }],
    warnings,
    facts: [count(model.meshes.length, 'mesh', 'meshes'), count(model.vertexCount, 'vertex', 'vertices'), count(model.joints.count, 'joint'), count(model.anims.length, 'anim'), count(model.frameCount, 'frame')],
    refusal: 'an engine will not load it (--validate)',
  };
}

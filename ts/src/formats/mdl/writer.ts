/**
 * glTF → Quake MDL: the registration's `writer.fromGltf`, loaded on first use (it pulls in glTF Transform).
 */
import { atlasFacts, count, noMesh } from '../../write/files.js';
import { importMdl } from './from-gltf.js';
import { mdlEngineLimits, writeMdl } from './write.js';
import type { GltfInput } from '../../import/gltf.js';
import type { WriterOptions, WriterResult } from '../entry.js';

/** One MDL: its skin quantised to Quake's palette and carried in the file (an MDL names no image files). */
export async function mdlFromGltf(gltf: GltfInput, o: WriterOptions): Promise<WriterResult> {
  const { model, atlas } = await importMdl(gltf, { fps: o.fps, keyRate: o.keyRate, scale: o.scale, atlas: o.atlas });
  if (model.triangleCount === 0) throw noMesh();
  const bytes = writeMdl(model);
  // What we would write, read back by our parser: its ENGINE_LIMIT warnings name the engines that refuse it.
  return {
    files: [{ path: o.out, bytes }],
    engine: [{ file: o.out, warnings: mdlEngineLimits(bytes) }],
    warnings: model.warnings,
    facts: [count(model.vertexCount, 'vertex', 'vertices'), count(model.triangleCount, 'triangle'), count(model.poseCount, 'frame'), `skin ${model.skinWidth}×${model.skinHeight}`, ...atlasFacts(atlas)],
    refusal: 'a Quake engine will not load it (--validate)',
  };
}

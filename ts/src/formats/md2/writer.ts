/**
 * glTF → MD2: the registration's `writer.fromGltf`, loaded on first use (it pulls in glTF Transform).
 */
import { atlasFacts, besideOut, count } from '../../write/files.js';
import { md2EngineLimits } from './write-limits.js';
import { gltfToMd2 } from './from-gltf.js';
import { md2GlCommands } from './write-glcmds.js';
import { writeMd2 } from './write.js';
import type { GltfInput } from '../../import/gltf.js';
import type { WriterOptions, WriterResult } from '../entry.js';

/** glTF → the MD2 the writer writes (the registration's `writer.model`, `importGltf(input, { format: 'md2' })`): glTF Transform is this module's. */
export const md2ModelFromGltf = gltfToMd2;

export async function md2FromGltf(gltf: GltfInput, o: WriterOptions): Promise<WriterResult> {
  // the atlas (materials packed into one skin) is named after OUT: x.md2's skin is x.png
  const atlasName = o.out.slice(Math.max(o.out.lastIndexOf('/'), o.out.lastIndexOf('\\')) + 1).replace(/\.[^.]*$/, '');
  const imported = await gltfToMd2(gltf, { fps: o.fps, keyRate: o.keyRate, scale: o.scale, texturePath: o.texturePath, atlas: o.atlas, atlasName });
  const gl = md2GlCommands(imported);
  const model = { ...imported, glCommands: gl };
  const bytes = writeMd2(model);
  // What we would write, read back by our parser: its ENGINE_LIMIT warnings say which Quake 2 limit it goes past.
  return {
    files: [{ path: o.out, bytes }, ...besideOut(o.out, imported.textures)],
    engine: [{ file: o.out, warnings: md2EngineLimits(bytes) }],
    warnings: model.warnings,
    facts: [count(model.vertexCount, 'vertex', 'vertices'), count(model.triangleCount, 'triangle'), count(model.frameCount, 'frame'), count(gl.commandCount, 'glcmd strip/fan', 'glcmd strips/fans'), ...atlasFacts(imported.atlas)],
    refusal: 'Quake 2 will not load it (--validate)',
  };
}

/**
 * glTF → md5mesh + md5anims: the registration's `writer.fromGltf`, loaded on first use (it pulls in glTF Transform).
 */
import { gltfToMd5 } from '../../import/gltf-md5.js';
import { besideOut, count, noMesh, type WrittenFile } from '../../write/files.js';
import { md5AnimEngineLimits, md5MeshEngineLimits } from './write-limits.js';
import { writeMd5Anim } from './write-anim.js';
import { writeMd5Mesh } from './write-mesh.js';
import type { GltfInput } from '../../import/gltf.js';
import type { WriterOptions, WriterResult } from '../entry.js';

/**
 * OUT.md5mesh and, beside it, OUT_<animation>.md5anim for each animation — the first as OUT.md5anim with
 * `assimpNames`: assimp's MD5 loader reads only the md5anim named after its mesh (MD5Loader::LoadMD5AnimFile);
 * Doom 3 names anims in a .def, so any name works there.
 */
/** glTF → the md5mesh and its md5anims the writer writes (the registration's `writer.model`, `importGltf(input, { format: 'md5' })`): glTF Transform is this module's. */
export const md5ModelFromGltf = gltfToMd5;

export async function md5FromGltf(gltf: GltfInput, o: WriterOptions): Promise<WriterResult> {
  const { mesh, anims, warnings, textures } = await gltfToMd5(gltf, { fps: o.fps, scale: o.scale, texturePath: o.texturePath });
  if (mesh.meshes.length === 0) throw noMesh();
  const stem = o.out.slice(0, -'.md5mesh'.length);
  const files: WrittenFile[] = [{ path: o.out, bytes: new TextEncoder().encode(writeMd5Mesh(mesh)) }, ...besideOut(o.out, textures)];
  const engine: WriterResult['engine'] = [{ file: o.out, warnings: md5MeshEngineLimits(mesh) }];
  for (const [i, { name, anim }] of anims.entries()) {
    const path = o.assimpNames && i === 0 ? `${stem}.md5anim` : `${stem}_${name}.md5anim`;
    files.push({ path, bytes: new TextEncoder().encode(writeMd5Anim(anim)) });
    engine.push({ file: path, warnings: md5AnimEngineLimits(anim, mesh, path) });
  }
  const vertices = mesh.meshes.reduce((n, m) => n + m.vertexCount, 0);
  const frames = anims.reduce((n, x) => n + x.anim.frameCount, 0);
  return {
    files,
    engine,
    warnings,
    facts: [count(mesh.meshes.length, 'mesh', 'meshes'), count(vertices, 'vertex', 'vertices'), count(mesh.joints.count, 'joint'), count(anims.length, 'anim'), count(frames, 'frame')],
    refusal: 'Doom 3 will not load it (--validate)',
  };
}

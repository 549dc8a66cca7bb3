/**
 * md5mesh mesh by mesh: the joints first, then one `mesh { }` block at a time. Each mesh handed out is a complete,
 * independent {@link Md5MeshPart} (safe to keep); the reader keeps none, so a file of many meshes can be uploaded
 * and dropped piece by piece. Same engine and guarantees as the frame stream (backpressure, abort, release on
 * `break`, TRUNCATED / BAD_COUNT at the end-of-input position).
 *
 *   const model = await openMd5Meshes(source);
 *   model.header.joints; model.header.meshCount;
 *   for await (const mesh of model) upload(mesh);
 */
import type { Md5MeshPart } from '../../base/model.js';
import type { ByteSource, ReadOptions } from '../../base/source.js';
import { Md5MeshParser, type Md5MeshHeader } from './mesh.js';
import { openElements, type ElementReader } from './pull.js';

export type Md5MeshReader = ElementReader<Md5MeshHeader, Md5MeshPart>;

/** Reads `source` up to its first mesh block; the meshes follow as the reader is iterated. */
export function openMd5Meshes(source: ByteSource, options: ReadOptions = {}): Promise<Md5MeshReader> {
  return openElements<Md5MeshHeader, Md5MeshPart>((onHeader, onMesh) => new Md5MeshParser({ onHeader, onMesh }), source, options);
}

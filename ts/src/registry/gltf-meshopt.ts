/** A model of any registered format as one `.glb` with EXT_meshopt_compression (its own module: only tools use it). */
import { meshoptGlb, type MeshoptOptions } from '../export/gltf-meshopt.js';
import { buildGltf, type GltfExportOptions, type GltfModel } from './gltf.js';

/** The model as one `.glb` with EXT_meshopt_compression (on top of the default KHR_mesh_quantization). */
export async function toGlbMeshopt(model: GltfModel, options: MeshoptOptions & GltfExportOptions = {}): Promise<Uint8Array> {
  return meshoptGlb(await buildGltf(model, options), options);
}

/**
 * glTF in, by target format: `importGltf` builds the data model of MD3, MD2 or MD5 for its writer (each format's own
 * import sits in its folder; the MD5 one, shared with IQM, in `import/`).
 */
import type { GltfInput } from '../import/gltf.js';
import { gltfToMd5, type GltfMd5, type GltfToMd5Options } from '../import/gltf-md5.js';
import { gltfToMd2, type GltfToMd2Options, type ImportedMd2 } from '../formats/md2/from-gltf.js';
import { gltfToMd3, type GltfToMd3Options, type ImportedMd3 } from '../formats/md3/from-gltf.js';

/** Target formats `importGltf` builds: 'md3' → Md3Model, 'md2' → Md2Model (gltf-md2.ts), 'md5' → md5mesh + md5anims (gltf-md5.ts). */
export type GltfImportFormat = 'md3' | 'md2' | 'md5';

/** glTF/GLB → the data model of `format`, ready for its writer (`writeMd3`; `writeMd2`; `writeMd5Mesh` + `writeMd5Anim`). */
export function importGltf(input: GltfInput, options: GltfToMd3Options & { format: 'md3' }): Promise<ImportedMd3>;
export function importGltf(input: GltfInput, options: GltfToMd2Options & { format: 'md2' }): Promise<ImportedMd2>;
export function importGltf(input: GltfInput, options: GltfToMd5Options & { format: 'md5' }): Promise<GltfMd5>;
export function importGltf(input: GltfInput, options: (GltfToMd3Options | GltfToMd2Options | GltfToMd5Options) & { format: GltfImportFormat }): Promise<ImportedMd3 | ImportedMd2 | GltfMd5> {
  if (options.format === 'md3') return gltfToMd3(input, options);
  if (options.format === 'md2') return gltfToMd2(input, options);
  if (options.format === 'md5') return gltfToMd5(input, options);
  throw new RangeError(`importGltf: format ${JSON.stringify(options.format)} is not supported (md3, md2, md5)`);
}
